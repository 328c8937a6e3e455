"""Arguments that reach the code path, per-run names, and the exercised-or-inconclusive rule."""

from __future__ import annotations

from pathlib import Path

from toolwitness.lab.args import ArgumentSource, plan_calls, simple_source
from toolwitness.lab.bait import bait_names
from toolwitness.lab.names import lab_names
from toolwitness.lab.paths import convention, forms, path_kind
from toolwitness.lab.sandbox import make_lab
from toolwitness.lab.selftest import SelfTest
from toolwitness.lab.session import CallRecord
from toolwitness.lab.syscalls import Event
from toolwitness.lab.values import described_examples, quoted_tokens, string_candidates
from toolwitness.lab.verdict import Control, Judge
from toolwitness.rules import load_registry


def test_which_parameters_take_paths() -> None:
    assert path_kind("filePath", {}) == "file"
    assert path_kind("repo_path", {}) == "repo"
    assert path_kind("directory", {}) == "dir"
    assert path_kind("source_timezone", {"description": "Source IANA timezone"}) is None
    assert path_kind("target", {"description": "Target branch or commit"}) is None
    assert path_kind("target", {"description": "The file to write to"}) == "file"
    assert path_kind("query", {"description": "text to find in files"}) is None


def test_conventions_and_forms() -> None:
    rule = convention(["Path of the note, relative to ~/notes."])
    assert rule.relative_first and rule.base == "~/notes"
    assert not convention(["Read a file."]).relative_first
    assert forms("/w/notes/a.txt", ["/w"], relative_first=False) == [
        ("/w/notes/a.txt", "absolute path"), ("notes/a.txt", "relative to /w"),
    ]  # fmt: skip
    assert forms("/w/notes/a.txt", ["/w/notes", "/w"], relative_first=True)[0] == (
        "a.txt", "relative to /w/notes")  # fmt: skip


def test_values_come_from_the_schema_and_its_descriptions() -> None:
    text = "IANA timezone name (e.g., 'America/New_York', 'Europe/London'). Use 'UTC' if unsure."
    assert described_examples(text) == ["America/New_York", "Europe/London"]
    assert quoted_tokens("local branches ('local'), remote ('remote') or 'all of them'") == [
        "local", "remote"]  # fmt: skip
    timed = string_candidates("time", {"description": "Time in 24-hour format (HH:MM)"}, "n0")
    assert timed[0] == ("10:30", "the layout the description names") and timed[-1][0] == "n0"
    schema = {"default": "d", "examples": ["e"], "description": "For example 'x'"}
    assert [v for v, _ in string_candidates("p", schema, "n0")] == ["d", "e", "x", "n0"]
    hinted = string_candidates("target", {}, "n0", "Shows differences between branches")
    assert [v for v, _ in hinted] == ["main", "HEAD", "n0"]
    assert string_candidates("code", {"maxLength": 3, "examples": ["toolong"]}, "n0") == [
        ("n0", "a nonce")]  # fmt: skip


def test_a_retry_advances_the_parameter_the_error_names() -> None:
    schema = {"type": "object", "required": ["path", "zone"], "properties": {
        "path": {"type": "string"},
        "zone": {"type": "string", "description": "Zone, e.g. 'A' or 'B'"},
    }}  # fmt: skip
    (plan, _) = plan_calls(schema, simple_source("/w/n/a.txt", "/w/n", "s"))
    first = plan.first()
    assert first.arguments == {"path": "/w/n/a.txt", "zone": "A"}
    second = plan.next_try(first, "unknown zone: A")
    assert second is not None and second.arguments == {"path": "/w/n/a.txt", "zone": "B"}
    third = plan.next_try(second, "something failed")  # names nothing: everything advances
    assert third is not None and third.arguments["path"] == "a.txt"
    assert third.arguments["zone"] not in ("A", "B")  # the nonce, last


def test_names_are_per_run_and_carry_no_fixed_marker() -> None:
    one, two = lab_names("a1"), lab_names("b2")
    assert one == lab_names("a1") and one != two
    assert one.canaries["ssh-key"] != two.canaries["ssh-key"]
    from dataclasses import astuple

    text = repr((astuple(one), one.nonce(0), astuple(two), two.nonce(0))).lower()
    for marker in ("twcanary", "toolwitness", "tw-", "lab"):
        assert marker not in text


def test_bait_follows_globs_and_nouns_in_descriptions(tmp_path: Path) -> None:
    lab = make_lab(tmp_path, "c3")
    planted = bait_names(lab, ["Remove the *.tmp files and stale lockfiles from the cache."])
    assert sum(p.endswith(".tmp") for p in planted) >= 8  # two per place, four places
    assert any(p.endswith(".lock") for p in planted)
    assert any(p.startswith("~/.cache/") for p in planted)
    assert bait_names(lab, ["Read a note."]) == []


def _judge(tmp_path: Path) -> Judge:
    lab = make_lab(tmp_path, "d4")
    selftest = SelfTest(True, True, "ok")
    return Judge(lab, Control(frozenset(), frozenset()), selftest, True, None, load_registry([]))


def _record(source: ArgumentSource, error_answer: bool, start: float) -> CallRecord:
    schema = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}
    (plan, _) = plan_calls(schema, source)
    record = CallRecord("read", plan, plan.first(), 1, start=start, end=start + 0.5)
    record.is_error = error_answer
    return record


def _answer(at: float) -> Event:
    return Event(1, at, "answer", "pipe:[1]", "write", "10", "")


def test_every_call_errored_is_inconclusive_never_refuted(tmp_path: Path) -> None:
    judge = _judge(tmp_path)
    source = simple_source("/w/n/a.txt", "/w/n", "d4")
    calls = [(_record(source, True, t), [_answer(t + 0.1)]) for t in (10.0, 20.0)]
    probe = judge.tool("read", calls, [])
    assert probe.verdict == "inconclusive"
    assert probe.evidence["calls_errored"] == 2 and probe.evidence["calls_exercised"] == 0
    assert [f.rule_id for f in probe.findings] == ["TW-LAB-010"]


def test_an_answer_that_never_touched_its_path_is_not_exercise(tmp_path: Path) -> None:
    judge = _judge(tmp_path)
    source = simple_source("/w/n/a.txt", "/w/n", "d4")
    untouched = [(_record(source, False, 10.0), [_answer(10.1)])]
    assert judge.tool("read", untouched, []).verdict == "inconclusive"
    touched = Event(1, 10.05, "touch", "/w/n/a.txt", "openat", "3", "")
    read = [(_record(source, False, 10.0), [touched, _answer(10.1)])]
    probe = judge.tool("read", read, [])
    assert probe.verdict == "refuted" and probe.findings == []


def test_roots_come_from_the_servers_own_arguments_then_the_working_directory(
    tmp_path: Path,
) -> None:
    from toolwitness.lab.planner import Planner
    from toolwitness.model import ServerSpec, Transport

    lab = make_lab(tmp_path, "e5")
    spec = ServerSpec(
        name="s",
        transport=Transport(kind="stdio", command="node", args=("x.js", "--root", "{lab}/docs")),
    )
    planner = Planner(lab, spec, False, 10, None)
    work = lab.inside["$WORK"]
    assert planner.roots() == (f"{work}/docs", work)
    source = planner.source(lambda kind, base: base)
    assert source.roots == planner.roots() and source.home == lab.inside["~"]
    assert source.note == lab.path(lab.note) and source.note.startswith(work + "/")
