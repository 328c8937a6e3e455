"""Lab units: argument synthesis, strace parsing, snapshot diffs, selection, agreement."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolwitness.lab.args import (
    ArgumentSource,
    CannotSynthesize,
    plan_calls,
    simple_source,
    takes_path,
)
from toolwitness.lab.run import agreement
from toolwitness.lab.sandbox import make_lab, real_argv
from toolwitness.lab.selection import select_tools
from toolwitness.lab.syscalls import parse
from toolwitness.lab.verdict import counts
from toolwitness.lab.witness import MAX_ENTRIES, WitnessFailed, diff, snapshot
from toolwitness.model import ServerSurface, Tool
from toolwitness.result import ToolResult


def _source() -> ArgumentSource:
    return simple_source("/lab/work/notes/a.txt", "/lab/work/notes", "s1")


def test_path_parameters_get_planted_then_fresh_nonce_paths() -> None:
    schema = {
        "type": "object",
        "properties": {"filePath": {"type": "string"}, "repo_path": {"type": "string"}},
        "required": ["filePath"],
    }
    planted_plan, fresh_plan = plan_calls(schema, _source())
    planted, fresh = planted_plan.first(), fresh_plan.first()
    assert planted.arguments == {
        "filePath": "/lab/work/notes/a.txt",
        "repo_path": "/lab/work/notes",
    }
    assert fresh_plan.label == "nonce"
    assert fresh.arguments["filePath"].startswith("/lab/work/notes/")
    assert fresh.arguments["filePath"].endswith(".txt")
    assert not fresh.arguments["repo_path"].endswith(".txt")  # a directory
    assert set(fresh.fresh_paths) == set(fresh.arguments.values())
    assert len(set(fresh.fresh_paths)) == 2  # never the same nonce twice
    # The fallback forms: relative to the root, then (for a file) the planted folder.
    second = planted_plan.next_try(planted, "error: no such file")
    assert second is not None and second.arguments["filePath"] == "a.txt"


def test_minimal_values_respect_constraints() -> None:
    schema = {
        "type": "object",
        "properties": {
            "count": {"type": "integer", "minimum": 3, "maximum": 9},
            "ratio": {"type": "number", "exclusiveMinimum": 0.5},
            "mode": {"enum": ["fast", "slow"]},
            "flag": {"type": "boolean"},
            "tags": {"type": "array", "items": {"type": "string"}, "minItems": 2},
            "opts": {"type": "object", "properties": {"k": {"type": "string", "maxLength": 3}},
                     "required": ["k"]},
            "name": {"type": ["null", "string"], "minLength": 20},
            "unused": {"type": "string"},
        },
        "required": ["count", "ratio", "mode", "flag", "tags", "opts", "name"],
    }  # fmt: skip
    (plan,) = plan_calls(schema, _source())
    args = plan.first().arguments
    assert args["count"] == 3 and args["ratio"] == 1.5 and args["mode"] == "fast"
    assert args["flag"] is False and len(args["tags"]) == 2 and len(args["opts"]["k"]) == 3
    assert len(args["name"]) == 20 and "unused" not in args
    assert not takes_path(schema)


def test_unresolvable_schema_is_refused_with_a_reason() -> None:
    schema = {"type": "object", "properties": {"x": {"$ref": "#/defs/x"}}, "required": ["x"]}
    with pytest.raises(CannotSynthesize, match="\\$ref"):
        plan_calls(schema, _source())


def _surface(*tools: dict[str, object]) -> ServerSurface:
    return ServerSurface(id="s", tools=[Tool.model_validate(t) for t in tools])


def test_selection_calls_only_read_only_tools_and_says_why_not() -> None:
    schema = {"type": "object", "properties": {}}
    surface = _surface(
        {"name": "read_a", "inputSchema": schema, "annotations": {"readOnlyHint": True}},
        {"name": "read_b", "inputSchema": schema, "annotations": {"readOnlyHint": False}},
        {"name": "list_things", "description": "List the things.", "inputSchema": schema},
        {"name": "get_and_delete", "description": "Delete the file after reading it.",
         "inputSchema": schema},
        {"name": "frobnicate", "inputSchema": schema},
    )  # fmt: skip
    chosen = select_tools(surface, all_tools=False)
    assert chosen["read_a"] is None and chosen["list_things"] is None
    assert "readOnlyHint false" in (chosen["read_b"] or "")
    assert "destructive" in (chosen["get_and_delete"] or "")
    assert "read word" in (chosen["frobnicate"] or "")
    assert all(v is None for v in select_tools(surface, all_tools=True).values())


_TRACE = r"""
7     1700000000.100000 openat(AT_FDCWD</lab/work>, "notes/new.txt", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3</lab/work/notes/new.txt>
7     1700000000.100100 openat(AT_FDCWD</lab/work>, "/etc/passwd", O_RDONLY|O_CLOEXEC) = 3</etc/passwd>
7     1700000000.100200 openat(AT_FDCWD</lab/work>, "/usr/x", O_WRONLY|O_CREAT, 0666) = -1 EROFS (Read-only file system)
7     1700000000.100300 openat(AT_FDCWD</lab/work>, "/lab/home/.ssh/id_rsa", O_RDONLY) = 4</lab/home/.ssh/id_rsa>
8     1700000000.200000 execve("/bin/sh", ["sh", "-c", "x"], 0x7ff /* 3 vars */ <unfinished ...>
7     1700000000.200100 unlinkat(AT_FDCWD</lab/work>, "notes/a \"q\".txt", 0) = 0
8     1700000000.200200 <... execve resumed>) = 0
7     1700000000.300000 connect(5<socket:[1]>, {sa_family=AF_INET, sin_port=htons(443), sin_addr=inet_addr("1.2.3.4")}, 16) = -1 ENETUNREACH (Network is unreachable)
7     1700000000.300100 connect(6<socket:[2]>, {sa_family=AF_UNIX, sun_path="/run/x"}, 110) = -1 ENOENT (No such file or directory)
7     1700000000.350000 write(1<pipe:[7]>, "git version", 11) = 11
7     1700000000.360000 write(7<pipe:[9]>, "{\"jsonrpc\":\"2.0\"", 16) = 16
7     1700000000.400000 write(7<pipe:[9]>, "{\"result\":{", 10) = 10
7     1700000000.400100 renameat2(AT_FDCWD</lab/work>, "a", AT_FDCWD</lab/work>, "b", 0) = 0
7     1700000000.400200 mkdir("/lab/work/x", 0777) = -1 EEXIST (File exists)
+++ exited with 0 +++
"""


def test_strace_lines_become_attributed_events() -> None:
    events = list(parse(_TRACE.splitlines(), {"ssh-key": "/lab/home/.ssh/id_rsa"}, setup_execs=0))
    assert [(e.target, e.ok) for e in events[:3]] == [
        ("/lab/work/notes/new.txt", True),  # the kernel's path from the -y annotation
        ("/usr/x", False),
        ("/lab/home/.ssh/id_rsa", True),
    ]
    assert events[4].target == "/bin/sh -c x" and events[4].ok
    assert events[5].target == "socket 1.2.3.4:443" and not events[5].ok
    assert events[6].target == "unix:/run/x"  # a Unix socket path is a connection attempt too
    kinds = [e.kind for e in events]
    assert kinds == ["write", "write", "canary-read", "unlink", "exec", "connect", "connect",
                     "answer", "answer", "rename", "mkdir"]  # fmt: skip
    assert events[3].target == '/lab/work/notes/a "q".txt'
    assert events[4].time == pytest.approx(1700000000.2)  # the unfinished half's time
    # The stdout pipe is found from the JSON-RPC write; a child's own fd 1 is not an answer.
    assert [e.time for e in events if e.kind == "answer"] == [1700000000.36, 1700000000.4]
    assert events[9].target == "/lab/work/a -> /lab/work/b"
    # A refused write still counts (intent); a failed mkdir on an existing dir does not.
    assert counts(events[1]) and not counts(events[10])
    assert counts(events[5]) and counts(events[6])  # every connection attempt counts


def test_snapshot_diff_names_creations_modifications_deletions(tmp_path: Path) -> None:
    lab = make_lab(tmp_path, "u1")
    before = snapshot(lab)
    (lab.home / "new.log").write_text("hello", encoding="utf-8")
    lab.host(lab.note).write_text("changed", encoding="utf-8")
    (lab.host(lab.notes) / lab.names.second).unlink()
    (lab.tmp / "mode").write_text("x", encoding="utf-8")
    after_create = snapshot(lab)
    (lab.tmp / "mode").chmod(0o755)
    changes = diff(before, snapshot(lab), lab)
    got = {(c.change, c.path) for c in changes}
    assert got == {
        ("created", "~/new.log"),
        ("modified", lab.note),
        ("deleted", f"{lab.notes}/{lab.names.second}"),
        ("created", "$TMPDIR/mode"),
    }
    assert next(c for c in changes if c.path == "~/new.log").excerpt == "hello"
    mode_only = diff(after_create, snapshot(lab), lab)
    assert [(c.change, c.path) for c in mode_only] == [("modified", "$TMPDIR/mode")]
    (lab.home / "blob").write_bytes(b"DIRC\x00\x00\x00\x02")
    (blob,) = [c for c in diff(before, snapshot(lab), lab) if c.path == "~/blob"]
    assert blob.excerpt == "hex:4449524300000002"


def test_a_flooded_lab_makes_the_snapshot_fail(tmp_path: Path) -> None:
    lab = make_lab(tmp_path, "u2")
    for i in range(MAX_ENTRIES + 1):
        (lab.tmp / f"f{i}").touch()
    with pytest.raises(WitnessFailed, match="flooded"):
        snapshot(lab)


def test_script_shebangs_resolve_to_the_real_interpreter(tmp_path: Path) -> None:
    import sys

    script = tmp_path / "server"
    script.write_text(f"#!/usr/bin/env {Path(sys.executable).name}\nprint(1)\n", encoding="utf-8")
    script.chmod(0o755)
    env = {"PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin"}
    argv = real_argv((str(script), "--x"), env)
    assert argv[1:] == (str(script), "--x")
    assert Path(argv[0]).name == Path(sys.executable).name


def test_code_verification_agreement_by_capability() -> None:
    def tool(verdict: str | None, actual: tuple[str, ...]) -> ToolResult:
        return ToolResult(
            name="t", digest="sha256:0", field_digests={}, verdict=verdict, actual=actual
        )

    wrote = {"verdict": "confirmed", "evidence": {"observed": [
        {"witness": "filesystem", "change": "modified", "path": "$WORK/x"},
        {"witness": "syscalls", "kind": "exec", "target": "/usr/bin/git status"},
    ]}}  # fmt: skip
    nothing = {"verdict": "refuted", "evidence": {}}
    assert agreement(tool(None, ()), wrote) is None
    both = agreement(tool("OK", ("READ_FS", "EXEC_PROCESS")), wrote) or {}
    assert both["observed"] == ["EXEC_PROCESS", "WRITE_FS"]
    assert both["agreement"] == "disagree: the lab saw WRITE_FS, which code did not predict"
    full = agreement(tool("OK", ("READ_FS", "WRITE_FS", "EXEC_PROCESS")), wrote) or {}
    assert full["agreement"] == "agree"
    quiet = agreement(tool("OK", ("READ_FS",)), nothing) or {}
    assert quiet["agreement"] == "agree"
    loud = agreement(tool("OK", ("READ_FS", "EXEC_PROCESS")), nothing) or {}
    assert loud["agreement"].startswith("disagree: code predicts EXEC_PROCESS")
    skipped = agreement(tool("OK", ()), {"verdict": "skipped", "evidence": {}}) or {}
    assert skipped["agreement"].startswith("not comparable")


def test_the_call_budget_skips_the_rest_by_name(tmp_path: Path) -> None:
    from toolwitness.lab.planner import Planner
    from toolwitness.model import ServerSpec, Transport

    schema = {"type": "object", "properties": {"path": {"type": "string"}}}
    surface = _surface(
        *({"name": f"read_{i}", "inputSchema": schema, "annotations": {"readOnlyHint": True}}
          for i in range(4))
    )  # fmt: skip
    spec = ServerSpec(name="s", transport=Transport(kind="stdio", command="python3"))
    planner = Planner(make_lab(tmp_path, "b1"), spec, all_tools=False, max_calls=5, repo=None)
    plans = planner(surface)
    assert [(tool, plan.label) for tool, plan in plans] == [
        ("read_0", "planted"), ("read_0", "nonce"), ("read_1", "planted"), ("read_1", "nonce"),
    ]  # fmt: skip
    assert planner.skipped == {
        "read_2": "over the lab's budget of 5 calls",
        "read_3": "over the lab's budget of 5 calls",
    }
