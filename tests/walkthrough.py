"""Run every command of docs/walkthrough.md and compare its output with the page (or rewrite it).

The page's ```console blocks hold `$ command` lines, each followed by the output it prints
(stdout and stderr together, as a terminal shows them). The commands run in order, with bash, in
one fresh working folder that links in the repository's `examples/`, `tests/` and `.cache/`
(the real servers `make servers` installs), with an empty home, no colour and 100 columns.
Volatile parts are masked the same way in both directions: the working folder is `<work>`, the
repository `<repo>`; blanks at the end of a line are dropped.

    .venv/bin/python tests/walkthrough.py           # check: exit 1 and a diff if the page is stale
    .venv/bin/python tests/walkthrough.py --update  # rewrite the outputs in docs/walkthrough.md
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "walkthrough.md"
LINKED = ("examples", "tests", ".cache")
_BLOCK = re.compile(r"^```console\n(.*?)^```$", re.S | re.M)
PROMPT = "$ "


@dataclass
class Command:
    line: str
    expected: str


def parse_block(body: str) -> list[Command]:
    commands: list[Command] = []
    for line in body.splitlines():
        if line.startswith(PROMPT):
            commands.append(Command(line[len(PROMPT) :], ""))
        elif commands:
            commands[-1].expected += line + "\n"
        elif line.strip():
            raise ValueError(f"output before any command in a console block: {line!r}")
    return commands


def blocks(text: str) -> list[list[Command]]:
    return [parse_block(m.group(1)) for m in _BLOCK.finditer(text)]


def workspace(root: Path) -> tuple[Path, dict[str, str]]:
    work, home = root / "work", root / "home"
    work.mkdir()
    home.mkdir()
    for name in LINKED:
        (work / name).symlink_to(ROOT / name)
    bin_dir = str(Path(sys.executable).parent)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TOOLWITNESS", "PYTHON"))}
    env.update(
        HOME=str(home), PATH=bin_dir + os.pathsep + env.get("PATH", ""), NO_COLOR="1",
        COLUMNS="100", TERM="dumb", LC_ALL="C.UTF-8",
    )  # fmt: skip
    env.pop("CI", None)
    return work, env


def mask(text: str, work: Path) -> str:
    """Paths that differ per run masked; trailing blanks dropped (editors strip them too)."""
    for real, shown in ((str(work.resolve()), "<work>"), (str(work), "<work>"),
                        (str(ROOT), "<repo>")):  # fmt: skip
        text = text.replace(real, shown)
    return "".join(line.rstrip() + "\n" for line in text.splitlines())


def run(command: str, work: Path, env: dict[str, str]) -> str:
    proc = subprocess.run(
        ["bash", "--noprofile", "--norc", "-c", command], cwd=work, env=env,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=900,
    )  # fmt: skip
    return mask(proc.stdout, work)


def run_page(text: str) -> list[list[tuple[Command, str]]]:
    with tempfile.TemporaryDirectory(prefix="tw-walkthrough-") as root:
        work, env = workspace(Path(root))
        return [[(c, run(c.line, work, env)) for c in block] for block in blocks(text)]


def render(text: str, results: list[list[tuple[Command, str]]]) -> str:
    bodies = iter(results)

    def one(match: re.Match[str]) -> str:
        body = "".join(f"{PROMPT}{c.line}\n{out}" for c, out in next(bodies))
        return f"```console\n{body}```"

    return _BLOCK.sub(one, text)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--update", action="store_true", help="rewrite the page's outputs")
    args = parser.parse_args()
    text = PAGE.read_text(encoding="utf-8")
    fresh = render(text, run_page(text))
    if args.update:
        PAGE.write_text(fresh, encoding="utf-8")
        return 0
    if fresh == text:
        return 0
    sys.stdout.writelines(difflib.unified_diff(
        text.splitlines(True), fresh.splitlines(True), "docs/walkthrough.md", "as run"))  # fmt: skip
    return 1


if __name__ == "__main__":
    sys.exit(main())
