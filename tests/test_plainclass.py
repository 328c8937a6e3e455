"""`@plainclass` behaves as the `@dataclass` it replaces, for the subset the project uses: each
test builds the same class both ways and compares them. Work is counted, never timed: one
compiled `__init__` per class, nothing else compiled."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from functools import cached_property
from typing import Any, ClassVar

import pytest

from toolwitness import plainclass as pc
from toolwitness.plainclass import field, fields_of, plainclass, replace


def _plain_and_dataclass(**options: bool) -> tuple[type, type]:
    def body() -> type:
        class Point:
            x: int
            label: str = "p"
            tags: tuple[str, ...] = ()
            scale: ClassVar[int] = 10

        Point.__qualname__ = "Point"  # repr shows the qualname
        return Point

    return plainclass(**options)(body()), dataclasses.dataclass(**options)(body())


@pytest.mark.parametrize("options", [{"frozen": True}, {}, {"slots": True}, {"eq": False}])
def test_construction_repr_and_equality_match_dataclass(options: dict[str, bool]) -> None:
    plain, real = _plain_and_dataclass(**options)
    for args, kwargs in (((1,), {}), ((1, "q"), {}), ((), {"x": 2, "tags": ("a",)}),
                         ((3,), {"label": "z"})):  # fmt: skip
        a, b = plain(*args, **kwargs), real(*args, **kwargs)
        assert repr(a) == repr(b) == f"Point(x={a.x}, label={a.label!r}, tags={a.tags!r})"
        assert (a == plain(*args, **kwargs)) == (b == real(*args, **kwargs))
        assert (a != plain(99)) and (b != real(99))
        assert a.__eq__(b) is NotImplemented or not options.get("eq", True)
    assert plain.__match_args__ == real.__match_args__ == ("x", "label", "tags")
    if not options.get("slots"):  # a default is a class attribute, as in dataclass
        assert plain.label == real.label == "p"
    assert plain.scale == real.scale == 10
    assert fields_of(plain) == ("x", "label", "tags")
    match plain(4, "m"):
        case plain(x, label):
            assert (x, label) == (4, "m")
        case _:
            pytest.fail("no match")
    with pytest.raises(TypeError, match=r"missing 1 required positional argument: 'x'"):
        plain()
    with pytest.raises(TypeError, match="unexpected keyword argument 'scale'"):
        plain(1, scale=2)  # a ClassVar is no field


def test_hashing_follows_dataclass_rules() -> None:
    frozen, frozen_dc = _plain_and_dataclass(frozen=True)
    assert hash(frozen(1, "a", ("t",))) == hash(frozen_dc(1, "a", ("t",))) == hash((1, "a", ("t",)))
    assert len({frozen(1), frozen(1), frozen(2)}) == 2
    mutable, mutable_dc = _plain_and_dataclass()
    assert mutable.__hash__ is None and mutable_dc.__hash__ is None  # eq without frozen
    identity, _ = _plain_and_dataclass(frozen=True, eq=False)
    one = identity(1)
    assert one != identity(1) and [one].count(one) == 1 and hash(one) == object.__hash__(one)

    @plainclass(frozen=True)
    class Single:
        value: str

    @plainclass(frozen=True)
    class Empty:
        pass

    assert hash(Single("v")) == hash(("v",)) and Single("v") == Single("v") != Single("w")
    assert hash(Empty()) == hash(()) and Empty() == Empty()

    @plainclass(frozen=True)
    class Own:
        value: int

        def __hash__(self) -> int:
            return 7

    assert hash(Own(1)) == 7  # a method of the class body is kept


def test_frozen_assignment_raises_what_dataclass_raises() -> None:
    plain, real = _plain_and_dataclass(frozen=True)
    for instance in (plain(1), real(1)):
        with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'x'"):
            instance.x = 2  # type: ignore[misc]
        with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'y'"):
            instance.y = 2  # type: ignore[attr-defined]
        with pytest.raises(dataclasses.FrozenInstanceError, match="cannot delete field 'x'"):
            del instance.x  # type: ignore[misc]
    mutable, _ = _plain_and_dataclass()
    point = mutable(1)
    point.x = 5
    assert point.x == 5


def test_default_factory_gives_each_instance_its_own_object() -> None:
    @plainclass
    class Bag:
        items: list[int] = field(default_factory=list)
        names: dict[str, int] = field(default_factory=dict)
        limit: int = field(default=3)

    a, b = Bag(), Bag()
    a.items.append(1)
    assert b.items == [] and a.items is not b.items and a.names is not b.names
    assert Bag(items=[7]).items == [7] and Bag().limit == 3 and Bag.limit == 3
    assert "items" not in vars(Bag)  # the factory is no class attribute (as in dataclass)


def test_post_init_runs_after_the_fields_are_set() -> None:
    @plainclass
    class Index:
        values: list[int]
        starts: list[int] = field(default_factory=list)

        def __post_init__(self) -> None:
            self.starts = [v * 2 for v in self.values]

    assert Index([1, 2]).starts == [2, 4]


def test_slots() -> None:
    plain, real = _plain_and_dataclass(slots=True)
    assert plain.__slots__ == real.__slots__ == ("x", "label", "tags")
    point = plain(1)
    assert not hasattr(point, "__dict__")
    with pytest.raises(AttributeError):
        point.other = 1  # type: ignore[attr-defined]
    assert plain.__qualname__ == real.__qualname__
    assert type(vars(plain)["label"]) is type(vars(real)["label"])  # a slot, not the default
    frozen_slots, _ = _plain_and_dataclass(frozen=True, slots=True)
    assert not hasattr(frozen_slots(1), "__dict__")
    with pytest.raises(TypeError, match="already specifies __slots__"):

        @plainclass(slots=True)
        class Twice:
            __slots__ = ("a",)
            a: int


@pytest.mark.parametrize("options", [{"frozen": True}, {}, {"slots": True},
                                     {"frozen": True, "slots": True}])  # fmt: skip
def test_pickling_and_copying(options: dict[str, bool]) -> None:
    cls = globals()["_MODULE_LEVEL"][tuple(sorted(options))]
    point = cls(1, "a", ("t",))
    for clone in (pickle.loads(pickle.dumps(point)), copy.copy(point), copy.deepcopy(point)):
        assert clone == point and type(clone) is cls and clone is not point


def test_replace_builds_a_new_instance_through_init() -> None:
    plain, real = _plain_and_dataclass(frozen=True)
    a, b = plain(1, "a"), real(1, "a")
    changed = repr(replace(a, x=2))
    assert changed == repr(dataclasses.replace(b, x=2)) == "Point(x=2, label='a', tags=())"
    assert replace(a) == a and replace(a) is not a
    with pytest.raises(TypeError, match="unexpected keyword argument 'nope'"):
        replace(a, nope=1)


def test_cached_property_works_on_a_frozen_class() -> None:
    @plainclass(frozen=True)
    class Roles:
        signals: tuple[str, ...]

        @cached_property
        def count(self) -> int:
            return len(self.signals)

    roles = Roles(("a", "b"))
    assert roles.count == 2 and vars(roles) == {"signals": ("a", "b"), "count": 2}


def test_declarations_dataclass_refuses_are_refused() -> None:
    with pytest.raises(ValueError, match="mutable default <class 'list'> for field items"):

        @plainclass
        class Shared:
            items: list[int] = []  # noqa: RUF012

    with pytest.raises(TypeError, match="non-default argument 'b' follows default argument"):

        @plainclass
        class Order:
            a: int = 1
            b: int  # type: ignore[misc]

    with pytest.raises(ValueError, match="both default and default_factory"):
        field(default=1, default_factory=int)  # type: ignore[call-overload]
    with pytest.raises(TypeError, match="reserves"):

        @plainclass
        class Clash:
            _set: int


def test_a_subclass_inherits_the_fields_as_dataclass_orders_them() -> None:
    def family(deco: Any) -> tuple[type, type]:
        @deco
        class Base:
            rule: str
            note: str = ""
            tool: str | None = None

        @deco
        class Sub(Base):
            fingerprints: frozenset[str] = frozenset()
            note: str = "kept in place"  # a redeclared field keeps its place

        return Base, Sub

    (_, plain), (_, real) = (
        family(plainclass(frozen=True)),
        family(dataclasses.dataclass(frozen=True)),
    )
    a, b = plain("r", fingerprints=frozenset("x")), real("r", fingerprints=frozenset("x"))
    assert repr(a) == repr(b)
    shown = "Sub(rule='r', note='kept in place', tool=None, fingerprints=frozenset({'x'}))"
    assert repr(a).endswith(f".<locals>.{shown}")
    assert hash(a) == hash(b) and fields_of(a) == ("rule", "note", "tool", "fingerprints")
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.rule = "s"
    with pytest.raises(TypeError, match="frozen and mutable"):
        plainclass(type("Loose", (plain,), {"__annotations__": {"extra": "int"}, "extra": 0}))
    with pytest.raises(TypeError, match="non-default argument 'late' follows default argument"):
        plainclass(frozen=True)(type("Late", (plain,), {"__annotations__": {"late": "int"}}))

    @plainclass(slots=True)
    class Slotted:
        a: int

    @plainclass(slots=True)
    class More(Slotted):
        b: int = 0

    assert More.__slots__ == ("b",) and repr(More(1, 2)).endswith("More(a=1, b=2)")


def test_one_compiled_function_per_class_at_its_first_construction() -> None:
    before = len(pc.COMPILED)

    @plainclass(frozen=True)
    class Wide:
        a: int
        b: int = 0
        c: int = 0
        d: list[int] = field(default_factory=list)

    @plainclass
    class NeverBuilt:
        a: int

    assert pc.COMPILED[before:] == []  # declaring compiles nothing
    held = Wide.__init__  # the deferred one
    first = Wide(1)
    assert Wide.__init__ is not held and pc.COMPILED[before:] == [Wide.__qualname__]
    Wide(2, 3), Wide(b=1, a=0), Wide.__eq__(first, Wide(1)), hash(Wide(1, d=()))  # type: ignore[arg-type]
    later = object.__new__(Wide)
    held(later, 5, d=[1])  # a caller holding the deferred function gets the compiled one
    assert later == Wide(5, 0, 0, [1]) and repr(later) == repr(Wide(5, d=[1]))
    assert pc.COMPILED[before:] == [Wide.__qualname__]
    assert NeverBuilt.__qualname__ not in pc.COMPILED


def _module_level() -> dict[tuple[str, ...], type]:
    """Classes a pickle can find by name (one per option set)."""
    made = {}
    for options in ({"frozen": True}, {}, {"slots": True}, {"frozen": True, "slots": True}):
        name = "Pickled_" + "_".join(sorted(options)) if options else "Pickled"
        namespace = {"__annotations__": {"x": "int", "label": "str", "tags": "tuple[str, ...]"},
                     "label": "p", "tags": (), "__module__": __name__, "__qualname__": name}  # fmt: skip
        cls = plainclass(**options)(type(name, (), namespace))
        globals()[name] = cls
        made[tuple(sorted(options))] = cls
    return made


_MODULE_LEVEL = _module_level()


def test_replace_serves_a_class_still_declared_as_a_dataclass() -> None:
    """`code` modules replace fields of both kinds of class with one `replace`."""
    import dataclasses

    from toolwitness.plainclass import replace

    @dataclasses.dataclass(frozen=True)
    class Still:
        a: int
        b: str = "x"

    assert replace(Still(1), b="y") == Still(1, "y")
