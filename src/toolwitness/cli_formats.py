"""One report-format name set for every command, and the format an output file's name asks for.

The names are `text json sarif csv markdown html`. Older spellings still work as hidden aliases:
`terminal` (= text), `md` (= markdown) and `table` (= text, `trust`'s table). They are applied as
the command line's token normalisation, so every command's format choice, whatever enum it
declares, shows and accepts the same names without each command knowing about the others.

With no `--format` on the command line, `-o report.sarif` writes SARIF (`.json`, `.html`, `.csv`,
`.md`, `.txt` likewise); a name with an extension we do not know is a usage error, never terminal
text written into a file a browser or an uploader will misread.
"""

from __future__ import annotations

from enum import Enum, StrEnum
from pathlib import Path
from typing import Any

ALIASES = {"terminal": "text", "md": "markdown", "table": "text"}
SUFFIXES = {
    ".sarif": "sarif",
    ".json": "json",
    ".html": "html",
    ".htm": "html",
    ".csv": "csv",
    ".md": "markdown",
    ".markdown": "markdown",
    ".txt": "text",
}
_FIXED_SOURCES = ("COMMANDLINE", "ENVIRONMENT", "PROMPT")


def normalize_token(token: str) -> str:
    """Click's token normalisation: the hidden aliases become the one name (options unaffected)."""
    return ALIASES.get(token, token)


def format_for_output(path: Path) -> str | None:
    """The format a file name asks for: a name, "" when it has no extension, None if unknown."""
    name = path.name.lower()
    if name.endswith(".sarif.json"):
        return "sarif"
    suffix = Path(name).suffix
    if not suffix:
        return ""
    return SUFFIXES.get(suffix)


def inferred_format(
    fmt: Any, fmt_source: str | None, output: object
) -> tuple[Enum | None, str | None]:
    """The format member to use instead of `fmt`, or an error message; (None, None) keeps it.

    `fmt` is the command's own enum member; `fmt_source` names where its value came from
    (click's parameter source: COMMANDLINE, DEFAULT_MAP (a config file), DEFAULT…).
    """
    if not isinstance(fmt, Enum) or output is None or str(output) == "-":
        return None, None
    if fmt_source in _FIXED_SOURCES:
        return None, None
    wanted = format_for_output(Path(str(output)))
    if wanted == "":
        return None, None
    if wanted is None:
        if fmt_source == "DEFAULT_MAP":  # a format set in the config file applies
            return None, None
        known = ", ".join(sorted(SUFFIXES))
        return None, (
            f"cannot tell the report format from -o {output} (known extensions: {known}); "
            "give --format"
        )
    for member in type(fmt):
        if normalize_token(str(member.value)) == wanted:
            return member, None
    names = ", ".join(normalize_token(str(m.value)) for m in type(fmt))
    return None, f"-o {output} asks for {wanted}, which this command does not write ({names})"



class DataFormat(StrEnum):
    """For commands that print a listing: text for people, json for programs."""

    TEXT = "text"
    JSON = "json"
