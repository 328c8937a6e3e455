"""The command table: every `toolwitness` subcommand, the module that defines it, the line
`toolwitness --help` shows for it and the help panel it is listed in.

A command's module is imported only when that command runs (`cli_lazy.LazyGroup`), so a catalog
scan never pays for the lab, the code verifier, the sweep or the MCP SDK. Registering a command is
one line here; its module keeps a `register(app)` that adds it to a typer app. The summary is the
first line of the command's docstring (a test keeps the two equal).
"""

from __future__ import annotations

from typing import NamedTuple


class CommandEntry(NamedTuple):
    module: str
    summary: str
    panel: str
    # Runs long (a proxy, a sweep of many packages, the lab, repeated corpus scans): keeps the
    # cyclic garbage collector, which every other command turns off (`cli.main`).
    long_running: bool = False


VERIFY = "Verify servers"
PIN = "Pin and watch"
RULES = "Rules and reports"
SCALE = "At scale"

COMMANDS: dict[str, CommandEntry] = {
    "scan": CommandEntry(
        "toolwitness.commands.scan",
        "Scan tool catalogs, client configs or live servers; report findings with witnesses.",
        VERIFY,
    ),
    "discover": CommandEntry(
        "toolwitness.commands.discover",
        "List the MCP servers client configs define, without connecting to any.",
        VERIFY,
    ),
    "code": CommandEntry(
        "toolwitness.commands.code",
        "Follow each tool's handler to capability sinks; compare with what the tool declares.",
        VERIFY,
    ),
    "probe": CommandEntry(
        "toolwitness.commands.lab",
        "Call a server's read-only tools in a sandboxed lab and report what they really did.",
        VERIFY,
        long_running=True,
    ),
    "snapshot": CommandEntry(
        "toolwitness.commands.snapshot",
        "Connect to one server and write its surface (toolwitness.surface/1) for offline scans.",
        VERIFY,
    ),
    "lock": CommandEntry(
        "toolwitness.commands.integrity",
        "Pin servers' tool surfaces in a lockfile: shows what changes and asks before writing.",
        PIN,
    ),
    "diff": CommandEntry(
        "toolwitness.commands.integrity",
        "Show what changed between two surfaces, field by field. Exit 0 if equal, 1 if not.",
        PIN,
    ),
    "gateway": CommandEntry(
        "toolwitness.commands.integrity",
        "Run an MCP stdio server behind a proxy that enforces the lockfile on every tools/list.",
        PIN,
        long_running=True,
    ),
    "trust": CommandEntry(
        "toolwitness.commands.trust",
        "Every configured or pinned server in one table: surface digest, pin state, tool count, "
        "last change, blocked tools.",
        PIN,
    ),
    "fingerprint": CommandEntry(
        "toolwitness.commands.fingerprint",
        "Print canonical digests: per server, per tool and per field.",
        PIN,
    ),
    "rules": CommandEntry(
        "toolwitness.commands.rules",
        "List every rule: id, severity, confidence, title.",
        RULES,
    ),
    "explain": CommandEntry(
        "toolwitness.commands.rules",
        "Explain one rule: why it matters, what triggers it benignly, what to do.",
        RULES,
    ),
    "report": CommandEntry(
        "toolwitness.commands.report",
        "Render a saved JSON report as one self-contained HTML page.",
        RULES,
    ),
    "evaluate": CommandEntry(
        "toolwitness.commands.evaluate",
        "Scan labelled corpora: TP/FP/TN/FN, precision, recall, F1 and FPR with Wilson intervals, "
        "per family; with --ablate, what a family or rule contributes.",
        RULES,
        long_running=True,
    ),
    "compare-experiments": CommandEntry(
        "toolwitness.commands.evaluate",
        "Deltas between two evaluation runs; refused unless corpus, labels, split and threshold "
        "match.",
        RULES,
    ),
    "sweep": CommandEntry(
        "toolwitness.commands.sweep",
        "Verify many published packages; results stream to OUTPUT and a rerun resumes.",
        SCALE,
        long_running=True,
    ),
    "sweep-report": CommandEntry(
        "toolwitness.commands.sweep",
        "Outcome counts, violation rates, undeclared capabilities, offenders and bottlenecks.",
        SCALE,
    ),
}
