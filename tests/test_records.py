"""Records (the scan's models without pydantic) hold, dump, copy and compare exactly as the
pydantic models they replaced: each is checked against its pydantic twin (the same fields,
aliases, defaults and configuration) on every record of real scans."""

from __future__ import annotations

import copy
import pickle
from enum import StrEnum
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from toolwitness.findings import Confidence, Finding, Severity, Witness
from toolwitness.model import ServerSurface, Tool, Transport
from toolwitness.pipeline import ScanOptions, scan
from toolwitness.records import Record
from toolwitness.result import Penalty, ScanResult, ToolResult

ROOT = Path(__file__).resolve().parent.parent
_DUMPS: list[dict[str, Any]] = [
    {},
    {"mode": "json"},
    {"by_alias": True},
    {"mode": "json", "by_alias": True},
    {"mode": "json", "exclude_none": True},
    {"mode": "json", "by_alias": True, "exclude_none": True},
    {"exclude_none": True},
]


def _records(value: Any) -> list[Record]:
    out: list[Record] = []
    if isinstance(value, Record):
        out.append(value)
        for _, v in value:
            out.extend(_records(v))
    elif isinstance(value, (tuple, list)):
        for v in value:
            out.extend(_records(v))
    elif isinstance(value, dict):
        for v in value.values():
            out.extend(_records(v))
    return out


@pytest.fixture(scope="module")
def scanned() -> ScanResult:
    return scan(
        [ROOT / "examples" / "catalogs", ROOT / "tests" / "fixtures" / "real"], ScanOptions()
    )


def test_every_record_of_a_scan_is_its_twin(scanned: ScanResult) -> None:
    records = _records(scanned)
    kinds = {type(r).__name__ for r in records}
    assert {"ScanResult", "ServerResult", "ServerSurface", "Tool", "ToolResult", "Finding",
            "Witness"} <= kinds  # fmt: skip
    for record in records:
        twin = type(record)._twin()
        validated = twin.model_validate(record.model_dump())
        assert isinstance(validated, BaseModel)
        for options in _DUMPS:
            assert record.model_dump(**options) == validated.model_dump(**options), options
        assert repr(record) == repr(validated)
        again = type(record).model_validate(record.model_dump(mode="json", by_alias=True))
        assert again == record and type(again) is type(record)


def test_records_copy_pickle_and_stay_frozen(scanned: ScanResult) -> None:
    server = scanned.servers[0]
    assert pickle.loads(pickle.dumps(server)) == server
    assert copy.deepcopy(server) == server and copy.copy(server) == server
    finding = server.findings[0]
    assert hash(finding) == hash(Finding(**finding.model_dump()))
    with pytest.raises(AttributeError):
        finding.title = "x"  # type: ignore[misc]
    moved = server.model_copy(update={"score": 101})
    assert moved.score == 101 and moved.surface is server.surface and server.score != 101
    with pytest.raises(TypeError):
        server.model_copy(update={"nope": 1})


class _Kind(StrEnum):
    TEXT = "text"


def test_construction_converts_as_pydantic_did() -> None:
    w = Witness(kind=_Kind.TEXT, path=["a", "b"])  # type: ignore[arg-type]
    assert type(w.kind) is str and w.path == ("a", "b") and type(w.path) is tuple
    f = Finding(
        rule_id="TW-X-001",
        title="t",
        severity="high",
        confidence="strong",  # type: ignore[arg-type]
        tool=None,
        location="l",
        message="m",
        witnesses=[w],
    )  # type: ignore[arg-type]
    assert f.severity is Severity.HIGH and f.confidence is Confidence.STRONG
    assert f.witnesses == (w,) and type(f.witnesses) is tuple
    assert type(Penalty(rule_id="r", penalty=3).penalty) is float
    row = ToolResult(name="n", digest="d", field_digests={}, witnesses={"a": [w]})  # type: ignore[dict-item]
    assert row.witnesses == {"a": (w,)}
    schema: dict[str, Any] = {"type": "object"}
    tool = Tool(name="t", inputSchema=schema)
    assert tool.input_schema == schema and tool.input_schema is not schema  # a copy, as before
    assert Tool(name="t", input_schema={}) == Tool(name="t", inputSchema={})  # by name or alias
    for twin_and_record in ((f, Finding), (tool, Tool)):
        value, cls = twin_and_record
        assert cls._twin().model_validate(value.model_dump()).model_dump() == value.model_dump()


def test_construction_refuses_unknown_and_missing_fields() -> None:
    with pytest.raises(TypeError, match="unknown field"):
        Witness(kind="text", bogus=1)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="'kind' is required"):
        Witness()  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="'inputSchema' is required"):
        Tool(name="t")  # type: ignore[call-arg]


def test_untrusted_documents_get_pydantics_messages() -> None:
    with pytest.raises(ValidationError) as caught:
        Transport.model_validate({"kind": "stdio", "env": {"A": 1}, "extra": 2})
    assert [(e["loc"], e["msg"]) for e in caught.value.errors()] == [
        (("env", "A"), "Input should be a valid string"),
        (("extra",), "Extra inputs are not permitted"),
    ]
    with pytest.raises(ValidationError) as caught:
        ServerSurface.model_validate({"id": "s", "tools": [{"name": "t"}]})
    assert caught.value.errors()[0]["loc"] == ("tools", 0, "inputSchema")
    assert caught.value.title == "ServerSurface"
    surface = ServerSurface.model_validate({"id": "s", "tools": [{"name": "t", "inputSchema": {}}]})
    assert type(surface.tools[0]) is Tool and surface.tools == (Tool(name="t", inputSchema={}),)
