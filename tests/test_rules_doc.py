"""docs/rules.md matches the registry: every rule documented in its fixed sections."""

from conftest import ROOT
from toolwitness.rules import builtin_registry
from toolwitness.rules_doc import render_rules_doc


def test_rules_doc_is_current() -> None:
    expected = render_rules_doc(builtin_registry())
    actual = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert actual == expected, "regenerate: python -m toolwitness.rules_doc > docs/rules.md"


def test_every_rule_has_all_sections() -> None:
    text = render_rules_doc(builtin_registry())
    for rule in builtin_registry().all():
        section = text.split(f"### {rule.id}\n", 1)[1].split("\n### ", 1)[0]
        for heading in ("*Why it matters.*", "*Benign triggers.*", "*What to do.*"):
            assert heading in section, (rule.id, heading)
