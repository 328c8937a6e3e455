"""Hypothesis campaigns on every file parser the CLI has (issue 19): client configs (JSON, JSONC,
YAML, TOML), lockfiles, rule packs, suppressions, baselines and `.toolwitness.toml`.

Random bytes are covered in test_parser_errors.py; here the input is *structured*: a real,
valid document of each kind, mutated at random places into hostile values (integers of
thousands of digits or past 2^53, NaN, deep nesting, lone surrogates, control characters,
wrong types, unknown keys), then written out in the file's own syntax. Every example must give
a value or a clean InputError (exit 2) whose message is one line naming the file; any other
exception, and any exit 3 from the CLI, fails the campaign. Source front-ends have their own
campaign (test_code_hostile.py).
"""

from __future__ import annotations

import copy
import json
import math
import tempfile
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from toolwitness.acquire.limits import InputLimits
from toolwitness.acquire.targets import resolve_targets
from toolwitness.baseline import load_baseline
from toolwitness.cli import main
from toolwitness.cli_config import read_config
from toolwitness.errors import InputError
from toolwitness.integrity.lock import parse_lock
from toolwitness.rules import builtin_packs, load_registry, parse_pack
from toolwitness.suppressions import parse_suppressions
from toolwitness.textnorm import escape_display

ROOT = Path(__file__).resolve().parent.parent
LIMITS = InputLimits()
PARSERS = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
CLI_RUNS = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))

# -- hostile values and where they go ------------------------------------------------------------

# Python cannot even print an integer of 4,301 digits (nor can hypothesis shrink one), so the
# document holds this marker and the serialised text gets the digits in its place.
BIG = "BIGINTEGERMARKER"
_BIG_DIGITS = "7" * 4301


def _with_big(text: str) -> str:
    return text.replace(json.dumps(BIG), _BIG_DIGITS).replace(BIG, _BIG_DIGITS)


_SCALARS = st.one_of(
    st.integers(),  # unbounded: past ±(2^53-1), and sometimes hundreds of digits
    st.sampled_from([2**53, -(2**53), 10**4299]),  # past 2^53; 4,300 digits (int()'s limit)
    st.just(BIG),  # 4,301 digits: written into the file's text after serialising, see _with_big
    st.floats(),  # NaN and infinities included
    st.text(max_size=40),
    st.text(alphabet=st.characters(codec="utf-8", categories=["Cc", "Cf", "Zs", "Co"]), max_size=8),
    st.sampled_from(["\ud800", "a\udfffb", "\x00", "\u202e", "*", "[", "TW-INJ-001", "../x"]),
    st.booleans(),
    st.none(),
)


def _deep(depth: int) -> Any:
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value


HOSTILE = st.one_of(
    _SCALARS,
    st.lists(_SCALARS, max_size=4),
    st.dictionaries(st.text(max_size=6), _SCALARS, max_size=3),
    st.integers(50, 120).map(_deep),  # past every depth bound
    st.just("x" * 100_001),  # one character past the string bound
)


def _places(doc: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside `doc` (the root excluded)."""
    out: list[tuple[Any, ...]] = []
    items = doc.items() if isinstance(doc, dict) else enumerate(doc) if isinstance(doc, list) else ()
    for key, child in items:
        out.append((*prefix, key))
        out.extend(_places(child, (*prefix, key)))
    return out


@st.composite
def mutated(draw: st.DrawFn, base: Any) -> Any:
    """`base` with one to four values replaced, keys added, or entries deleted."""
    doc = copy.deepcopy(base)
    for _ in range(draw(st.integers(1, 4))):
        places = _places(doc)
        if not places:
            break
        path = draw(st.sampled_from(places))
        parent = doc
        for key in path[:-1]:
            parent = parent[key]
        action = draw(st.sampled_from(["replace", "replace", "add", "delete"]))
        if action == "replace":
            parent[path[-1]] = draw(HOSTILE)
        elif action == "add" and isinstance(parent, dict):
            parent[draw(st.text(max_size=8))] = draw(HOSTILE)
        elif action == "add" and isinstance(parent, list):
            parent.append(draw(HOSTILE))
        else:
            del parent[path[-1]]
    return doc


def _one_clean_line(error: InputError, name: str) -> None:
    """The file is named; the CLI prints the message escaped on one line (`cli_support.die`),
    since it may quote the hostile key that caused it."""
    message = str(error)
    assert name in message, message
    assert "\n" not in escape_display(message)


def _clean(parse: Callable[[], object], name: str) -> None:
    """A value, or an InputError of one line naming the file; anything else fails the test."""
    try:
        parse()
    except InputError as error:
        _one_clean_line(error, name)


# -- serialisers: the file's own syntax --------------------------------------------------------


def _json(doc: Any) -> str:
    return _with_big(json.dumps(doc))  # NaN and Infinity are written as Python would


def _jsonc(doc: Any) -> str:
    text = _with_big(json.dumps(doc, indent=1))
    return "// a client config\n" + text.replace("\n}", ",\n /* trailing */ }")


def _yaml(doc: Any) -> str:
    try:
        return _with_big(yaml.safe_dump(doc, allow_unicode=True))
    except (yaml.YAMLError, UnicodeEncodeError):
        assume(False)  # not every Python value has a YAML spelling (lone surrogates)
        raise AssertionError from None


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float) and math.isnan(value):
        return "nan"
    if isinstance(value, float) and math.isinf(value):
        return "inf" if value > 0 else "-inf"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)  # a TOML basic string, escapes included
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(k)} = {_toml_value(v)}" for k, v in value.items()) + "}"
    assume(False)  # TOML has no null
    raise AssertionError


def _toml(doc: Any) -> str:
    """Top-level scalars first, then one [table] per dict (nested dicts inline)."""
    lines = [f"{json.dumps(k)} = {_toml_value(v)}" for k, v in doc.items() if not isinstance(v, dict)]
    for key, table in doc.items():
        if isinstance(table, dict):
            lines.append(f"[{json.dumps(key)}]")
            for inner, value in table.items():
                if isinstance(value, dict):
                    lines.append(f"[{json.dumps(key)}.{json.dumps(inner)}]")
                    lines.extend(f"{json.dumps(k)} = {_toml_value(v)}" for k, v in value.items())
                else:
                    lines.append(f"{json.dumps(inner)} = {_toml_value(value)}")
    return _with_big("\n".join(lines) + "\n")


# -- client configs -----------------------------------------------------------------------------

CLIENT_CONFIGS = {
    # (file name, syntax writer, a valid document of that client's shape)
    "claude-json": ("mcp.json", _json, {"mcpServers": {
        "notes": {"command": "npx", "args": ["-y", "notes-mcp@1.2.0"], "env": {"KEY": "v"}},
        "remote": {"type": "http", "url": "https://mcp.example.test/mcp",
                   "headers": {"Authorization": "Bearer x"}},
    }}),
    "vscode-jsonc": ("settings.jsonc", _jsonc, {"servers": {
        "git": {"type": "stdio", "command": "uvx", "args": ["mcp-server-git==2026.10.19"]},
    }, "inputs": [{"id": "token", "type": "promptString"}]}),
    "zed-json": ("settings.json", _json, {"context_servers": {
        "fs": {"command": {"path": "node", "args": ["server.js"], "env": {}}},
    }}),
    "continue-yaml": ("config.yaml", _yaml, {"name": "c", "mcpServers": [
        {"name": "fs", "command": "npx", "args": ["-y", "@scope/fs@1.0.0"], "env": {"A": "1"}},
    ]}),
    "codex-toml": ("config.toml", _toml, {"model": "o3", "mcp_servers": {
        "docs": {"command": "npx", "args": ["-y", "docs-mcp@2.0.0"], "startup_timeout_sec": 20},
    }}),
}  # fmt: skip


@pytest.mark.parametrize("client", sorted(CLIENT_CONFIGS))
def test_mutated_client_configs_give_servers_or_a_clean_error(client: str) -> None:
    name, write, base = CLIENT_CONFIGS[client]

    @PARSERS
    @given(mutated(base))
    def campaign(doc: Any) -> None:
        text = write(doc)
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / name
            path.write_text(text, encoding="utf-8", errors="surrogatepass")
            _clean(lambda: resolve_targets([path], LIMITS).surfaces(), name)

    campaign()


# -- lockfiles ------------------------------------------------------------------------------------


@cache
def _real(kind: str) -> Any:
    """A valid document of `kind`, written by toolwitness itself from an example catalog."""
    catalog = ROOT / "examples" / "catalogs" / "notes-poisoned.json"
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / kind
        if kind == "lock":
            assert main(["lock", str(catalog), "--server-id", "notes", "-y", "-o", str(out)]) == 0
        else:
            assert main(["scan", str(catalog), "-q", "--write-baseline", str(out)]) in (0, 1)
        return json.loads(out.read_text())


def test_mutated_lockfiles_parse_or_fail_cleanly() -> None:
    @PARSERS
    @given(mutated(_real("lock")))
    def campaign(doc: Any) -> None:
        data = _json(doc).encode("utf-8", "surrogatepass")
        _clean(lambda: parse_lock(data, "toolwitness.lock", LIMITS), "toolwitness.lock")

    campaign()


def test_mutated_lockfiles_never_crash_a_scan_against_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Past the parser: a scan verifying a surface against a mutated lockfile exits 0, 1 or 2."""
    catalog = ROOT / "examples" / "catalogs" / "notes-poisoned.json"
    path = tmp_path / "toolwitness.lock"

    @CLI_RUNS
    @given(mutated(_real("lock")))
    def campaign(doc: Any) -> None:
        path.write_bytes(_json(doc).encode("utf-8", "surrogatepass"))
        code = main(["scan", str(catalog), "-q", "--lock", str(path), "--strict"])
        err = capsys.readouterr().err
        assert code in (0, 1, 2), err
        assert "Traceback" not in err and "internal error" not in err

    campaign()


# -- baselines ----------------------------------------------------------------------------------


def test_mutated_baselines_load_or_fail_cleanly(tmp_path: Path) -> None:
    path = tmp_path / "baseline.json"

    @PARSERS
    @given(mutated(_real("baseline")))
    def campaign(doc: Any) -> None:
        path.write_bytes(_json(doc).encode("utf-8", "surrogatepass"))
        _clean(lambda: load_baseline(path, LIMITS), "baseline.json")

    campaign()


# -- rule packs and suppressions ------------------------------------------------------------------


def _builtin_pack() -> Any:
    _name, text = builtin_packs()[0]
    return yaml.safe_load(text)


SUPPRESSIONS = {"suppressions": [
    {"rule": "TW-CAP-012", "tool": "read_*", "server": "fs", "justification": "confined in code"},
    {"rule": "TW-INJ-001", "justification": "a test fixture"},
]}  # fmt: skip


def test_mutated_rule_packs_load_or_fail_cleanly(tmp_path: Path) -> None:
    path = tmp_path / "pack.yaml"

    @PARSERS
    @given(mutated(_builtin_pack()))
    def campaign(doc: Any) -> None:
        text = _yaml(doc)
        _clean(lambda: parse_pack(text, "pack.yaml"), "pack.yaml")
        path.write_text(text, encoding="utf-8")
        _clean(lambda: load_registry([path]), "pack.yaml")

    campaign()


def test_mutated_suppressions_load_or_fail_cleanly() -> None:
    @PARSERS
    @given(mutated(SUPPRESSIONS))
    def campaign(doc: Any) -> None:
        text = _yaml(doc)
        _clean(lambda: parse_suppressions(text, "supp.yaml"), "supp.yaml")

    campaign()


# -- .toolwitness.toml ----------------------------------------------------------------------------

# Keys a repository's config may set (none that scans $HOME, runs code or reaches a network).
CONFIG = {
    "fail-on": "high", "min-grade": "B", "max-tools": 100, "max-file-mib": 4, "redact": True,
    "format": "json", "declared-from": "annotations", "max-seconds": 30.0,
    "code": {"declared-from": "description", "max-memory-mib": 512, "allow-partial": False},
}  # fmt: skip


def test_mutated_toolwitness_toml_configures_or_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    catalog = ROOT / "examples" / "catalogs" / "weather.json"
    path = tmp_path / ".toolwitness.toml"

    @CLI_RUNS
    @given(mutated(CONFIG))
    def campaign(doc: Any) -> None:
        text = _toml(doc)
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        _clean(lambda: read_config(path), ".toolwitness.toml")
        code = main(["--config", str(path), "scan", str(catalog), "-q"])
        err = capsys.readouterr().err
        assert code in (0, 1, 2), err
        assert "Traceback" not in err and "internal error" not in err

    campaign()


# -- the JSONC scanner ----------------------------------------------------------------------------


def _reference_strip_jsonc(text: str) -> str:
    """The character loop `strip_jsonc` replaced (the oracle): comments to blanks, trailing
    commas to a space, strings untouched; ValueError where it raised."""
    out: list[str] = []
    i, n = 0, len(text)
    pending: int | None = None
    while i < n:
        ch = text[i]
        if ch == '"':
            j = i + 1
            while j < n and text[j] not in '"\n':
                j += 2 if text[j] == "\\" else 1
            if j >= n or text[j] == "\n":
                raise ValueError("unterminated string")
            out.append(text[i : j + 1])
            pending, i = None, j + 1
        elif text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            out.append("".join(c if c in "\r\n" else " " for c in text[i:end]))
            i = end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end < 0:
                raise ValueError("unterminated comment")
            out.append("".join(c if c in "\r\n" else " " for c in text[i : end + 2]))
            i = end + 2
        else:
            if ch == ",":
                pending = len(out)
            elif ch in "}]" and pending is not None:
                out[pending], pending = " ", None
            elif not ch.isspace():
                pending = None
            out.append(ch)
            i += 1
    return "".join(out)


_JSONC_TEXT = st.text(alphabet=st.sampled_from([*'"\\/*,{}[]:ab1 \n\r\t', "é"]), max_size=80)


@PARSERS
@given(_JSONC_TEXT)
def test_jsonc_scanner_matches_the_character_loop_it_replaced(text: str) -> None:
    from toolwitness.acquire.jsonc import strip_jsonc

    try:
        expected = _reference_strip_jsonc(text)
    except ValueError:
        with pytest.raises(InputError):
            strip_jsonc(text, "s.jsonc")
        return
    assert strip_jsonc(text, "s.jsonc") == expected


def test_jsonc_scanner_loops_once_per_comment_or_trailing_comma(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Work is counted, not timed: 9.7 MiB of `[],` is one piece; each comment and each trailing
    comma adds one, whatever lies between them."""
    from toolwitness.acquire import jsonc

    calls: list[int] = []
    pattern = jsonc._PIECE

    class Counting:
        def match(self, text: str, pos: int) -> Any:
            calls.append(pos)
            return pattern.match(text, pos)

    monkeypatch.setattr(jsonc, "_PIECE", Counting())
    brackets = "[" + ",".join(["[]"] * 3_000_000) + "]"
    assert jsonc.strip_jsonc(brackets, "b.jsonc") == brackets
    assert len(calls) == 1
    calls.clear()
    commented = '{"a": [1, 2, /* two */ ], // end\n "b": "//not a comment", }' * 1000
    jsonc.strip_jsonc(commented, "c.jsonc")
    # per copy: two comments and two trailing commas, each followed by plain text (8 pieces);
    # plus the plain text the first copy opens with
    assert len(calls) == 8 * 1000 + 1
