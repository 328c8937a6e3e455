"""Candidate values for a string parameter that is not a path, most plausible first.

Order: the schema's `default` and `examples`; quoted examples its description gives after a cue
("e.g. 'Europe/London'"); a value for a layout the description names (`HH:MM`); a value for its
JSON Schema `format`; values for a noun in its name, then in its description (`data/lab.yaml`:
a timezone, a branch, a revision); a never-seen nonce last. Bounded: a call is retried with the
next candidate only when the previous one errored.
"""

from __future__ import annotations

import re
from typing import Any

from toolwitness.lab.vocab import vocabulary, words

MAX_CANDIDATES = 4
_QUOTED = re.compile(r"'([^'\n]{1,80})'|\"([^\"\n]{1,80})\"|`([^`\n]{1,80})`")
_CUE_WINDOW = 160


def described_examples(description: str) -> list[str]:
    """Quoted strings that follow an example cue, in order (at most three per cue)."""
    lowered = description.lower()
    out: list[str] = []
    for cue in vocabulary().example_cues:
        start = lowered.find(cue)
        while start >= 0:
            window = description[start + len(cue) : start + len(cue) + _CUE_WINDOW]
            window = window.split(". ", 1)[0]
            found = [next(g for g in m.groups() if g) for m in _QUOTED.finditer(window)]
            out += found[:3]
            start = lowered.find(cue, start + len(cue))
    return list(dict.fromkeys(out))


def quoted_tokens(description: str) -> list[str]:
    """Every short quoted word of a description ("local branches ('local')"), in order."""
    found = [next(g for g in m.groups() if g) for m in _QUOTED.finditer(description)]
    return list(dict.fromkeys(t for t in found if len(t) <= 40 and not any(c.isspace() for c in t)))


def _templated(description: str) -> list[str]:
    tables = vocabulary().templates
    return [tables[t] for t in sorted(tables, key=len, reverse=True) if t in description][:1]


def _hinted(tokens: list[str]) -> list[str]:
    hints = vocabulary().value_hints
    for token in tokens:
        if token in hints:
            return list(hints[token])
    return []


def _fits(value: str, schema: dict[str, Any]) -> bool:
    low, high = schema.get("minLength"), schema.get("maxLength")
    if isinstance(low, int) and len(value) < low:
        return False
    return not (isinstance(high, int) and len(value) > high)


def string_candidates(
    name: str, schema: dict[str, Any], nonce: str, tool_description: str = ""
) -> list[tuple[str, str]]:
    """(value, where it came from) pairs, deduplicated, the nonce last."""
    description = str(schema.get("description") or "")
    found: list[tuple[str, str]] = []
    default = schema.get("default")
    if isinstance(default, str):
        found.append((default, "the schema's default"))
    examples = schema.get("examples")
    if isinstance(examples, list):
        found += [(e, "the schema's examples") for e in examples[:3] if isinstance(e, str)]
    found += [(e, "an example in the description") for e in described_examples(description)]
    found += [(q, "a value quoted in the description") for q in quoted_tokens(description)]
    found += [(t, "the layout the description names") for t in _templated(description)]
    fmt = schema.get("format")
    if isinstance(fmt, str) and fmt in vocabulary().format_values:
        found.append((vocabulary().format_values[fmt], f"a value for format {fmt}"))
    found += [(h, "a value for the parameter's name") for h in _hinted(words(name))]
    found += [
        (h, "a value for a noun in the description") for h in _hinted(words(description)[:16])
    ]
    tool_words = words(tool_description)[:16]
    found += [(h, "a value for a noun in the tool's description") for h in _hinted(tool_words)]
    seen: dict[str, str] = {}
    for value, source in found:
        if value not in seen and _fits(value, schema):
            seen[value] = source
    chosen = list(seen.items())[: MAX_CANDIDATES - 1]
    return [*chosen, (nonce, "a nonce")]
