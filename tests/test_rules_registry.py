"""Rules are data: validated packs; checks cannot name rules that do not exist; crashes fail closed."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from toolwitness.acquire.catalog import surface_from_document
from toolwitness.checks import catalog, interface
from toolwitness.checks.interface import CheckContext, FunctionCheck
from toolwitness.errors import InputError
from toolwitness.findings import Finding
from toolwitness.model import ServerSurface
from toolwitness.pipeline import ScanOptions, exit_code, scan_surfaces
from toolwitness.rules import builtin_packs, builtin_registry, pack_errors, parse_pack
from toolwitness.yamlload import load_untrusted_yaml

# The checks register themselves when `checks.catalog` is first imported. Import it here, before
# any test swaps `_SERVER_CHECKS` for a patched copy: otherwise the registration lands in the copy,
# is thrown away with it, and every later test in the process scans without those checks.
assert catalog


def test_every_builtin_rule_is_complete() -> None:
    rules = builtin_registry().all()
    assert rules
    for rule in rules:
        assert rule.id.startswith(f"TW-{rule.family}-")
        assert rule.rationale.strip() and rule.remediation.strip() and rule.benign_triggers.strip()


def test_every_shipped_pack_passes_the_schema() -> None:
    """The runtime loads built-in packs without the schema (start-up needs no jsonschema): this
    test is where they are validated, with the same strict reader a user's pack gets."""
    import jsonschema

    from toolwitness.rules import _pack_schema

    jsonschema.Draft202012Validator.check_schema(_pack_schema())
    packs = builtin_packs()
    assert len(packs) >= 10
    for name, text in packs:
        doc = load_untrusted_yaml(text, name, what="rule pack")
        assert pack_errors(doc) == [], name
        assert [r.id for r in parse_pack(text, name)] == [r["id"] for r in doc["rules"]]


def test_a_broken_builtin_pack_would_fail_this_test() -> None:
    """The check above can fail: the schema catches what the runtime would not."""
    doc = load_untrusted_yaml(builtin_packs()[0][1], "x", what="rule pack")
    doc["rules"][0]["id"] = "TW-NOPE-1"
    assert pack_errors(doc)


def test_pack_schema_rejects_bad_ids_and_fields() -> None:
    with pytest.raises(InputError, match="invalid rule pack"):
        parse_pack("rules:\n  - id: TW-XYZ-001\n", "p.yaml")
    with pytest.raises(InputError, match="invalid rule pack"):
        parse_pack("rules: []\n", "p.yaml")
    with pytest.raises(InputError, match="not valid YAML"):
        parse_pack("rules: [\n", "p.yaml")


def test_yaml_is_loaded_safely() -> None:
    with pytest.raises(InputError):
        parse_pack("!!python/object/apply:os.system ['true']\n", "evil.yaml")


def test_check_with_unknown_rule_refuses_to_load(monkeypatch: pytest.MonkeyPatch) -> None:
    bogus = FunctionCheck(name="bogus", rule_ids=frozenset({"TW-META-999"}), func=lambda s, c: [])
    monkeypatch.setattr(interface, "_SERVER_CHECKS", [*interface._SERVER_CHECKS, bogus])
    with pytest.raises(ValueError, match="TW-META-999"):
        interface.loaded_checks(builtin_registry())


def test_crashing_check_is_a_finding_and_exit_3(monkeypatch: pytest.MonkeyPatch) -> None:
    def explode(surface: ServerSurface, ctx: CheckContext) -> Iterator[Finding]:
        raise RuntimeError("boom")
        yield  # pragma: no cover

    crash = FunctionCheck(name="crashy", rule_ids=frozenset({"TW-META-005"}), func=explode)
    monkeypatch.setattr(interface, "_SERVER_CHECKS", [*interface._SERVER_CHECKS, crash])
    surface = surface_from_document(
        {"tools": [{"name": "x", "description": "d", "inputSchema": {"type": "object"}}]},
        server_id="s",
        source="x",
    )
    result = scan_surfaces([surface], ScanOptions())
    assert result.incomplete
    assert any(f.rule_id == "TW-META-005" for f in result.servers[0].findings)
    assert exit_code(result) == 3
