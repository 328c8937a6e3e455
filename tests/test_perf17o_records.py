"""Each record class's compiled constructor (perf17o) builds what the generic one builds.

`records._compiled_init` writes one function per class, its conversions inline (a `str`
subclass to `str`, a value to its enum, a list to a tuple), a field taken under its name or its
wire alias, and hands any other call (both names, an unknown keyword) to the generic one. Held here to the generic `Record.__init__` on every record class the
scan path defines: the same field values (equal, of the same types), the same errors.
"""

from __future__ import annotations

import importlib
import pkgutil
from enum import Enum
from typing import Any

import pytest

import toolwitness
from toolwitness import records
from toolwitness.findings import Confidence, Finding, Severity, Witness
from toolwitness.records import Record

GENERIC = Record.__dict__["__init__"]


def _record_classes() -> list[type[Record]]:
    for info in pkgutil.walk_packages(toolwitness.__path__, "toolwitness."):
        if any(part in info.name for part in (".code", ".lab", ".gateway", ".sweep")):
            continue  # optional commands' modules: the scan path's records are enough
        try:
            importlib.import_module(info.name)
        except Exception:  # a module needing an optional dependency
            continue
    found: list[type[Record]] = []
    todo = list(Record.__subclasses__())
    while todo:
        cls = todo.pop()
        found.append(cls)
        todo += cls.__subclasses__()
    return sorted(set(found), key=lambda c: f"{c.__module__}.{c.__qualname__}")


class _Text(str):
    pass


def _values(cls: type[Record]) -> dict[str, Any]:
    return {name: getattr_default(f) for name, f in cls.model_fields.items()}


def getattr_default(f: records.RecordField) -> Any:
    return f.get_default(call_default_factory=True)


def _built(cls: type[Record], init: Any, values: dict[str, Any]) -> Any:
    obj = object.__new__(cls)
    try:
        init(obj, **values)
    except Exception as exc:  # compared: type and message
        return (type(exc), str(exc))
    return [(getattr(obj, n), type(getattr(obj, n))) for n in cls.model_fields]


def test_every_record_class_builds_the_same_with_both_constructors() -> None:
    classes = _record_classes()
    assert len(classes) > 20
    compiled = 0
    for cls in classes:
        init = records._compiled_init(cls)
        compiled += init is not GENERIC
        base = {n: v for n, v in _values(cls).items() if v is not None}
        cases = [base, {}, {**base, "no_such_field": 1, "another": 2}]
        for name, f in cls.model_fields.items():
            if f.alias is not None:  # the wire name instead, and both at once
                without = {k: v for k, v in base.items() if k != name}
                cases.append({**without, f.alias: base.get(name)})
                cases.append({**base, f.alias: _Text("w")})
            cases.append({**base, name: None})
            cases.append({**base, name: _Text("x")})
            cases.append({**base, name: ["a", "b"]})
            cases.append({k: v for k, v in base.items() if k != name})
        for values in cases:
            assert _built(cls, init, values) == _built(cls, GENERIC, values), (cls, values)
    assert compiled > 20


def test_conversions_and_fresh_defaults() -> None:
    made = Finding(rule_id=_Text("TW-INJ-001"), title="t", severity="high",
                   confidence=Confidence.STRONG, tool=None, location="x", message="m",
                   witnesses=[{"kind": "field", "path": ["a"]}])  # fmt: skip
    assert type(made.rule_id) is str and made.severity is Severity.HIGH
    assert made.witnesses == (Witness(kind="field", path=("a",)),)
    assert type(made.witnesses[0].path) is tuple
    with pytest.raises(TypeError, match="Finding: 'title' is required"):
        Finding(rule_id="r", severity=Severity.LOW, confidence=Confidence.STRONG, tool=None,
                location="x", message="m")  # fmt: skip


def test_a_subclass_gets_its_own_constructor() -> None:
    class Base(Record):
        a: str
        kind: Severity = Severity.LOW

    class Child(Base):
        b: tuple[str, ...] = ()

    assert Base(a="x").kind is Severity.LOW  # Base's constructor compiled first
    child = Child(a="y", b=["p", "q"], kind="high")
    assert (child.a, child.b, child.kind) == ("y", ("p", "q"), Severity.HIGH)
    with pytest.raises(TypeError, match="unknown field"):
        Base(a="x", b=())
    assert isinstance(Severity.LOW, Enum)
