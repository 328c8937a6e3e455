"""The capability sink catalog: which library calls reach which lattice leaves.

The catalog is data (`data/sinks/*.yaml`, one file per ecosystem, validated by
`data/sinks.schema.json`); this module loads it and answers `lookup(language, module, name)`.
Naming conventions (docs/sinks.md):

- `module` is the import specifier, normalised (`node:fs` → `fs`); None for globals/builtins;
- the qualified name is the member path under the module: `writeFile`, `promises.writeFile`,
  `Client#query` for the `query` method of instances of `Client`, `*` for any one member;
- JavaScript: `default.x` and `x` name the same member (a CommonJS module object is the ESM
  default export); a module alias maps `fs/promises` onto `fs` + `promises.`;
- Python: the module and the name join into one dotted path, so `("os", "path.exists")` and
  `("os.path", "exists")` are the same sink.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from toolwitness.code.argrules import (
    RULE_DOMAIN,
    classify_open_mode,
    classify_shell_option,
    refine_leaves,
)
from toolwitness.code.sqltext import classify_sql
from toolwitness.datafiles import data_files
from toolwitness.errors import InputError
from toolwitness.plainclass import plainclass
from toolwitness.yamlload import is_yaml_error, load_yaml, parse_yaml

__all__ = [
    "Sink",
    "SinkCatalog",
    "classify_open_mode",
    "classify_shell_option",
    "classify_sql",
    "load_sink_catalog",
    "normalise_module",
    "parse_catalog_file",
    "refine_leaves",
]

_MAX_FILE_CHARS = 2 * 1024 * 1024
LEAVES = frozenset(
    {
        "READ_FS", "READ_DB", "WRITE_FS", "WRITE_DB", "EXEC_PROCESS", "EXEC_SHELL", "EXEC_EVAL",
        "NETWORK_OUTBOUND", "ENV",
    }
)  # fmt: skip
_RULES = {None, *RULE_DOMAIN}
_INDEX_SUFFIXES = ("/index.js", "/index.mjs", "/index.cjs", "/index.ts", "/index")


@plainclass(frozen=True)
class Sink:
    language: str  # js | py
    module: str | None
    name: str
    leaves: frozenset[str]
    arg_rule: str | None
    note: str


@plainclass(frozen=True)
class _Alias:
    target: str | None
    prefix: str | None


def normalise_module(spec: str) -> str:
    """An import specifier in catalog form: no `node:` prefix, no trailing `/index`, no `/`."""
    spec = spec.strip()
    spec = spec.removeprefix("node:")
    for suffix in _INDEX_SUFFIXES:
        if spec.endswith(suffix) and len(spec) > len(suffix):
            spec = spec[: -len(suffix)]
            break
    return spec.rstrip("/") or spec


def _segments(name: str) -> list[str]:
    """`a.b#c` → ['a', '.', 'b', '#', 'c'] (separators kept: `.x` and `#x` differ)."""
    parts: list[str] = []
    start = 0
    for i, ch in enumerate(name):
        if ch in ".#":
            parts += [name[start:i], ch]
            start = i + 1
    parts.append(name[start:])
    return parts


class SinkCatalog:
    """Sinks keyed by canonical (language, module, name); wildcards matched segment-wise."""

    def __init__(
        self,
        sinks: Iterable[Sink],
        aliases: dict[tuple[str, str], _Alias] | None = None,
        factories: dict[tuple[str, str | None, str], tuple[str | None, str]] | None = None,
        passthrough: Iterable[tuple[str, str | None, str]] = (),
        builtin_modules: frozenset[tuple[str, str]] = frozenset(),
    ) -> None:
        self._builtins = builtin_modules
        self._aliases = dict(aliases or {})
        self._py_aliases = sorted(
            ((m, a) for (lang, m), a in self._aliases.items() if lang == "py"),
            key=lambda item: -len(item[0]),  # the longest module prefix wins
        )
        self._memo: dict[tuple[str, str | None, str], tuple[str, str | None, str]] = {}
        self._entries: list[Sink] = []
        self._exact: dict[tuple[str, str | None, str], Sink] = {}
        self._wild: dict[tuple[str, str | None], list[tuple[list[str], Sink]]] = {}
        for sink in sinks:
            key = self._canonical(sink.language, sink.module, sink.name)
            if key in self._exact or any(
                key[2] == "".join(p) for p, _ in self._wild.get(key[:2], [])
            ):
                raise InputError(
                    f"sink {sink.module}:{sink.name} ({sink.language}) is listed twice"
                )
            self._entries.append(sink)
            if "*" in _segments(key[2]):
                self._wild.setdefault(key[:2], []).append((_segments(key[2]), sink))
            else:
                self._exact[key] = sink
        for bucket in self._wild.values():  # most specific pattern first
            bucket.sort(key=lambda item: (item[0].count("*"), "".join(item[0])))
        self._factories = {
            self._canonical(lang, module, name): returns
            for (lang, module, name), returns in (factories or {}).items()
        }
        self._passthrough = frozenset(self._canonical(*key) for key in passthrough)
        self._js_modules: frozenset[str] | None = None
        self._py_modules: frozenset[str] | None = None

    def passes_through(self, language: str, module: str | None, qualified_name: str) -> bool:
        """A call of it returns (a wrapper of) its first argument (`util.promisify(exec)`)."""
        return self._canonical(language, module, qualified_name) in self._passthrough

    def entries(self) -> tuple[Sink, ...]:
        return tuple(self._entries)

    def knows_module(self, language: str, module: str) -> bool:
        """The catalog models this module (JavaScript: the import specifier or an alias of it;
        Python: the top-level package): its code is a library to map, not to follow."""
        if language == "py":
            top = module.split(".", 1)[0]
            if self._py_modules is None:
                self._py_modules = frozenset(
                    s.name.split(".", 1)[0] if s.module is None else s.module.split(".", 1)[0]
                    for s in self._entries
                    if s.language == "py"
                ) | frozenset(m.split(".", 1)[0] for m, _ in self._py_aliases)
            return top in self._py_modules
        if self._js_modules is None:
            self._js_modules = (
                frozenset(s.module for s in self._entries if s.language == "js" and s.module)
                | frozenset(m for (lang, m) in self._aliases if lang == "js")
                | frozenset(m for (lang, m) in self._builtins if lang == "js")
            )
        return normalise_module(module) in self._js_modules

    def __len__(self) -> int:
        return len(self._entries)

    def lookup(self, language: str, module: str | None, qualified_name: str) -> Sink | None:
        key = self._canonical(language, module, qualified_name)
        found = self._exact.get(key)
        if found is not None:
            return found
        wanted = _segments(key[2])
        for pattern, sink in self._wild.get(key[:2], []):
            if len(pattern) == len(wanted) and all(
                p in ("*", w) if i % 2 == 0 else p == w
                for i, (p, w) in enumerate(zip(pattern, wanted, strict=True))
            ):
                return sink
        return None

    def instance_type(
        self, language: str, module: str | None, qualified_name: str
    ) -> tuple[str | None, str] | None:
        """(module, class) of the value a factory call returns, when the catalog knows it."""
        return self._factories.get(self._canonical(language, module, qualified_name))

    def _canonical(
        self, language: str, module: str | None, name: str
    ) -> tuple[str, str | None, str]:
        query = (language, module, name)
        found = self._memo.get(query)
        if found is None:
            if len(self._memo) > 100_000:  # bounded: the analysed code chooses the names
                self._memo.clear()
            found = self._memo[query] = self._canonical_uncached(language, module, name)
        return found

    def _canonical_uncached(
        self, language: str, module: str | None, name: str
    ) -> tuple[str, str | None, str]:
        if language == "py":
            return self._canonical_py(module, name)
        if module is not None:
            module = normalise_module(module)
            alias = self._aliases.get((language, module))
            if alias is not None:
                module = alias.target
                name = f"{alias.prefix}.{name}" if alias.prefix else name
        if name.startswith("default.") or name.startswith("default#"):
            name = name[len("default.") :]
        return (language, module, name)

    def _canonical_py(self, module: str | None, name: str) -> tuple[str, str | None, str]:
        # Python: one dotted path, with aliased module prefixes rewritten (redis.asyncio → redis).
        full = f"{module}.{name}" if module else name
        for alias_module, alias in self._py_aliases:
            if full == alias_module or full.startswith(alias_module + "."):
                rest = full[len(alias_module) :]
                target = alias.target or ""
                full = (target + rest).lstrip(".")
                break
        return ("py", None, full)


def _schema() -> dict[str, Any]:
    text = data_files().joinpath("sinks.schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def parse_catalog_file(text: str, source: str, *, validate: bool = True) -> dict[str, Any]:
    """One catalog file, schema-validated; InputError names the file and the JSON path.

    `validate=False` is for the shipped files only: the test suite validates each of them
    against the schema, and the JSON Schema pass costs more than the rest of the load.
    """
    if len(text) > _MAX_FILE_CHARS:
        raise InputError("sink catalog file over 2 MiB", source=source)
    try:
        # a shipped file from its precompiled form (datacache: the same value, no PyYAML)
        doc = parse_yaml(text) if validate else load_yaml(text)
    except Exception as exc:
        if is_yaml_error(exc):
            raise InputError(f"not valid YAML: {exc}", source=source) from None
        raise
    if not validate:
        if not isinstance(doc, dict):
            raise InputError("a sink catalog file is a mapping", source=source)
        result: dict[str, Any] = doc
        return result
    import jsonschema  # a user's catalog file only

    validator = jsonschema.Draft202012Validator(_schema())
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
    if errors:
        first = errors[0]
        where = "$" + "".join(f"[{p!r}]" for p in first.absolute_path)
        raise InputError(f"invalid sink catalog: {first.message}", source=source, path=where)
    checked: dict[str, Any] = doc
    return checked


def build_catalog(docs: Iterable[dict[str, Any]]) -> SinkCatalog:
    sinks: list[Sink] = []
    aliases: dict[tuple[str, str], _Alias] = {}
    factories: dict[tuple[str, str | None, str], tuple[str | None, str]] = {}
    passthrough: list[tuple[str, str | None, str]] = []
    builtins: set[tuple[str, str]] = set()
    for doc in docs:
        lang = doc["language"]
        builtins.update((lang, normalise_module(m)) for m in doc.get("builtin_modules", []))
        for alias in doc.get("aliases", []):
            aliases[(lang, normalise_module(alias["module"]))] = _Alias(
                alias["target"], alias.get("prefix")
            )
        for group in doc.get("passthrough", []):
            passthrough += [(lang, group["module"], name) for name in group["names"]]
        for group in doc.get("factories", []):
            for name in group["names"]:
                factories[(lang, group["module"], name)] = (group["module"], group["returns"])
        for group in doc["sinks"]:
            leaves = frozenset(group["leaves"])
            if not leaves or not leaves <= LEAVES or group.get("arg_rule", None) not in _RULES:
                raise InputError(f"bad leaves or arg_rule in the group for {group['names']}")
            for name in group["names"]:
                sinks.append(
                    Sink(lang, group["module"], name, leaves, group.get("arg_rule"), group["note"])
                )
    return SinkCatalog(sinks, aliases, factories, passthrough, frozenset(builtins))


def builtin_catalog_files() -> list[tuple[str, str]]:
    """(file name, text) of every shipped catalog file, sorted by name."""
    folder = data_files().joinpath("sinks")
    return [
        (entry.name, entry.read_text("utf-8"))
        for entry in sorted(folder.iterdir(), key=lambda e: e.name)
        if entry.name.endswith(".yaml")
    ]


@lru_cache(maxsize=1)
def load_sink_catalog() -> SinkCatalog:
    """The shipped catalog (cached; the catalog is immutable)."""
    return build_catalog(
        parse_catalog_file(text, f"builtin:sinks/{name}", validate=False)
        for name, text in builtin_catalog_files()
    )
