"""Frozen records: the models every scan builds, without pydantic on the scan path.

`import pydantic` and building its models was about a quarter of a one-tool scan (docs/
performance.md, tenth and eleventh passes). The surfaces, findings, results and rules are built
from values this project has already checked (the catalog reader, the config reader, the
detectors), so the scan path needs no validation library: a `Record` is a slotted, frozen class
with keyword construction and the parts of pydantic's model API the project uses —
`model_dump` (python or json mode, `by_alias`, `exclude_none`, `exclude`), `model_copy(update=…)`,
`model_construct`, `model_fields`, equality, hashing, `repr`, pickling.

Construction applies the conversions pydantic applied to the values the project passes (a list
into a tuple field, a string into an enum field, an int into a float field, a `str` subclass into
a plain `str`, a fresh copy of a dict or list field) so a record holds exactly what the model
held; unknown and missing fields are refused.

Untrusted documents (snapshots, lock files, lab and probe files) go through `model_validate`,
which imports pydantic there and validates with a twin pydantic model built from the record's
own annotations: the same accepted inputs and the same error messages (`loc: msg`) as before.
`tests/test_records.py` holds records and their twins equal on real scans.
"""

from __future__ import annotations

import copy
import types
import typing
from collections.abc import Callable, Iterator
from enum import Enum
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Self, Union, dataclass_transform

_MISSING: Any = type("_Missing", (), {"__repr__": lambda self: "<required>"})()


class _Spec:
    __slots__ = ("alias", "default", "default_factory")

    def __init__(self, default: Any, default_factory: Callable[[], Any] | None, alias: str | None):
        self.default = default
        self.default_factory = default_factory
        self.alias = alias


def field(
    *,
    default: Any = _MISSING,
    default_factory: Callable[[], Any] | None = None,
    alias: str | None = None,
) -> Any:
    """A field with an alias (its wire name) or a default factory, as pydantic's `Field`."""
    return _Spec(default, default_factory, alias)


class RecordField:
    """One field of a record: what `model_fields` maps a name to (a `FieldInfo`'s used parts)."""

    __slots__ = ("alias", "default", "default_factory", "name", "owner")

    def __init__(self, owner: type[Record], name: str, spec: _Spec) -> None:
        self.owner = owner
        self.name = name
        self.alias = spec.alias
        self.default = spec.default
        self.default_factory = spec.default_factory

    def is_required(self) -> bool:
        return self.default is _MISSING and self.default_factory is None

    def get_default(self, *, call_default_factory: bool = False) -> Any:
        if self.default_factory is not None:
            return self.default_factory() if call_default_factory else None
        return None if self.default is _MISSING else self.default

    @property
    def annotation(self) -> Any:
        return self.owner._hints()[self.name]

    def __repr__(self) -> str:
        return f"RecordField(name={self.name!r}, alias={self.alias!r})"


_IMMUTABLE = (type(None), str, int, float, bool, tuple, frozenset, Enum)


def _copier(value: Any) -> Callable[[], Any]:
    return lambda: copy.deepcopy(value)


class _RecordMeta(type):
    def __new__(
        mcs, name: str, bases: tuple[type, ...], namespace: dict[str, Any], **kwargs: Any
    ) -> _RecordMeta:
        annotations = namespace.get("__annotations__", {})
        specs: dict[str, _Spec] = {}
        for attr, note in annotations.items():
            if isinstance(note, str) and note.startswith("ClassVar"):
                continue
            value = namespace.pop(attr, _MISSING)
            if isinstance(value, _Spec):
                spec = value
            elif value is _MISSING or isinstance(value, _IMMUTABLE):
                spec = _Spec(value, None, None)
            else:  # a mutable default: each record gets its own copy, as pydantic gave
                spec = _Spec(_MISSING, _copier(value), None)
            specs[attr] = spec
        namespace["__slots__"] = tuple(specs)
        cls = super().__new__(mcs, name, bases, namespace, **kwargs)
        inherited: dict[str, RecordField] = {}
        for base in reversed(cls.__mro__[1:]):
            inherited.update(getattr(base, "model_fields", {}))
        own = {n: RecordField(cls, n, s) for n, s in specs.items()}  # type: ignore[arg-type]
        cls.model_fields = {**inherited, **own}  # type: ignore[attr-defined]
        cls._init = None  # type: ignore[attr-defined]
        cls._twin_model = None  # type: ignore[attr-defined]
        if "__init__" not in namespace:  # each record class its own, compiled at first use
            setattr(cls, "__init__", _first_init(cls))  # noqa: B010 - mypy: not a method here
        return cls


@dataclass_transform(kw_only_default=True, frozen_default=True, field_specifiers=(field,))
class Record(metaclass=_RecordMeta):
    """A frozen record with keyword construction (field names or aliases)."""

    model_fields: ClassVar[dict[str, RecordField]]
    _init: ClassVar[tuple[tuple[str, str | None, Any, Any, Any], ...] | None]
    _twin_model: ClassVar[Any]

    if not TYPE_CHECKING:

        def __init__(self, **values: Any) -> None:
            plan = type(self)._init or type(self)._plan()
            setter = object.__setattr__
            used = 0
            for name, alias, default, factory, convert in plan:
                if name in values:
                    value = values[name]
                    used += 1
                elif alias is not None and alias in values:
                    value = values[alias]
                    used += 1
                elif factory is not None:
                    value = factory()
                elif default is _MISSING:
                    raise TypeError(f"{type(self).__name__}: {alias or name!r} is required")
                else:
                    value = default
                if convert is not None and value is not None:
                    value = convert(value)
                setter(self, name, value)
            if used != len(values):
                known = {n for n, *_ in plan} | {a for _, a, *_ in plan if a}
                unknown = sorted(set(values) - known) or sorted(values)
                raise TypeError(f"{type(self).__name__}: unknown field(s) {', '.join(unknown)}")

    # --- the class's plan and types, built at first use -----------------------------------------
    @classmethod
    def _hints(cls) -> dict[str, Any]:
        return typing.get_type_hints(cls)

    @classmethod
    def _plan(cls) -> tuple[tuple[str, str | None, Any, Any, Any], ...]:
        hints = cls._hints()
        plan = tuple(
            (n, f.alias, f.default, f.default_factory, _converter(hints[n]))
            for n, f in cls.model_fields.items()
        )
        cls._init = plan
        return plan

    # --- pydantic's model API, the parts the project uses -----------------------------------
    @classmethod
    def model_construct(cls, _fields_set: Any = None, **values: Any) -> Self:
        """A record from values taken as they are (no conversion), defaults filled in."""
        self = object.__new__(cls)
        for name, f in cls.model_fields.items():
            if name in values:
                value = values[name]
            elif f.alias is not None and f.alias in values:
                value = values[f.alias]
            elif f.default_factory is not None:
                value = f.default_factory()
            else:
                value = f.default
            object.__setattr__(self, name, value)
        return self

    def model_copy(self, *, update: dict[str, Any] | None = None, deep: bool = False) -> Self:
        """A copy with some fields replaced; the new values are taken as they are."""
        source = copy.deepcopy(self) if deep else self
        new = object.__new__(type(self))
        fields = type(self).model_fields
        for name in fields:
            object.__setattr__(new, name, getattr(source, name))
        for name, value in (update or {}).items():
            if name not in fields:
                raise TypeError(f"{type(self).__name__}: unknown field {name!r}")
            object.__setattr__(new, name, value)
        return new

    def model_dump(
        self,
        *,
        mode: Literal["python", "json"] = "python",
        by_alias: bool = False,
        exclude_none: bool = False,
        exclude: set[str] | frozenset[str] | None = None,
        exclude_defaults: bool = False,
    ) -> dict[str, Any]:
        json = mode == "json"
        out: dict[str, Any] = {}
        for name, f in type(self).model_fields.items():
            if exclude is not None and name in exclude:
                continue
            value = getattr(self, name)
            if value is None and exclude_none:
                continue
            if exclude_defaults and value == f.get_default(call_default_factory=True):
                continue
            key = f.alias if by_alias and f.alias is not None else name
            out[key] = _dump(value, json, by_alias, exclude_none)
        return out

    @classmethod
    def model_validate(cls, obj: Any) -> Self:
        """Validate an untrusted value with pydantic (imported here), as the model did."""
        if isinstance(obj, cls):
            return obj
        twin = cls._twin()
        validated = twin.model_validate(_plain(obj))
        record: Self = _from_twin(validated)
        return record

    @classmethod
    def _twin(cls) -> Any:
        """The pydantic model of the same fields, aliases, defaults and configuration."""
        if cls.__dict__.get("_twin_model") is None:
            from pydantic import ConfigDict, Field, create_model

            hints = cls._hints()
            fields: dict[str, Any] = {}
            for name, f in cls.model_fields.items():
                kwargs: dict[str, Any] = {}
                if f.default_factory is not None:
                    kwargs["default_factory"] = f.default_factory
                elif f.default is not _MISSING:
                    kwargs["default"] = f.default
                if f.alias is not None:
                    kwargs["alias"] = f.alias
                fields[name] = (_twin_type(hints[name]), Field(**kwargs))
            config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)
            twin = create_model(
                cls.__name__, __config__=config, __module__=cls.__module__, **fields
            )
            twin.__record__ = cls
            cls._twin_model = twin
        return cls._twin_model

    # --- the data model ------------------------------------------------------------------------
    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, n) for n in type(self).model_fields)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash((type(self), self._values()))

    def __repr__(self) -> str:
        body = ", ".join(f"{n}={getattr(self, n)!r}" for n in type(self).model_fields)
        return f"{type(self).__name__}({body})"

    def __iter__(self) -> Iterator[tuple[str, Any]]:
        return ((n, getattr(self, n)) for n in type(self).model_fields)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen: cannot delete {name!r}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), self._values()))


def _first_init(cls: Any) -> Callable[..., None]:
    """The constructor of `cls` until its first call, which puts the compiled one in its place
    (`_compiled_init`). Each class gets its own: a subclass never runs its base's."""

    def __init__(self: Record, **values: Any) -> None:
        init = _compiled_init(cls)
        setattr(cls, "__init__", init)  # noqa: B010
        init(self, **values)

    return __init__


_INIT_RESERVED = frozenset({"self", "_M", "_set", "_E", "_name"})


def _compiled_init(cls: type[Record]) -> Callable[..., None]:
    """`Record.__init__` for one class, as one function with a keyword per field: the same
    defaults, factories and conversions in field order. Any other keyword (a wire alias, an
    unknown field) hands the call, as it was made, to the generic constructor, which gives the
    same errors in the same order (a missing field first, then unknown ones)."""
    plan = cls._init or cls._plan()
    generic: Callable[..., None] = Record.__dict__["__init__"]
    names = [name for name, *_ in plan]
    keywords = names + [alias for _, alias, *_ in plan if alias is not None]
    if (
        not plan
        or len(set(keywords)) < len(keywords)
        or any(not k.isidentifier() or k in _INIT_RESERVED or k.startswith("_v_") for k in keywords)
    ):
        return generic
    env: dict[str, Any] = {"_M": _MISSING, "_set": object.__setattr__, "_E": TypeError,
                           "_v_generic": generic}  # fmt: skip
    hints = cls._hints()
    # every keyword the call gave, for the generic constructor
    pairs = ", ".join(f"({k!r}, {k})" for k in keywords)
    given = f"{{k: v for k, v in ({pairs},) if v is not _M}}"
    body = ["    if _v_other:", f"        return _v_generic(self, **{given}, **_v_other)"]
    for name, alias, *_ in plan:
        if alias is not None:  # under its wire name; both names at once: the generic's error
            body.append(f"    if {alias} is not _M:")
            body.append(f"        if {name} is not _M: return _v_generic(self, **{given})")
            body.append(f"        {name} = {alias}")
    params = [f"{k}=_M" for k in keywords]
    for k, (name, alias, default, factory, convert) in enumerate(plan):
        if factory is not None:
            env[f"_v_f{k}"] = factory
            body.append(f"    if {name} is _M: {name} = _v_f{k}()")
        elif default is _MISSING:
            message = f": {alias or name!r} is required"
            body.append(f"    if {name} is _M: raise _E(type(self).__name__ + {message!r})")
        else:
            env[f"_v_d{k}"] = default
            body.append(f"    if {name} is _M: {name} = _v_d{k}")
        kind = _inline_kind(hints[name]) if convert is not None else None
        if kind is str:  # `_plain_str`, inline: only a `str` subclass changes
            body.append(f"    if type({name}) is not str and isinstance({name}, str):")
            body.append(f"        {name} = str.__str__({name})")
        elif isinstance(kind, type):  # an enum: its converter's test, inline
            env[f"_v_t{k}"] = kind
            body.append(f"    if {name} is not None and type({name}) is not _v_t{k}:")
            body.append(f"        {name} = _v_t{k}({name})")
        elif kind == "tuple":  # () converts to () (the one empty tuple) without the call
            env[f"_v_c{k}"] = convert
            body.append(f"    if {name} is not None and ({name} or type({name}) is not tuple):")
            body.append(f"        {name} = _v_c{k}({name})")
        elif convert is not None:
            env[f"_v_c{k}"] = convert
            body.append(f"    if {name} is not None: {name} = _v_c{k}({name})")
        body.append(f"    _set(self, {name!r}, {name})")
    params_text = ", ".join(params)
    source = f"def __init__(self, *, {params_text}, **_v_other):\n" + "\n".join(body)
    exec(compile(source, f"<record {cls.__name__}>", "exec"), env)  # noqa: S102 - our own text
    init: Callable[..., None] = env["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init


def _inline_kind(t: Any) -> Any:
    """What `_converter(t)` does, where `_compiled_init` writes it inline: `str` (the `str`
    conversion), an enum class (the enum's), "tuple" (a `tuple[X, ...]`), else None."""
    origin = typing.get_origin(t)
    if origin is Union or origin is types.UnionType:
        inner = [a for a in typing.get_args(t) if a is not type(None)]
        return _inline_kind(inner[0]) if len(inner) == 1 else None
    if origin is tuple:
        return "tuple"
    if t is str or (isinstance(t, type) and issubclass(t, Enum)):
        return t
    return None


def _rebuild(cls: type[Record], values: tuple[Any, ...]) -> Record:
    self = object.__new__(cls)
    for name, value in zip(cls.model_fields, values, strict=True):
        object.__setattr__(self, name, value)
    return self


# --- construction: the conversions pydantic made to the values the project passes --------------
def _converter(t: Any) -> Callable[[Any], Any] | None:
    origin = typing.get_origin(t)
    if origin is Union or origin is types.UnionType:
        inner = [a for a in typing.get_args(t) if a is not type(None)]
        return _converter(inner[0]) if len(inner) == 1 else None
    if origin is tuple:
        args = typing.get_args(t)
        element = _converter(args[0]) if len(args) == 2 and args[1] is Ellipsis else None
        if element is None:
            return tuple
        return lambda v: tuple(element(x) for x in v)
    if origin is dict:
        value_of = _converter(typing.get_args(t)[1])
        if value_of is None:
            return dict
        return lambda v: {k: value_of(x) for k, x in v.items()}
    if origin is list:
        return list
    if t is str:
        return _plain_str
    if t is float:
        return _float
    if isinstance(t, type) and issubclass(t, Enum):
        return lambda v: v if type(v) is t else t(v)
    if isinstance(t, type) and issubclass(t, Record):
        return lambda v: t.model_validate(v) if isinstance(v, dict) else v
    return None


def _plain_str(value: Any) -> Any:
    return value if type(value) is str or not isinstance(value, str) else str.__str__(value)


def _float(value: Any) -> Any:
    return float(value) if type(value) is int else value


# --- dumping -------------------------------------------------------------------------------------
def _dump(value: Any, json: bool, by_alias: bool, exclude_none: bool) -> Any:
    if value is None or type(value) in (str, int, float, bool):
        return value
    if isinstance(value, Record):
        return value.model_dump(
            mode="json" if json else "python", by_alias=by_alias, exclude_none=exclude_none
        )
    if isinstance(value, Enum):
        return value.value if json else value
    if isinstance(value, dict):
        return {k: _dump(v, json, by_alias, exclude_none) for k, v in value.items()}
    if isinstance(value, tuple):
        items = [_dump(v, json, by_alias, exclude_none) for v in value]
        return items if json else tuple(items)
    if isinstance(value, list):
        return [_dump(v, json, by_alias, exclude_none) for v in value]
    if isinstance(value, (set, frozenset)):
        items = [_dump(v, json, by_alias, exclude_none) for v in value]
        return items if json else type(value)(items)
    return value


# --- validation through the pydantic twin ------------------------------------------------------
def _twin_type(t: Any) -> Any:
    if isinstance(t, type) and issubclass(t, Record):
        return t._twin()
    origin = typing.get_origin(t)
    if origin is None or origin is Literal:
        return t
    args = tuple(a if a is Ellipsis else _twin_type(a) for a in typing.get_args(t))
    if origin is Union or origin is types.UnionType:
        return Union[args]  # noqa: UP007 (a runtime union of the substituted types)
    return origin[args]


def _plain(value: Any) -> Any:
    """A value with every record inside it as its python dump (what the twin accepts)."""
    if isinstance(value, Record):
        return value.model_dump()
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, tuple):
        return tuple(_plain(v) for v in value)
    return value


def _from_twin(value: Any) -> Any:
    record = getattr(type(value), "__record__", None)
    if record is not None:
        self = object.__new__(record)
        for name in record.model_fields:
            object.__setattr__(self, name, _from_twin(getattr(value, name)))
        return self
    if isinstance(value, tuple):
        return tuple(_from_twin(v) for v in value)
    if isinstance(value, dict):
        return {k: _from_twin(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_from_twin(v) for v in value]
    return value
