"""`@plainclass`: the dataclasses this project declares, without `dataclasses` on the scan path.

`@dataclass` costs ~0.5 ms a class at import in CPython 3.11: it `exec`s every generated method
separately, builds a `Field` object per field and, for a class without a docstring, calls
`inspect.signature` to write one. A one-tool catalog scan declared 62 of them: 37 ms of a
~150 ms process (docs/performance.md, twelfth pass). `@plainclass` keeps the behaviour the
project uses and compiles one function per class, its `__init__`, at the class's first
construction (a class never built compiles nothing); the other methods are shared functions or
closures over the class's field names:

- `__init__(self, a, b=default, c=<default_factory>)`: positional or keyword, defaults,
  `field(default_factory=...)` called afresh per instance, then `__post_init__()` if the class
  has one. A frozen class sets its fields with `object.__setattr__` (a global of the function, not
  `dataclasses`' attribute lookup per field), so construction is a little faster than the
  dataclass's and the instance is the same size.
- `__repr__` (`Name(a=1, b='x')`, `...` for a recursive reference), `__eq__` (same class, equal
  field tuple, else `NotImplemented`), `__hash__` (the hash of the field tuple) when frozen with
  `eq`, `__hash__ = None` when mutable with `eq`; `eq=False` keeps identity. Methods written in
  the class body are kept, as `dataclass` keeps them. `__eq__` and `__hash__` read the fields
  with an `attrgetter`: ~0.15 µs a call more than the dataclass's compiled ones, and no scan
  calls them (counted on both 5,000-tool benchmark catalogs: zero calls).
- `frozen=True`: assigning or deleting a field raises `dataclasses.FrozenInstanceError` (the same
  type, imported only when raised). `slots=True` rebuilds the class with `__slots__` (pickling a
  frozen slotted instance goes through `__getstate__`/`__setstate__`, as `dataclass` does).
- A `@plainclass` subclass of a `@plainclass` takes its base's fields first (a redeclared field
  keeps its place), as `dataclass` orders them; frozen and mutable classes do not mix.
- `__match_args__`, the class attributes holding plain defaults, `replace(obj, **changes)`
  (`dataclasses.replace`) and `fields_of(cls)` (the field names, in order).

Not provided (a class needing one stays a real dataclass): `dataclasses.fields`, `asdict`,
`astuple`, `is_dataclass` and `replace` (they read `__dataclass_fields__`), `order`,
`unsafe_hash`, `kw_only`, `InitVar`, per-field `init`/`repr`/`compare` flags, `__init__`
annotations, and the generated `__doc__` (a class without a docstring keeps `__doc__ = None`).
`typing.dataclass_transform` gives mypy the same constructor signatures as `dataclass` did.
"""

from __future__ import annotations

import _thread
from collections.abc import Callable
from operator import attrgetter
from typing import Any, TypeVar, dataclass_transform, overload

_T = TypeVar("_T")

COMPILED: list[str] = []  # the classes whose `__init__` was compiled: tests count work, not time


class _Field:
    __slots__ = ("default", "default_factory")

    def __init__(self, default: Any, default_factory: Callable[[], Any] | None) -> None:
        self.default = default
        self.default_factory = default_factory


_NO_DEFAULT: Any = object()  # "no default": a marker no caller can pass as a value


@overload
def field(*, default: _T) -> _T: ...


@overload
def field(*, default_factory: Callable[[], _T]) -> _T: ...


def field(*, default: Any = _NO_DEFAULT, default_factory: Callable[[], Any] | None = None) -> Any:
    """A field's default, or the factory called for each new instance (`dataclasses.field`)."""
    if default is not _NO_DEFAULT and default_factory is not None:
        raise ValueError("cannot specify both default and default_factory")
    return _Field(default, default_factory)


_RESERVED = ("self", "_set", "_FACTORY")  # names the generated `__init__` uses itself


def _field_names(cls: type, annotations: dict[str, Any]) -> list[str]:
    names = []
    for name, note in annotations.items():
        text = note if isinstance(note, str) else repr(note)
        if text.startswith(("ClassVar", "typing.ClassVar")):
            continue
        if "InitVar" in text or "KW_ONLY" in text:
            raise TypeError(f"{cls.__qualname__}.{name}: @plainclass has no InitVar or KW_ONLY")
        if name in _RESERVED or name.startswith(("_f_", "_d_")):
            raise TypeError(f"{cls.__qualname__}.{name}: a field name @plainclass reserves")
        names.append(name)
    return names


def _mutable(value: Any) -> bool:
    return type(value).__hash__ is None  # dataclasses' own test: list, dict, set ...


class _Plan:
    """A class's fields, its bases' first (as `dataclass` orders them): names, plain defaults,
    default factories."""

    __slots__ = ("defaults", "factories", "frozen", "names")

    def __init__(self, cls: type, frozen: bool) -> None:
        self.frozen = frozen
        self.names: list[str] = []
        self.defaults: dict[str, Any] = {}
        self.factories: dict[str, Callable[[], Any]] = {}
        for base in reversed(cls.__mro__[1:]):
            inherited: _Plan | None = base.__dict__.get("__plain_plan__")
            if inherited is None:
                continue
            if inherited.frozen != frozen:
                raise TypeError(f"{cls.__qualname__}: frozen and mutable @plainclass inheritance")
            for name in inherited.names:
                self._add(name)
            self.defaults.update(inherited.defaults)
            self.factories.update(inherited.factories)
        annotations = cls.__dict__.get("__annotations__", {})  # noqa: RUF063 - no inspect
        for name in _field_names(cls, annotations):
            self._add(name)
            self.defaults.pop(name, None)
            self.factories.pop(name, None)
            value = cls.__dict__.get(name, _NO_DEFAULT)
            if isinstance(value, _Field):
                if value.default_factory is not None:
                    self.factories[name] = value.default_factory
                    delattr(cls, name)
                    continue
                value = value.default
                if value is not _NO_DEFAULT:
                    setattr(cls, name, value)
            if value is _NO_DEFAULT:
                continue
            if _mutable(value):
                raise ValueError(
                    f"mutable default {type(value)} for field {name} is not allowed:"
                    " use default_factory"
                )
            self.defaults[name] = value
        seen_default = False
        for name in self.names:
            if name in self.defaults or name in self.factories:
                seen_default = True
            elif seen_default:
                raise TypeError(f"non-default argument {name!r} follows default argument")

    def _add(self, name: str) -> None:
        if name not in self.names:  # a redeclared field keeps its place
            self.names.append(name)


_FACTORY = object()  # the default of a parameter whose value comes from a factory


def _make_init(cls: type, plan: _Plan, frozen: bool) -> Callable[..., None]:
    """The class's `__init__`, compiled from one generated source (one `exec` per class); the
    defaults, factories and `object.__setattr__` are the globals it reads."""
    params, body = ["self"], []
    values: dict[str, Any] = {"__builtins__": __builtins__, "_FACTORY": _FACTORY,
                              "_set": object.__setattr__}  # fmt: skip
    for name in plan.names:
        if name in plan.factories:
            params.append(f"{name}=_FACTORY")
            values[f"_f_{name}"] = plan.factories[name]
            value = f"_f_{name}() if {name} is _FACTORY else {name}"
        elif name in plan.defaults:
            params.append(f"{name}=_d_{name}")
            values[f"_d_{name}"] = plan.defaults[name]
            value = name
        else:
            params.append(name)
            value = name
        body.append(f"_set(self, {name!r}, {value})" if frozen else f"self.{name} = {value}")
    if hasattr(cls, "__post_init__"):
        body.append("self.__post_init__()")
    source = f"def __init__({', '.join(params)}):\n" + "".join(
        f" {line}\n" for line in body or ["pass"]
    )
    exec(source, values)  # noqa: S102 - our own field names
    COMPILED.append(cls.__qualname__)
    init: Callable[..., None] = values["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    return init


def _deferred_init(cls: type, plan: _Plan, frozen: bool) -> Callable[..., None]:
    """An `__init__` that compiles the real one at the class's first construction and puts it
    in its place: a class never built costs no compilation (half of those a one-tool scan
    declares), and every later construction runs the compiled function itself."""

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        init = cls.__dict__["__init__"]
        if init is __init__:  # not compiled yet (a caller may hold this function: check)
            init = _make_init(cls, plan, frozen)
            setattr(cls, "__init__", init)  # noqa: B010
        init(self, *args, **kwargs)

    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    return __init__


def _key(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """The instance's field values as a tuple: what `dataclass` compares and hashes."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        one = attrgetter(names[0])
        return lambda self: (one(self),)
    return lambda self: ()


_repr_running: set[tuple[int, int]] = set()


def _repr(self: Any) -> str:
    key = (id(self), _thread.get_ident())
    if key in _repr_running:
        return "..."
    _repr_running.add(key)
    try:
        values = ", ".join(f"{n}={getattr(self, n)!r}" for n in self.__plain_fields__)
    finally:
        _repr_running.discard(key)
    return f"{self.__class__.__qualname__}({values})"


def _eq_and_hash(names: tuple[str, ...]) -> tuple[Callable[..., Any], Callable[[Any], int]]:
    """`__eq__` and `__hash__` over the field tuple: closures, compiled once for every class."""
    key = _key(names)

    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return key(self) == key(other)
        return NotImplemented

    def __hash__(self: Any) -> int:
        return hash(key(self))

    return __eq__, __hash__


def _frozen_error(verb: str, name: str) -> AttributeError:
    from dataclasses import FrozenInstanceError  # the type dataclass raised; only when raised

    return FrozenInstanceError(f"cannot {verb} field {name!r}")


def _frozen(cls: type[Any], names: tuple[str, ...]) -> None:
    def __setattr__(self: object, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise _frozen_error("assign to", name)
        super(cls, self).__setattr__(name, value)

    def __delattr__(self: object, name: str) -> None:
        if type(self) is cls or name in names:
            raise _frozen_error("delete", name)
        super(cls, self).__delattr__(name)

    for method in (__setattr__, __delattr__):
        if method.__name__ in cls.__dict__:
            raise TypeError(f"cannot overwrite attribute {method.__name__} in class {cls.__name__}")
        method.__qualname__ = f"{cls.__qualname__}.{method.__name__}"
        setattr(cls, method.__name__, method)


def _getstate(self: Any) -> list[Any]:
    return [getattr(self, n) for n in self.__plain_fields__]


def _setstate(self: Any, state: list[Any]) -> None:
    for name, value in zip(self.__plain_fields__, state, strict=True):
        object.__setattr__(self, name, value)


def _with_slots(cls: type, names: tuple[str, ...], frozen: bool) -> type:
    """`cls` rebuilt with `__slots__` (what `dataclass(slots=True)` does)."""
    namespace = dict(cls.__dict__)
    if "__slots__" in namespace:
        raise TypeError(f"{cls.__name__} already specifies __slots__")
    inherited = {n for base in cls.__mro__[1:-1] for n in base.__dict__.get("__slots__", ())}
    namespace["__slots__"] = tuple(n for n in names if n not in inherited)
    for name in (*names, "__dict__", "__weakref__"):
        namespace.pop(name, None)
    if frozen:
        namespace.setdefault("__getstate__", _getstate)
        namespace.setdefault("__setstate__", _setstate)
    rebuilt = type(cls)(cls.__name__, cls.__bases__, namespace)
    rebuilt.__qualname__ = cls.__qualname__
    return rebuilt


def _process(cls: type[_T], frozen: bool, eq: bool, slots: bool) -> type[_T]:
    plan = _Plan(cls, frozen)
    names = tuple(plan.names)
    if slots:
        cls = _with_slots(cls, names, frozen)
    own = dict(cls.__dict__)  # what the class body wrote is kept, as `dataclass` keeps it
    body_hash = own.get("__hash__", _NO_DEFAULT)
    explicit_hash = not (body_hash is _NO_DEFAULT or (body_hash is None and "__eq__" in own))
    setattr(cls, "__plain_fields__", names)  # noqa: B010 - a name mypy does not know
    setattr(cls, "__plain_plan__", plan)  # noqa: B010 - what a subclass inherits
    if "__init__" not in own:
        setattr(cls, "__init__", _deferred_init(cls, plan, frozen))  # noqa: B010
    if "__repr__" not in own:
        setattr(cls, "__repr__", _repr)  # noqa: B010
    if eq:
        eq_fn, hash_fn = _eq_and_hash(names)
        if "__eq__" not in own:
            setattr(cls, "__eq__", eq_fn)  # noqa: B010
        if not explicit_hash:
            setattr(cls, "__hash__", hash_fn if frozen else None)  # noqa: B010
    if frozen:
        _frozen(cls, names)
    if "__match_args__" not in own:
        setattr(cls, "__match_args__", names)  # noqa: B010
    return cls


@overload
def plainclass(cls: type[_T], /) -> type[_T]: ...


@overload
def plainclass(
    *, frozen: bool = False, eq: bool = True, slots: bool = False
) -> Callable[[type[_T]], type[_T]]: ...


@dataclass_transform(field_specifiers=(field,))
def plainclass(
    cls: type[_T] | None = None, /, *, frozen: bool = False, eq: bool = True, slots: bool = False
) -> type[_T] | Callable[[type[_T]], type[_T]]:
    """`@dataclass` with the same arguments, for the subset described in the module docstring."""
    if cls is None:
        return lambda c: _process(c, frozen, eq, slots)
    return _process(cls, frozen, eq, slots)


def fields_of(cls_or_instance: Any) -> tuple[str, ...]:
    """The field names of a `@plainclass` class or instance, in declaration order."""
    names: tuple[str, ...] = cls_or_instance.__plain_fields__
    return names


def replace(obj: _T, /, **changes: Any) -> _T:
    """A new instance with some fields changed, built through `__init__` (`dataclasses.replace`).
    An instance of a real dataclass (the classes left as dataclasses) goes to
    `dataclasses.replace`, so one `replace` serves both kinds."""
    if not hasattr(type(obj), "__plain_fields__"):
        import dataclasses  # only for a class that is still a dataclass

        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
    for name in fields_of(obj):
        if name not in changes:
            changes[name] = getattr(obj, name)
    return type(obj)(**changes)
