"""The rule registry: rule packs are YAML data validated by a shipped JSON Schema.

A rule without an id matching `TW-<FAMILY>-<NNN>` does not load; a check cannot emit a finding for
a rule the registry does not hold.

A user's pack (`--rules`) is hostile input: strict YAML, then the schema, before a rule is built.
The built-in packs ship with toolwitness and are validated against the same schema by the tests
(`tests/test_rules_registry.py`), not at every start: start-up then needs no `jsonschema`
(≈ 10 modules and the schema compilation). The `Rule` record still refuses unknown or missing
fields, so a broken built-in pack fails loudly rather than loading half a rule.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from toolwitness.datafiles import data_files
from toolwitness.errors import InputError, InternalError
from toolwitness.files import read_regular_text
from toolwitness.findings import Confidence, Finding, Severity, Witness
from toolwitness.records import Record, field
from toolwitness.yamlload import load_untrusted_yaml, load_yaml

FAMILIES = ("UNI", "INJ", "CAP", "FLOW", "SUP", "NET", "PIN", "CODE", "LAB", "META")
DOCS_BASE = "https://github.com/toolwitness/toolwitness/blob/main/docs/rules.md"
_MAX_PACK_BYTES = 2 * 1024 * 1024


class Rule(Record):
    id: str
    title: str
    family: str
    severity: Severity
    confidence: Confidence
    rationale: str
    benign_triggers: str
    remediation: str
    references: tuple[str, ...] = ()
    patterns: dict[str, Any] = field(default_factory=dict)

    @property
    def help_uri(self) -> str:
        return f"{DOCS_BASE}#{self.id.lower()}"


class RuleRegistry:
    def __init__(self, rules: list[Rule]) -> None:
        self._rules: dict[str, Rule] = {}
        for rule in rules:
            if rule.id in self._rules:
                raise InputError(f"rule {rule.id} is defined twice")
            self._rules[rule.id] = rule

    def __contains__(self, rule_id: object) -> bool:
        return rule_id in self._rules

    def get(self, rule_id: str) -> Rule:
        try:
            return self._rules[rule_id]
        except KeyError:
            raise InternalError(f"no rule {rule_id} in the registry") from None

    def all(self) -> list[Rule]:
        return [self._rules[k] for k in sorted(self._rules)]

    def extended(self, rules: list[Rule]) -> RuleRegistry:
        return RuleRegistry([*self._rules.values(), *rules])

    def finding(
        self,
        rule_id: str,
        *,
        tool: str | None,
        location: str,
        message: str,
        evidence: str | None = None,
        witnesses: tuple[Witness, ...] = (),
        severity: Severity | None = None,
        confidence: Confidence | None = None,
    ) -> Finding:
        rule = self.get(rule_id)
        return Finding(
            rule_id=rule.id,
            title=rule.title,
            severity=severity or rule.severity,
            confidence=confidence or rule.confidence,
            tool=tool,
            location=location,
            message=message,
            evidence=evidence,
            witnesses=witnesses,
        )


@lru_cache(maxsize=1)
def _pack_schema() -> dict[str, Any]:
    text = data_files().joinpath("rule-pack.schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def pack_errors(doc: Any) -> list[tuple[str, str]]:
    """Schema violations of a parsed pack as (JSON path, message), in path order."""
    import jsonschema

    validator = jsonschema.Draft202012Validator(_pack_schema())
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
    return [("$" + "".join(f"[{p!r}]" for p in e.absolute_path), e.message) for e in errors]


def parse_pack(text: str, source: str, *, untrusted: bool = True) -> list[Rule]:
    if len(text) > _MAX_PACK_BYTES:
        raise InputError("rule pack over 2 MiB", source=source)
    # Built-in packs are ours (schema-checked by tests); a user's pack is hostile input.
    if untrusted:
        doc = load_untrusted_yaml(text, source, what="rule pack")
        errors = pack_errors(doc)
        if errors:
            where, message = errors[0]
            raise InputError(f"invalid rule pack: {message}", source=source, path=where)
    else:
        doc = load_yaml(text)
    rules = []
    for raw in doc["rules"]:
        family = raw["id"].split("-")[1]
        rules.append(Rule(family=family, **raw))
    return rules


@lru_cache(maxsize=1)
def builtin_registry() -> RuleRegistry:
    rules: list[Rule] = []
    for name, text in builtin_packs():
        rules.extend(parse_pack(text, f"builtin:{name}", untrusted=False))
    return RuleRegistry(rules)


def builtin_packs() -> list[tuple[str, str]]:
    """(file name, YAML text) of every shipped rule pack, in name order."""
    folder = data_files().joinpath("rules")
    return [
        (entry.name, entry.read_text("utf-8"))
        for entry in sorted(folder.iterdir(), key=lambda e: e.name)
        if entry.name.endswith(".yaml")
    ]


def load_registry(extra_packs: list[Path] | None = None) -> RuleRegistry:
    registry = builtin_registry()
    for pack in extra_packs or []:
        text = read_regular_text(pack, _MAX_PACK_BYTES, what="rule pack")
        added = parse_pack(text, str(pack))
        taken = sorted(r.id for r in added if r.id in registry)
        if taken:  # a custom pack adds rules; it never changes what a built-in id means
            raise InputError(f"redefines existing rule(s) {', '.join(taken)}", source=str(pack))
        registry = registry.extended(added)
    return registry
