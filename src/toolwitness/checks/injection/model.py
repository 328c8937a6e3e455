"""Shared types for the injection analysis: what a detector sees and what it reports."""

from __future__ import annotations

from toolwitness.findings import Severity
from toolwitness.plainclass import plainclass

# Family names (stable; the corpus manifest and the docs use them).
AUTHORITY = "authority"
SECRECY = "secrecy"
SEQUENCING = "sequencing"
SENSITIVE = "sensitive-target"
EXFIL_PARAM = "exfil-param"
SHADOWING = "shadowing"
RANKING = "ranking"
ENCODED = "encoded"
SHELL = "shell"
CREDENTIAL = "credential"
URL = "url"
INTENT = "harmful-intent"
HIDDEN = "hidden-payload"

RULE_OF = {
    AUTHORITY: "TW-INJ-001",
    SECRECY: "TW-INJ-002",
    SEQUENCING: "TW-INJ-003",
    SENSITIVE: "TW-INJ-004",
    EXFIL_PARAM: "TW-INJ-005",
    SHADOWING: "TW-INJ-006",
    RANKING: "TW-INJ-007",
    ENCODED: "TW-INJ-008",
    SHELL: "TW-INJ-009",
    CREDENTIAL: "TW-INJ-010",
    URL: "TW-INJ-011",
    INTENT: "TW-INJ-013",
    HIDDEN: "TW-INJ-014",
}
COMPOUND_RULE = "TW-INJ-012"


@plainclass(frozen=True)
class FieldContext:
    """What a detector knows about the field beyond its text."""

    kind: str  # name | title | description | schema-key | schema-text | instructions | ...
    location: str
    tool: str | None
    purpose: frozenset[str]  # words naming what the tool is for (name, title, first clause)
    siblings: frozenset[str]  # other tool names on the same server (lowercased)
    param: str | None = None  # the parameter a schema string belongs to
    identity: frozenset[str] = frozenset()  # the words of the tool's name and title only
    victim: int = 0  # 1: the tool takes a target host, domain… (`target_host`); 2: a process,
    # an access point or a service principal (`target_pid`), which no honest tool takes
    params: frozenset[str] = frozenset()  # the tool's own parameter names (lowercased)
    runs_code: bool = False  # the tool's name or a parameter says it executes code (its role)
    owners: frozenset[str] = frozenset()  # the server's own names, squashed (crosstool.parties)
    # the tool's optional, undocumented free-text parameters (frames_carrier.carriers)
    carriers: frozenset[str] = frozenset()
    values: frozenset[str] = frozenset()  # the values its parameters' enums and consts allow

    @property
    def is_param_text(self) -> bool:
        return self.param is not None


@plainclass(frozen=True)
class Signal:
    family: str
    severity: Severity
    start: int
    end: int
    message: str  # our own words; never attacker text
    evidence: str | None = None  # set when the evidence is not a window of the field (decoded)

    @property
    def rule_id(self) -> str:
        return RULE_OF[self.family]
