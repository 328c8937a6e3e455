"""Which parameters take paths, and in which forms a tool expects them.

Kind: a parameter whose name ends in a path word (`file_path`, `filePath`) takes a file, one
ending in a directory word a directory (a repository when the name says repo), one ending in a
weak word (`source`, `target`) a path only when its description names a path noun — so
`source_timezone` and git's `target` ("branch or commit") are not paths.

Forms: the absolute path of a planted subject; the same path relative to each root the server
was given (its own arguments, the lab's working directory, a base the description names). A
description that says paths are relative ("relative to ~/notes", "relative
path") puts the relative forms first and, when it names a base inside the lab, the subject is
planted there.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from toolwitness.lab.vocab import vocabulary, words

_BASE = re.compile(r"relative to\s+(?:the\s+)?[`'\"]?((?:~|\$HOME|/)[^\s`'\",;)]*)")


def path_kind(name: str, schema: dict[str, Any]) -> str | None:
    """'file', 'dir' or 'repo' for a path-like parameter, else None."""
    vocab = vocabulary()
    found = words(name)
    if not found:
        return None
    head = found[-1]
    description = set(words(str(schema.get("description") or "")))
    if {"repo", "repository"} & set(found) and (head in vocab.dir_words | vocab.path_words):
        return "repo"
    if head in vocab.dir_words:
        return "dir"
    if head in vocab.path_words:
        return "file"
    if head in vocab.weak_path_words and description & vocab.path_nouns:
        return "file"
    if schema.get("format") in ("path", "file-path", "uri-reference"):
        return "file"
    return None


@dataclass(frozen=True)
class Convention:
    relative_first: bool
    base: str | None  # a base folder the description names, as written (`~/notes`)


def convention(texts: Sequence[str]) -> Convention:
    """What the parameter's and the tool's descriptions say about the form of paths."""
    joined = " ".join(texts)
    lowered = joined.lower()
    relative = any(cue in lowered for cue in vocabulary().relative_cues)
    base = _BASE.search(joined)
    return Convention(relative, base.group(1).rstrip(".") if base else None)


def expand_base(base: str, home: str) -> str:
    if base.startswith("~"):
        return os.path.normpath(home + base[1:])
    if base.startswith("$HOME"):
        return os.path.normpath(home + base[len("$HOME") :])
    return os.path.normpath(base)


def forms(subject: str, roots: Sequence[str], relative_first: bool) -> list[tuple[str, str]]:
    """(value, form) pairs for one subject path, in the order to try them (at most four)."""
    absolute = (subject, "absolute path")
    relative: list[tuple[str, str]] = []
    for root in roots:
        if subject == root or subject.startswith(root.rstrip("/") + "/"):
            rel = os.path.relpath(subject, root)
            relative.append((rel, f"relative to {root}"))
    ordered = [*relative, absolute] if relative_first else [absolute, *relative]
    out: dict[str, str] = {}
    for value, form in ordered:
        out.setdefault(value, form)
    return list(out.items())[:4]
