"""The command line's fast path: a plain `toolwitness scan …` or `code …` parsed without typer.

typer (with click and the pydantic adapter it builds for every option) costs a one-tool scan
about a fifth of its start-up. The common invocations — targets and options spelled exactly as
typer's own table declares them — are parsed here from that table, precompiled into
`data/cli-fast.json` by `cli_table` (a test fails while it is stale), into the same arguments
typer would pass, and run by the same function (`commands.scan_run.run_scan`).

Anything else returns None and typer runs the command line from the start: help, completion,
a config file in effect, an unknown or misspelt option, a value typer would reject or that needs
its rules (a bad number, an unknown format, a short-option cluster, `-ofile`)... So the fast path
never prints an error of its own, and `tests/test_cli_fast.py` checks that it gives typer's
arguments for every case it accepts.
"""

from __future__ import annotations

import errno
import json
import os
import re
import sys
from functools import cache
from importlib import import_module
from pathlib import Path
from typing import Any

from toolwitness.lazyre import lazy_compile

DATA = Path(__file__).resolve().parent / "data"
TABLE = DATA / "cli-fast.json"
# command -> (module, request class, runner): `runner(request(**arguments))` is the exit code.
FAST_COMMANDS = {
    "scan": ("toolwitness.commands.scan_run", "ScanRequest", "run_scan"),
    "code": ("toolwitness.commands.code_run", "CodeRequest", "run_code"),
}
COMPLETION_VARIABLE = "_TOOLWITNESS_COMPLETE"  # typer's shell completion: typer answers it
_INT = re.compile(r"[0-9]{1,18}")
_FLOAT = lazy_compile(r"[0-9]{1,18}(\.[0-9]{1,18})?")
_BAIL = object()  # a value typer must judge


def run(argv: list[str]) -> int | None:
    """The exit code of running `argv` on the fast path, or None when typer must run it."""
    if not argv or argv[0] not in FAST_COMMANDS or COMPLETION_VARIABLE in os.environ:
        return None
    specs = _table().get(argv[0])
    arguments = None if specs is None else parse(argv[1:], specs)
    if arguments is None or _config_in_effect():
        return None
    module_name, request, runner = FAST_COMMANDS[argv[0]]
    module = import_module(module_name)
    from toolwitness.memo import release_after_scan  # (a fast command only: not for `rules`)

    # One scan, then the report and the process's end: its memos may go once the result is
    # built (`memo.release_after_scan`); restored for a caller that runs `main` in a longer
    # process.
    was_releasing = release_after_scan(True)
    try:
        return int(getattr(module, runner)(getattr(module, request)(**arguments)))
    except SystemExit as exc:  # an error already printed (`cli_support.die`)
        return exc.code if isinstance(exc.code, int) else 1
    except KeyboardInterrupt:
        return 130  # as typer answers an interrupt outside the command's own guard
    except OSError as exc:
        if exc.errno != errno.EPIPE:
            raise
        # The reader went away (`| head`): as typer does, exit 1 without a traceback at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    finally:
        release_after_scan(was_releasing)


@cache
def _table() -> dict[str, list[dict[str, Any]]]:
    table: dict[str, list[dict[str, Any]]] = json.loads(TABLE.read_text("utf-8"))
    return table


def _config_in_effect() -> bool:
    """A config file's defaults are applied by typer (they need its type conversions)."""
    from toolwitness.cli_config import find_config

    try:
        return find_config(Path.cwd()) is not None
    except Exception:  # unreadable or invalid: typer reports it
        return True


def parse(args: list[str], specs: list[dict[str, Any]]) -> dict[str, Any] | None:
    """typer's callback arguments for `args`, or None where typer must decide."""
    by_opt = {
        opt: spec for spec in specs if spec["kind"] != "argument"
        for opt in (*spec["opts"], *spec.get("off_opts", ()))
    }  # fmt: skip
    given: dict[str, list[str]] = {}
    positional: list[str] = []
    only_positional = False
    words = iter(args)
    for word in words:
        if only_positional or word == "-" or not word.startswith("-"):
            positional.append(word)
            continue
        if word == "--":
            only_positional = True
            continue
        name, equals, inline = word.partition("=") if word.startswith("--") else (word, "", "")
        spec = by_opt.get(name)
        if spec is None:  # --help, an unknown option, `-qf`, `-ofile`
            return None
        if spec["kind"] == "flag":
            if equals:
                return None
            switched_off = name in spec.get("off_opts", ())
            given.setdefault(spec["name"], []).append("" if switched_off else "on")
            continue
        value = inline if equals else next(words, None)
        if value is None or (not equals and value.startswith("-") and value != "-"):
            return None
        given.setdefault(spec["name"], []).append(value)
    return _arguments(specs, given, positional)


def _arguments(
    specs: list[dict[str, Any]], given: dict[str, list[str]], positional: list[str]
) -> dict[str, Any] | None:
    arguments = [s for s in specs if s["kind"] == "argument"]
    if len(arguments) > 1 or (positional and not arguments):
        return None
    if arguments and not arguments[0]["repeated"]:  # one value, required (`code TARGET`)
        if len(positional) != 1:
            return None
        given[arguments[0]["name"]] = positional
    elif arguments:
        given[arguments[0]["name"]] = positional
    out: dict[str, Any] = {}
    for spec in specs:
        raw = given.get(spec["name"])
        if spec["kind"] == "flag":
            value: Any = bool(raw and raw[-1])  # the last of --x / --no-x wins
        elif not raw:
            value = _default(spec)
        elif spec["repeated"]:
            value = [_value(spec, text) for text in raw]
            if any(v is _BAIL for v in value):
                return None
        else:
            value = _value(spec, raw[-1])  # click: the last one wins
        if value is _BAIL:
            return None
        out[spec["name"]] = value
    return _with_inferred_format(out, "fmt" in given)


def _default(spec: dict[str, Any]) -> Any:
    default = spec["default"]
    if default is not None and spec.get("enum"):
        return _enum(spec["enum"])(default)
    return default


def _value(spec: dict[str, Any], text: str) -> Any:
    kind = spec["type"]
    if kind == "str":
        return text
    if kind == "path":
        return _path(text)
    if kind == "choice":
        return _choice(spec, text)
    pattern, number = (_INT, int) if kind == "int" else (_FLOAT, float)
    if not pattern.fullmatch(text):
        return _BAIL
    value = number(text)
    low, high = spec.get("min"), spec.get("max")
    if (low is not None and value < low) or (high is not None and value > high):
        return _BAIL
    return value


def _path(text: str) -> Any:
    """typer's plain Path: refused only when it exists and cannot be read."""
    if not text or "\0" in text:
        return _BAIL
    try:
        os.stat(text)
    except OSError:
        return Path(text)
    return Path(text) if os.access(text, os.R_OK) else _BAIL


def _choice(spec: dict[str, Any], text: str) -> Any:
    """click's rule: the first choice equal to the value once both are normalised (the format
    aliases; case folded for a case-insensitive choice)."""
    from toolwitness.cli_formats import normalize_token

    def norm(word: str) -> str:
        word = normalize_token(word)
        return word if spec["case_sensitive"] else word.casefold()

    for choice in spec["choices"]:
        if norm(choice) == norm(text):
            return _enum(spec["enum"])(choice) if spec["enum"] else choice
    return _BAIL


def _enum(path: str) -> Any:
    module, _, name = path.partition(":")
    return getattr(import_module(module), name)


def _with_inferred_format(out: dict[str, Any], fmt_given: bool) -> dict[str, Any] | None:
    """`-o report.sarif` without `--format` writes SARIF (`cli_lazy` does this for typer)."""
    if "fmt" not in out or "output" not in out:
        return out
    from toolwitness.cli_formats import inferred_format

    source = "COMMANDLINE" if fmt_given else "DEFAULT"
    member, error = inferred_format(out["fmt"], source, out["output"])
    if error is not None:
        return None
    if member is not None:
        out["fmt"] = member
    return out
