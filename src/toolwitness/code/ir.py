"""The small intermediate representation both front-ends produce.

Values are symbolic and immutable: a `Name` is a name path read in a scope, resolved later across
files by `resolve.Resolver`. Functions record *uses* (calls and reads of name paths), the nested
functions they define (assumed reachable: callbacks, closures), their return values and their
dispatch branches (switch/if/match arms whose labels may be tool names).
"""

from __future__ import annotations

from toolwitness.plainclass import field, plainclass

COMPUTED = "*"  # a computed member (`obj[key]`) in a name path


@plainclass(frozen=True)
class Lit:
    value: str | int | float | bool | None


@plainclass(frozen=True)
class Name:
    path: tuple[str, ...]
    scope: str


@plainclass(frozen=True)
class FuncRef:
    func_id: str


@plainclass(frozen=True)
class ClassRef:
    class_id: str


@plainclass(frozen=True)
class Import:
    module: str  # the specifier as written ("./lib.js", "fs", ".server", "os.path")
    path: tuple[str, ...]  # member path inside it ("default",) / ("promises",) / ()
    from_file: str  # module key of the importing file (relative specifiers)
    level: int = 0  # Python relative-import level


@plainclass(frozen=True)
class Call:
    callee: Value
    args: tuple[Value, ...] = ()
    kwargs: tuple[tuple[str, Value], ...] = ()
    new: bool = False


@plainclass(frozen=True)
class Member:
    base: Value
    path: tuple[str, ...]


@plainclass(frozen=True)
class Obj:
    items: tuple[tuple[str, Value], ...]
    spreads: tuple[Value, ...] = ()


@plainclass(frozen=True)
class Arr:
    items: tuple[Value, ...]


@plainclass(frozen=True)
class Spread:
    value: Value


@plainclass(frozen=True)
class Concat:
    parts: tuple[Value, ...]


@plainclass(frozen=True)
class Choice:
    """One of several values, chosen at run time (`c ? a : b`, `a || b`, `a ?? b`, `a if c
    else b`): resolution takes every option; a tools list takes their union."""

    options: tuple[Value, ...]


@plainclass(frozen=True)
class Opaque:
    text: str


@plainclass(frozen=True)
class Injected:
    """What a dependency-injection container hands a constructor parameter decorated
    `@inject(token)` (`many`: `@injectAll`): everything registered under the token
    (code/injection.py)."""

    token: Value
    many: bool


Value = (
    Lit
    | Name
    | FuncRef
    | ClassRef
    | Import
    | Call
    | Member
    | Obj
    | Arr
    | Spread
    | Concat
    | Choice
    | Opaque
    | Injected
)


@plainclass(frozen=True)
class Use:
    """A call (or a read of a name path) at a source position."""

    target: Value
    line: int
    column: int
    symbol: str  # what the source says, for witnesses ("fs.writeFile")
    is_call: bool
    args: tuple[Value, ...] = ()
    kwargs: tuple[tuple[str, Value], ...] = ()


@plainclass(frozen=True)
class Branch:
    labels: tuple[Value, ...]  # the values compared against (case labels, `x === "a"` sides)
    func_id: str


@plainclass
class Function:
    id: str
    name: str
    file: str
    line: int
    column: int
    parent_scope: str
    params: tuple[str, ...] = ()
    uses: list[Use] = field(default_factory=list)
    children: list[str] = field(default_factory=list)
    branches: list[Branch] = field(default_factory=list)
    returns: list[Value] = field(default_factory=list)
    decorators: list[Value] = field(default_factory=list)
    applied_decorators: list[Value] = field(default_factory=list)  # as written, with arguments
    docstring: str | None = None


@plainclass
class ClassDef:
    id: str
    name: str
    file: str
    line: int
    scope: str
    bases: list[Value] = field(default_factory=list)
    methods: dict[str, str] = field(default_factory=dict)
    attrs: dict[str, list[Value]] = field(default_factory=dict)


@plainclass
class Scope:
    id: str
    parent: str | None
    bindings: dict[str, list[Value]] = field(default_factory=dict)

    def bind(self, name: str, value: Value) -> None:
        self.bindings.setdefault(name, []).append(value)


@plainclass(frozen=True)
class Registration:
    """A call or decorator that may register a tool; interpreted by `registrations`."""

    kind: str  # tool | registerTool | addTool | setRequestHandler | py-tool | add_tool | ...
    args: tuple[Value, ...]
    kwargs: tuple[tuple[str, Value], ...]
    scope: str
    file: str
    line: int
    column: int
    handler: Value | None = None
    docstring: str | None = None
    func_name: str | None = None
    callee: Value | None = None  # what is called (`server.registerTool`), when a call


@plainclass
class Module:
    key: str  # path relative to the project root, POSIX separators
    language: str  # js | py
    scopes: dict[str, Scope] = field(default_factory=dict)
    functions: dict[str, Function] = field(default_factory=dict)
    classes: dict[str, ClassDef] = field(default_factory=dict)
    exports: dict[str, list[Value]] = field(default_factory=dict)
    star_exports: list[Import] = field(default_factory=list)
    registrations: list[Registration] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    top: Function | None = None  # the module's own statements (calls made at import time)
    # A bundle's modules as its bundler names them (`// node_modules/pkg/x.js` in esbuild and
    # bun output): (first line, origin path), in order
    origins: list[tuple[int, str]] = field(default_factory=list)
    nodes: int = 0  # syntax nodes walked (the work the front-end did, bounded per file)

    def export(self, name: str, value: Value) -> None:
        self.exports.setdefault(name, []).append(value)
