"""The per-rule scoring table of docs/scoring.md, generated from the rule registry and
data/scoring.yaml (a test checks the doc holds exactly this):

    python -m toolwitness.score_doc
"""

from __future__ import annotations

from toolwitness.findings import Finding
from toolwitness.rules import builtin_registry
from toolwitness.score import default_model, penalty_of, score_findings

FAMILIES = ("CODE", "LAB", "PIN", "META")
# A crashed check is the one finding that leaves a server ungraded (the scan is incomplete).
INCOMPLETE = frozenset({"TW-META-005"})
START, END = "<!-- scoring-table:start -->", "<!-- scoring-table:end -->"


def table() -> str:
    model = default_model()
    rows = [
        "| rule | title | severity | confidence | points | grade if alone |",
        "|---|---|---|---|---|---|",
    ]
    for rule in sorted(builtin_registry().all(), key=lambda r: (FAMILIES.index(r.family), r.id)
                       if r.family in FAMILIES else (99, r.id)):  # fmt: skip
        if rule.family not in FAMILIES:
            continue
        finding = Finding(
            rule_id=rule.id, title=rule.title, severity=rule.severity,
            confidence=rule.confidence, tool="t", location="tools[0]", message="m",
        )  # fmt: skip
        alone = score_findings([finding], tools=1)
        grade = "none (incomplete)" if rule.id in INCOMPLETE else f"{alone.grade} ({alone.score})"
        points = float(penalty_of(finding, model))
        rows.append(
            f"| `{rule.id}` | {rule.title} | {rule.severity.value} | {rule.confidence.value} "
            f"| {points:g} | {grade} |"
        )
    return "\n".join([START, *rows, END])


if __name__ == "__main__":
    print(table())
