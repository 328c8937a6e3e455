"""Discovery problems as scan targets: one config-only surface per file that could not be read.

A scan of the discovered servers must not read as complete when a file was skipped: each file
with a problem becomes a surface (coverage `config`, no transport) whose notes carry the problems,
and the posture check `posture.unreadable_config` turns each note into a TW-NET-008 finding. The
note is the one place the problem is written down; `problem_from_note` reads it back exactly.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from toolwitness.acquire.discovery import ConfigProblem
from toolwitness.model import Coverage, ServerSurface

NOTE_PREFIX = "unreadable client config: "
_AT = re.compile(r' \[at ("(?:[^"\\]|\\.)*")\]\Z')


def problem_note(problem: ConfigProblem) -> str:
    at = "" if problem.location is None else f" [at {json.dumps(problem.location)}]"
    return f"{NOTE_PREFIX}{problem.reason}{at}"


def problem_from_note(note: str) -> tuple[str, str | None] | None:
    """(reason, JSON path or None) of a note `problem_note` wrote; None for any other note."""
    if not note.startswith(NOTE_PREFIX):
        return None
    body = note[len(NOTE_PREFIX) :]
    match = _AT.search(body)
    if match is None:
        return body, None
    try:
        location = json.loads(match.group(1))
    except ValueError:
        return body, None
    return body[: match.start()], location if isinstance(location, str) else None


def problem_surfaces(problems: Sequence[ConfigProblem]) -> list[ServerSurface]:
    """One surface per file with problems, in discovery order."""
    by_file: dict[str, list[ConfigProblem]] = {}
    for problem in problems:
        by_file.setdefault(problem.file, []).append(problem)
    return [
        ServerSurface(
            id=f"unreadable: {file}",
            source=file,
            coverage=(Coverage.CONFIG,),
            notes=tuple(problem_note(p) for p in found),
        )
        for file, found in by_file.items()
    ]
