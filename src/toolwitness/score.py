"""The trust score: a deterministic 0-100 score and an A-F grade per server (docs/scoring.md).

penalty(finding) = severity weight x confidence factor; per rule, the k-th largest counts
decay^(k-1); per family the sum is capped; score = 100 - total (rounded half up); hard gates cap
the grade (a confirmed critical is an F), and so does having no tool to verify. Every finding of
every family counts, whichever stage found it (metadata, config, code, lab, pin). All arithmetic
is exact (`fractions.Fraction`), so the result does not depend on the order of tools or findings,
and the same input gives the same bytes. `explain` says why a grade is what it is.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from fractions import Fraction
from functools import lru_cache
from typing import Any

from toolwitness.datafiles import data_files
from toolwitness.errors import InternalError
from toolwitness.findings import Confidence, Finding, Severity
from toolwitness.model import ServerSurface
from toolwitness.plainclass import plainclass
from toolwitness.result import Penalty, ServerResult
from toolwitness.yamlload import load_yaml

GRADES = ("A", "B", "C", "D", "F")


@plainclass(frozen=True)
class Gate:
    severity: Severity
    confidence: Confidence | None
    max_grade: str

    def applies(self, finding: Finding) -> bool:
        return finding.severity == self.severity and (
            self.confidence is None or finding.confidence == self.confidence
        )


@plainclass(frozen=True)
class ScoringModel:
    start: int
    weights: dict[Severity, Fraction]
    factors: dict[Confidence, Fraction]
    decay: Fraction
    caps: dict[str, Fraction]
    floors: dict[str, int]
    gates: tuple[Gate, ...]
    unverified_max_grade: str  # the best grade of a server whose surface lists no tool


@plainclass(frozen=True)
class Score:
    score: int
    grade: str
    vector: tuple[Penalty, ...]
    gate: str | None  # the gate that capped the grade, in words, if one did


def _fraction(value: Any, where: str) -> Fraction:
    try:
        result = Fraction(str(value))
    except (ValueError, ZeroDivisionError):
        raise InternalError(f"scoring.yaml {where}: {value!r} is not a number") from None
    if result < 0:
        raise InternalError(f"scoring.yaml {where}: negative")
    return result


def parse_model(doc: Any) -> ScoringModel:
    if not isinstance(doc, dict) or doc.get("version") != 1:
        raise InternalError("scoring.yaml: expected a mapping with version: 1")
    try:
        weights = {Severity(k): _fraction(v, k) for k, v in doc["severity_weights"].items()}
        factors = {Confidence(k): _fraction(v, k) for k, v in doc["confidence_factors"].items()}
        gates = tuple(
            Gate(
                Severity(g["severity"]),
                Confidence(g["confidence"]) if "confidence" in g else None,
                str(g["max_grade"]),
            )
            for g in doc["gates"]
        )
        floors = {str(k): int(v) for k, v in doc["grade_floors"].items()}
        caps = {str(k): _fraction(v, k) for k, v in doc["family_caps"].items()}
        decay = _fraction(doc["repeat_decay"], "repeat_decay")
        unverified = str(doc["unverified_max_grade"])
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise InternalError(f"scoring.yaml: malformed ({exc})") from None
    if set(weights) != set(Severity) or set(factors) != set(Confidence):
        raise InternalError("scoring.yaml: every severity and confidence needs a value")
    if (
        set(floors) != set(GRADES)
        or any(g.max_grade not in GRADES for g in gates)
        or unverified not in GRADES
    ):
        raise InternalError("scoring.yaml: grades must be exactly A-F")
    if not decay < 1:
        raise InternalError("scoring.yaml: repeat_decay must be below 1")
    return ScoringModel(int(doc["start"]), weights, factors, decay, caps, floors, gates, unverified)


@lru_cache(maxsize=1)
def default_model() -> ScoringModel:
    text = data_files().joinpath("scoring.yaml").read_text("utf-8")
    return parse_model(load_yaml(text))


def penalty_of(finding: Finding, model: ScoringModel) -> Fraction:
    return model.weights[finding.severity] * model.factors[finding.confidence]


def grade_of(score: int, model: ScoringModel) -> str:
    return next(g for g in GRADES if score >= model.floors[g])


# Repeats of one rule past this many add at most penalty x decay^64 (nothing a score shows);
# counting them would only slow exact arithmetic on catalogs with thousands of findings.
MAX_REPEATS = 64


def _rule_penalties(findings: Iterable[Finding], model: ScoringModel) -> dict[str, Fraction]:
    table = {(s, c): model.weights[s] * model.factors[c] for s in Severity for c in Confidence}
    per_rule: dict[str, list[Fraction]] = defaultdict(list)
    for finding in findings:
        per_rule[finding.rule_id].append(table[finding.severity, finding.confidence])
    out: dict[str, Fraction] = {}
    for rule_id, penalties in per_rule.items():
        total, factor = Fraction(0), Fraction(1)
        for penalty in sorted(penalties, reverse=True)[:MAX_REPEATS]:
            total += penalty * factor
            factor *= model.decay
        out[rule_id] = total
    return out


def _capped(per_rule: dict[str, Fraction], model: ScoringModel) -> dict[str, Fraction]:
    """Scale each family's rules down so the family total stays within its cap."""
    families: dict[str, list[str]] = defaultdict(list)
    for rule_id in per_rule:
        families[rule_id.split("-")[1]].append(rule_id)
    out = dict(per_rule)
    for family, rule_ids in families.items():
        total = sum((per_rule[r] for r in rule_ids), Fraction(0))
        cap = model.caps.get(family)
        if cap is not None and total > cap:
            for r in rule_ids:
                out[r] = per_rule[r] * cap / total
    return out


def _cap(grade: str, cap: str) -> bool:
    return GRADES.index(cap) > GRADES.index(grade)


def score_findings(
    findings: Iterable[Finding], model: ScoringModel | None = None, *, tools: int | None = None
) -> Score:
    """Score one server's (unsuppressed) findings; `tools` is how many tools its surface lists
    (None: not known, no cap for it)."""
    model = model or default_model()
    findings = list(findings)
    per_rule = _capped(_rule_penalties(findings, model), model)
    total = sum(per_rule.values(), Fraction(0))
    raw = max(0, int(Fraction(model.start) - total + Fraction(1, 2)))  # round half up
    grade, gate_text = grade_of(raw, model), None
    # a total order: findings equal on the report's sort key may differ in confidence, which the
    # cap's text names, so the text must not depend on the order findings arrived in
    for finding in sorted(findings, key=lambda f: (f.sort_key(), f.confidence.value)):
        gate = next((g for g in model.gates if g.applies(finding)), None)
        if gate and _cap(grade, gate.max_grade):
            grade = gate.max_grade
            kind = f"{finding.confidence.value} {finding.severity.value}"
            on = f" on {finding.tool}" if finding.tool else ""
            gate_text = f"{finding.rule_id} ({kind}){on} caps the grade at {grade}"
    if tools == 0 and _cap(grade, model.unverified_max_grade):
        grade = model.unverified_max_grade
        gate_text = f"no tool was listed, so none was verified: the grade is capped at {grade}"
    ceiling = model.start if grade == "A" else model.floors[GRADES[GRADES.index(grade) - 1]] - 1
    score = min(raw, ceiling)
    vector = tuple(
        Penalty(rule_id=r, penalty=float(round(p, 2)))
        for r, p in sorted(per_rule.items(), key=lambda kv: (-kv[1], kv[0]))
        if p > 0
    )
    return Score(score=score, grade=grade, vector=vector, gate=gate_text)


def score_surface(surface: ServerSurface, findings: Iterable[Finding]) -> Score:
    """The score of a server: its findings, and whether its surface listed any tool at all."""
    return score_findings(findings, tools=len(surface.tools))


def rescored(server: ServerResult) -> ServerResult:
    """`server` with score, grade and vector recomputed from all its findings (for stages that
    add findings after the scan, like `toolwitness code`); an incomplete server stays ungraded."""
    if server.incomplete:
        return server
    scored = score_surface(server.surface, server.findings)
    return server.model_copy(
        update={"score": scored.score, "grade": scored.grade, "score_vector": scored.vector}
    )


@plainclass(frozen=True)
class Explanation:
    """Why a grade is what it is: the largest deductions, and the gate that capped it."""

    penalties: tuple[tuple[str, float, int], ...]  # (rule id, points, findings of that rule)
    cap: str | None

    def lines(self, top: int = 3) -> list[str]:
        out = [
            f"{rule} −{points:g} ({count} finding{'s' if count != 1 else ''})"
            for rule, points, count in self.penalties[:top]
        ]
        if len(self.penalties) > top:
            rest = sum(points for _, points, _ in self.penalties[top:])
            out.append(f"{len(self.penalties) - top} more rules −{round(rest, 2):g}")
        return out

    def text(self) -> str:
        """`TW-CODE-001 −35 (3 findings), …; <the gate that capped the grade>`; "" if neither."""
        return "; ".join(x for x in (", ".join(self.lines()), self.cap) if x)


def explain(
    findings: Iterable[Finding], vector: Iterable[Penalty], tools: int | None
) -> Explanation:
    findings = list(findings)
    counts: dict[str, int] = defaultdict(int)
    for finding in findings:
        counts[finding.rule_id] += 1
    penalties = tuple((p.rule_id, p.penalty, counts[p.rule_id]) for p in vector)
    return Explanation(penalties, score_findings(findings, tools=tools).gate)
