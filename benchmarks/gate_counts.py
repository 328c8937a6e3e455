"""Count what the injection check's gates decide on one scan (docs/performance.md, 27th pass).

    PYTHONPATH=SRC python benchmarks/gate_counts.py CATALOG.json

Runs `toolwitness scan CATALOG -f json -o /dev/null` in this process with a few functions of
the source tree on PYTHONPATH wrapped, and prints: the closed-gate test's verdicts for joined
headers (texts holding a newline) and for fields, `detect._text_gates` computations, sentence
analyses, and how many texts opened the precedence and concealment detectors. Run it with the
`PYTHONPATH` of each tree to compare two trees on the same catalog (`catalogs.write_catalog`).
Counts, not times: they do not depend on the machine's load.
"""

from __future__ import annotations

import contextlib
import sys
from collections import Counter
from typing import Any


def main(catalog: str) -> Counter[str]:
    from toolwitness.checks.injection import detect, quiet
    from toolwitness.checks.injection import frames as inj_frames
    from toolwitness.checks.injection import frames_precedence as inj_precedence

    counts: Counter[str] = Counter()
    closed = quiet.text_gates_closed
    text_gates = detect._text_gates
    analyse = detect.analyse

    def counted_closed(text: str, tables: Any, shared: bool = False) -> Any:
        found = closed(text, tables, shared)
        kind = "header" if "\n" in text else "field"
        counts[f"{kind} {'undecided' if found is None else 'quiet'}"] += 1
        return found

    def counted_gates(text: str, scan: Any, lex: Any) -> Any:
        opened = text_gates(text, scan, lex)
        counts["_text_gates"] += 1
        counts["precedence open"] += inj_precedence.precedence in opened
        counts["concealment open"] += inj_frames.concealment in opened
        return opened

    def counted_analyse(*args: Any, **kwargs: Any) -> Any:
        counts["analyses"] += 1
        return analyse(*args, **kwargs)

    quiet.text_gates_closed = counted_closed  # type: ignore[assignment]
    detect._text_gates = counted_gates  # type: ignore[assignment]
    detect.analyse = counted_analyse  # type: ignore[assignment]
    from toolwitness.cli import main as cli

    sys.argv = ["toolwitness", "scan", catalog, "-f", "json", "-o", "/dev/null",
                "--max-tools", "20000", "--max-file-mib", "64"]  # fmt: skip
    with contextlib.suppress(SystemExit):
        cli()
    return counts


if __name__ == "__main__":
    for key, value in sorted(main(sys.argv[1]).items()):
        print(f"{key:20} {value}")
