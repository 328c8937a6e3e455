"""The twentieth pass's JSON report writing gives the same text.

`json_text._object` looks a key's escaped text (with its ": ") up in a bounded table instead of
escaping it for every finding and tool; `finding_json` reads a severity's and a confidence's
value without the enum property. Held to `json.dumps(indent=2)` on documents with keys of every
type JSON coerces, `str` subclasses, more distinct keys than the table keeps, and the report of
generated catalogs.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from toolwitness.findings import Confidence, Severity
from toolwitness.pipeline import ScanOptions, scan
from toolwitness.report import json_text
from toolwitness.report.json_format import finding_json, report_document
from toolwitness.report.json_text import dumps_indented

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
from catalogs import write_catalog  # noqa: E402


class _Name(str):
    """A str subclass: escaped by its text, never kept in the table under its own type."""


def test_keys_of_every_type() -> None:
    doc = {
        "a": {"rule_id": 1, 1: "int", 1.5: "float", None: "none", "é": [1]},
        "t": {True: "bool", "rule_id": 2},
        "b": {_Name("rule_id"): "sub", "rule_id": "plain", "\u2028": "sep", "": ""},
        "c": [{"severity": "high"}, {_Name("x"): None}, {False: 0, 2.0: 1e300}],
    }
    for _ in range(2):  # cold, then with the keys in the table
        assert dumps_indented(doc) == json.dumps(doc, indent=2, ensure_ascii=True)
    assert all(type(k) is str for k in json_text._KEY_TEXTS)


def test_the_key_table_is_bounded() -> None:
    doc = {"rows": [{f"key-{i}": i} for i in range(3 * json_text._MAX_KEY_TEXTS)]}
    assert dumps_indented(doc) == json.dumps(doc, indent=2, ensure_ascii=True)
    assert len(json_text._KEY_TEXTS) <= json_text._MAX_KEY_TEXTS


_KEYS = st.one_of(st.text(max_size=8), st.integers(), st.booleans(), st.none(),
                  st.floats(allow_nan=False), st.text(max_size=4).map(_Name))  # fmt: skip
_LEAVES = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=8))
_VALUES = st.recursive(
    _LEAVES,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_KEYS, inner, max_size=4),
    max_leaves=30,
)


@settings(max_examples=500, deadline=None)
@given(_VALUES)
def test_same_text_as_json_dumps(value: object) -> None:
    assert dumps_indented(value) == json.dumps(value, indent=2, ensure_ascii=True)


def test_generated_reports(tmp_path: Path) -> None:
    for kind in ("benign", "poisoned"):
        result = scan([write_catalog(60, kind, tmp_path)], ScanOptions())
        doc = report_document(result)
        assert dumps_indented(doc) == json.dumps(doc, indent=2, ensure_ascii=True)
        for server in result.servers:
            for finding in server.findings:
                shown = finding_json(finding, False)
                assert shown["severity"] == finding.severity.value
                assert type(shown["severity"]) is str and type(shown["confidence"]) is str
                assert shown["confidence"] == finding.confidence.value
    assert all(m._value_ is m.value for m in (*Severity, *Confidence))
