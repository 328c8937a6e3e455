"""Report documents built from plain dicts say exactly what the pydantic dumps they replace say."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from toolwitness.findings import Witness
from toolwitness.report.json_format import witness_json

# Every field the model has, from its own annotations: a field added later is generated too.
_witnesses = st.fixed_dictionaries(
    {name: st.from_type(field.annotation) for name, field in Witness.model_fields.items()}  # type: ignore[arg-type]
).map(lambda kwargs: Witness(**kwargs))


@settings(max_examples=300, deadline=None)
@given(_witnesses)
def test_witness_json_is_to_json(witness: Witness) -> None:
    got: dict[str, Any] = witness_json(witness)
    assert got == witness.to_json()
    assert list(got) == list(witness.to_json())  # the same key order, so the same report bytes


def test_witness_json_on_defaults() -> None:
    witness = Witness(kind="text")
    assert witness_json(witness) == witness.to_json() == {"kind": "text", "path": []}
