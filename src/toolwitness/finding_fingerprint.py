"""A finding's stable fingerprint: the same finding gets the same one from run to run.

It names what the finding is about — rule, server, tool, the field or source file, the decoded
evidence and the witnesses — and leaves out what moves when nothing changed: line and column
numbers, the position of a tool in its catalog (`tools[3]`), the order findings come in, and the
message wording. Any change to the evidence (a new payload in an already-accepted description, a
different sink, another file) gives a new fingerprint, so the finding is reported again.

Shared by baselines (`toolwitness.baseline`) and any report that wants a stable id.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

import rfc8785

from toolwitness.findings import Finding, Witness

VERSION = "tw1"  # bump when the normalisation changes: old baselines then match nothing
FINGERPRINT = re.compile(rf"{VERSION}:[0-9a-f]{{32}}")

_INDEX = re.compile(r"\[[0-9]+\]")  # tools[3] -> tools[]
_LINE = re.compile(r"(?<=[^\s:]):[0-9]+(?::[0-9]+)?(?![0-9])")  # server.py:22:5 -> server.py


def stable_text(text: str) -> str:
    """`text` without list indices and `:line[:column]` suffixes."""
    return _LINE.sub("", _INDEX.sub("[]", text))


def _witness(witness: Witness) -> dict[str, Any]:
    return {
        "kind": witness.kind,
        "file": witness.file,
        "symbol": witness.symbol,
        "path": [stable_text(p) for p in witness.path],
        "detail": stable_text(witness.detail) if witness.detail is not None else None,
    }


def finding_fingerprint(server_id: str, finding: Finding) -> str:
    witnesses = sorted((_witness(w) for w in finding.witnesses), key=rfc8785.dumps)
    doc: dict[str, Any] = {
        "v": VERSION,
        "rule": finding.rule_id,
        "server": server_id,
        "tool": finding.tool,
        "location": stable_text(finding.location),
        "evidence": stable_text(finding.evidence) if finding.evidence is not None else None,
        "witnesses": witnesses,
    }
    digest = hashlib.sha256(rfc8785.dumps(doc)).hexdigest()
    return f"{VERSION}:{digest[:32]}"
