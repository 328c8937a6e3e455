"""The `toolwitness` command's entry point: the fast path for a plain scan, else the typer app.

A plain `toolwitness scan …` is parsed from a precompiled option table and run without typer
(`cli_fast`); every other command line — other commands, help, completion, a config file, any
option spelling the fast path leaves to typer — runs the typer app (`cli_app`), which lists the
subcommands of `toolwitness.commands.COMMANDS` and imports each only when it runs.
"""

from __future__ import annotations

import gc
import sys

from toolwitness.cli_support import run_app

_collector = {"was_on": True}  # the collector's state when `main` was entered


def collector_for(command_name: str | None) -> None:
    """A long-running command (the gateway, a sweep, the lab, corpus evaluation) gets the cyclic
    collector back: over hours, cyclic garbage (exception tracebacks, asyncio tasks) adds up."""
    from toolwitness.commands import COMMANDS

    entry = COMMANDS.get(command_name or "")
    if entry is not None and entry.long_running and _collector["was_on"]:
        gc.enable()


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the exit code (typer/click usage errors exit 2).

    The cyclic garbage collector is off while a short command runs. A scan builds a large heap
    of acyclic objects (every tool's texts, tokens, findings, the report); reference counting
    frees them, and each collector pass would only walk the growing heap again (≈15 % of a
    5,000-tool scan). The process ends seconds later, so what cycles exist cost nothing lasting.
    Its state is restored on return, for callers that run `main` inside a longer process.
    """
    was_on = _collector["was_on"] = gc.isenabled()
    gc.disable()
    try:
        from toolwitness import cli_fast

        fast = cli_fast.run(sys.argv[1:] if argv is None else list(argv))
        if fast is not None:
            return fast
        from toolwitness.cli_app import app  # typer loads only here

        return run_app(app, argv)
    finally:
        if was_on:
            gc.enable()


if __name__ == "__main__":
    sys.exit(main())
