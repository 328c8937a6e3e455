"""The surface of an MCP server: the one object every stage consumes.

Models are frozen: stages never mutate the surface or each other's output. Strings are kept
exactly as received (evidence); analysis runs on NFC copies produced by `textnorm.nfc`.
"""

from __future__ import annotations

from collections.abc import Iterator
from enum import StrEnum
from typing import Any, Literal, NamedTuple

from toolwitness import paths
from toolwitness.records import Record, field

JsonObject = dict[str, Any]

# The four hints a client uses to decide whether a human is asked before a call.
POLICY_HINTS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")


class Coverage(StrEnum):
    """How a surface was acquired; a finding's strength depends on it."""

    MANIFEST = "manifest"
    LIVE = "live"
    PACKAGE = "package"
    SOURCE = "source"
    LAB = "lab"
    CONFIG = "config"  # only the client-config entry was read; nothing was run or listed


class _Frozen(Record):
    """Frozen; built by field name or wire alias; unknown fields refused."""


class TextField(NamedTuple):
    """One string of attacker-controlled text and where it sits (a JSON path in the surface).

    A named tuple, not a model or a frozen dataclass: checks build one per string of every tool
    on every scan, and nothing here needs validation (the surface it comes from was validated)."""

    location: str
    text: str
    kind: str  # name | title | description | schema-key | schema-text | instructions | ...


# `TextField(a, b, c)` without the named tuple's Python `__new__` (the walks below make one per
# string of every tool, for several checks)
_text_field = tuple.__new__


class SchemaFault(_Frozen):
    """What the wire held where MCP requires an `inputSchema` object: nothing, or another value.

    Real servers ship such tools; they are analysed (with an empty object schema) and reported,
    and the original value is kept so snapshots and digests still show what was sent."""

    kind: Literal["absent", "not-object"]
    value: Any = None  # the non-object value, for "not-object"


class Tool(_Frozen):
    name: str
    title: str | None = None
    description: str | None = None
    input_schema: JsonObject = field(alias="inputSchema")  # {} when `input_schema_fault` is set
    input_schema_fault: SchemaFault | None = None
    output_schema: JsonObject | None = field(default=None, alias="outputSchema")
    annotations: JsonObject | None = None
    meta: JsonObject | None = field(default=None, alias="_meta")
    icons: list[Any] | None = None
    extra: JsonObject = field(default_factory=dict)

    def hint(self, name: str) -> bool | None:
        """A policy hint as a client reads it: True/False when set, None when absent."""
        if not self.annotations:
            return None
        value = self.annotations.get(name)
        return value if isinstance(value, bool) else None

    def wire_input_schema(self) -> Any:
        """`inputSchema` as the wire had it: the object, another value, or None when absent."""
        fault = self.input_schema_fault
        if fault is None:
            return self.input_schema
        return fault.value if fault.kind == "not-object" else None

    def wire(self) -> JsonObject:
        """The tool in MCP wire names, absent fields omitted (what digests and snapshots use)."""
        out: JsonObject = {"name": self.name}
        fault = self.input_schema_fault
        if fault is None or fault.kind == "not-object":
            out["inputSchema"] = self.wire_input_schema()
        for key, value in (
            ("title", self.title),
            ("description", self.description),
            ("outputSchema", self.output_schema),
            ("annotations", self.annotations),
            ("_meta", self.meta),
            ("icons", self.icons),
        ):
            if value is not None:
                out[key] = value
        return out


class PromptArgument(_Frozen):
    name: str
    title: str | None = None
    description: str | None = None
    required: bool | None = None
    extra: JsonObject = field(default_factory=dict)  # every other wire field (_meta, vendor keys)


class Prompt(_Frozen):
    name: str
    title: str | None = None
    description: str | None = None
    arguments: tuple[PromptArgument, ...] = ()
    extra: JsonObject = field(default_factory=dict)  # every other wire field (_meta, icons, …)


class Resource(_Frozen):
    uri: str
    name: str | None = None
    title: str | None = None
    description: str | None = None
    mime_type: str | None = field(default=None, alias="mimeType")
    extra: JsonObject = field(default_factory=dict)  # every other wire field (_meta, size, …)


class ResourceTemplate(_Frozen):
    uri_template: str = field(alias="uriTemplate")
    name: str | None = None
    title: str | None = None
    description: str | None = None
    mime_type: str | None = field(default=None, alias="mimeType")
    extra: JsonObject = field(default_factory=dict)  # every other wire field


class Transport(_Frozen):
    """How the server is reached. `env` and `headers` may hold secrets: reports redact them."""

    kind: str  # stdio | http | sse | file
    command: str | None = None
    args: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)
    cwd: str | None = None
    url: str | None = None
    headers: dict[str, str] = field(default_factory=dict)


class PackageRef(_Frozen):
    ecosystem: str  # npm | pypi | docker
    name: str
    version: str | None = None
    spec: str | None = None  # the launch spec a config gave; None for a catalog's own statement
    dependencies: tuple[str, ...] | None = None  # names a catalog's packageMeta states


class ServerSpec(_Frozen):
    """One server entry from a client config (or the command line), before anything runs."""

    name: str  # the key the client config gives it
    transport: Transport
    client: str | None = None  # claude-desktop | claude-code | cursor | vscode | windsurf | ...
    origin: str | None = None  # the config file (and JSON path) it was read from
    package: PackageRef | None = None  # parsed from npx/uvx/pipx/docker arguments, when any
    enabled: bool = True  # False when the config switches the entry off (`disabled: true`)


class ServerSurface(_Frozen):
    id: str
    source: str | None = None
    server_info: JsonObject | None = field(default=None, alias="serverInfo")
    protocol_version: str | None = field(default=None, alias="protocolVersion")
    capabilities: JsonObject | None = None
    instructions: str | None = None
    tools: tuple[Tool, ...] = ()
    prompts: tuple[Prompt, ...] = ()
    resources: tuple[Resource, ...] = ()
    resource_templates: tuple[ResourceTemplate, ...] = field(default=(), alias="resourceTemplates")
    transport: Transport | None = None
    package: PackageRef | None = None
    source_root: str | None = None
    coverage: tuple[Coverage, ...] = (Coverage.MANIFEST,)
    notes: tuple[str, ...] = ()  # acquisition facts a reader needs (e.g. an unfinished page chain)

    def tool(self, name: str) -> Tool | None:
        for tool in self.tools:
            if tool.name == name:
                return tool
        return None

    def is_empty(self) -> bool:
        return not (self.tools or self.prompts or self.resources or self.resource_templates)


_NAME_KEYS = frozenset(
    {"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"}
)
# Keys a client shows the model only as structure: the JSON Schema vocabulary (2020-12 and
# draft-07) and the MCP fields. Any other key inside a tool is text someone chose, and is read.
_KNOWN_KEYS = frozenset(
    {
        "$schema", "$id", "$ref", "$anchor", "$dynamicRef", "$dynamicAnchor", "$vocabulary",
        "$comment", "$defs", "definitions", "type", "enum", "const", "properties",
        "patternProperties", "additionalProperties", "unevaluatedProperties", "propertyNames",
        "required", "dependentRequired", "dependentSchemas", "dependencies", "items",
        "prefixItems", "additionalItems", "unevaluatedItems", "contains", "minContains",
        "maxContains", "minItems", "maxItems", "uniqueItems", "minLength", "maxLength",
        "pattern", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
        "multipleOf", "minProperties", "maxProperties", "allOf", "anyOf", "oneOf", "not", "if",
        "then", "else", "title", "description", "default", "examples", "example", "readOnly",
        "writeOnly", "deprecated", "contentEncoding", "contentMediaType", "contentSchema",
        "nullable",
        # MCP tool, annotation, icon and execution fields
        "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint", "src", "mimeType",
        "sizes", "theme", "taskSupport",
    }
)  # fmt: skip
_WORDLIKE_KEY = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.$/@:")


def key_kind(key: str) -> str:
    """How a key chosen by the server is read: an identifier ("key"), or text when it holds
    anything but identifier characters (a sentence written as a key)."""
    return "key" if key and set(key) <= _WORDLIKE_KEY else "key-text"


def schema_text_fields(schema: Any, location: str) -> Iterator[TextField]:
    """Every string inside a JSON Schema: property names, descriptions, titles, enums, defaults,
    examples, `$comment`, nested schemas at any depth, and every key outside the vocabulary."""
    out: list[TextField] = []
    _walk_schema(schema, location, False, out)
    return iter(out)


def _walk_schema(node: Any, loc: str, keys_are_names: bool, out: list[TextField]) -> None:
    """Depth first, children last to first (the order findings have always been reported in).
    Recursion is safe: schemas are depth-bounded where surfaces are built (64 levels for loaded
    JSON, 24 for schemas read from code)."""
    if isinstance(node, str):
        out.append(_text_field(TextField, (loc, node, "schema-text")))
    elif isinstance(node, dict):
        children = []
        for key, value in node.items():
            # paths.child inlined: identifier keys are by far the common case
            child = f"{loc}.{key}" if loc and key.isidentifier() and key.isascii() else (
                paths.child(loc, key)
            )  # fmt: skip
            if keys_are_names:
                out.append(_text_field(TextField, (child, key, "schema-key")))
            elif key not in _KNOWN_KEYS:
                out.append(_text_field(TextField, (child, key, key_kind(key))))
            if isinstance(value, _WALKED):  # a number, a boolean or null holds no text
                children.append((value, child, key in _NAME_KEYS and isinstance(value, dict)))
        for value, child, names in reversed(children):
            if isinstance(value, str):  # a leaf, without a call of its own
                out.append(_text_field(TextField, (child, value, "schema-text")))
            else:
                _walk_schema(value, child, names, out)
    elif isinstance(node, list):
        for index in range(len(node) - 1, -1, -1):
            item = node[index]
            if isinstance(item, str):
                out.append(_text_field(TextField, (f"{loc}[{index}]", item, "schema-text")))
            elif isinstance(item, _WALKED):
                _walk_schema(item, f"{loc}[{index}]", False, out)


_WALKED = (str, dict, list)  # what `_walk_schema` reads; it passes over any other value


def _walk_value(node: Any, loc: str, kind: str, out: list[TextField]) -> None:
    """Every string and every key outside the known vocabulary of a non-schema value
    (annotations, `_meta`, icons, execution, vendor fields), in document order."""
    if isinstance(node, str):
        out.append(_text_field(TextField, (loc, node, kind)))
    elif isinstance(node, dict):
        for key, value in node.items():
            child = paths.child(loc, key)
            if key not in _KNOWN_KEYS:
                out.append(_text_field(TextField, (child, key, key_kind(key))))
            _walk_value(value, child, kind, out)
    elif isinstance(node, list):
        for index, value in enumerate(node):
            _walk_value(value, f"{loc}[{index}]", kind, out)


def tool_text_fields(tool: Tool, index: int) -> Iterator[TextField]:
    """Every string a client can show the model from one tool, with its JSON path: name, title,
    description, every annotation (custom keys too), `_meta`, icons, unknown top-level fields
    (`execution`, vendor keys), and every string of both schemas."""
    base = f"tools[{index}]"
    out = [TextField(f"{base}.name", tool.name, "name")]
    if tool.title is not None:
        out.append(TextField(f"{base}.title", tool.title, "title"))
    if tool.description is not None:
        out.append(TextField(f"{base}.description", tool.description, "description"))
    if tool.annotations:
        where = f"{base}.annotations"
        for key, value in tool.annotations.items():
            child = paths.child(where, key)
            if key == "title" and isinstance(value, str):
                out.append(TextField(child, value, "title"))
                continue
            if key not in _KNOWN_KEYS:
                out.append(_text_field(TextField, (child, key, key_kind(key))))
            _walk_value(value, child, "annotation", out)
    if tool.meta:
        _walk_value(tool.meta, f"{base}._meta", "meta", out)
    if tool.icons:
        _walk_value(tool.icons, f"{base}.icons", "icon", out)
    if tool.extra:
        _walk_value(tool.extra, base, "extra", out)
    if tool.input_schema_fault is not None and tool.input_schema_fault.kind == "not-object":
        _walk_value(tool.input_schema_fault.value, f"{base}.inputSchema", "schema-text", out)
    _walk_schema(tool.input_schema, f"{base}.inputSchema", False, out)
    if tool.output_schema is not None:
        _walk_schema(tool.output_schema, f"{base}.outputSchema", False, out)
    return iter(out)


def has_unhashed_text(tool: Tool) -> bool:
    """Whether the tool holds text outside the hashed fields (`_meta`, icons, vendor fields, a
    non-object inputSchema): fast paths proved on the hashed fields alone must not skip it."""
    fault = tool.input_schema_fault
    return bool(tool.meta or tool.icons or tool.extra) or (
        fault is not None and fault.kind == "not-object"
    )


def unhashed_text_fields(tool: Tool, index: int) -> Iterator[TextField]:
    """The fields of `tool_text_fields` that come from outside the hashed fields."""
    base = f"tools[{index}]"
    out: list[TextField] = []
    if tool.meta:
        _walk_value(tool.meta, f"{base}._meta", "meta", out)
    if tool.icons:
        _walk_value(tool.icons, f"{base}.icons", "icon", out)
    if tool.extra:
        _walk_value(tool.extra, base, "extra", out)
    if tool.input_schema_fault is not None and tool.input_schema_fault.kind == "not-object":
        _walk_value(tool.input_schema_fault.value, f"{base}.inputSchema", "schema-text", out)
    return iter(out)


def _named_text(base: str, item: Prompt | PromptArgument | Resource | ResourceTemplate,
                out: list[TextField]) -> None:  # fmt: skip
    for attr in ("name", "title", "description"):
        value = getattr(item, attr)
        if value is not None:
            out.append(TextField(f"{base}.{attr}", value, attr))
    if item.extra:
        _walk_value(item.extra, base, "extra", out)


def surface_text_fields(surface: ServerSurface) -> Iterator[TextField]:
    """Text a client shows the model that is not tied to one tool: server instructions, and every
    string of prompts (and their arguments), resources and resource templates."""
    out: list[TextField] = []
    if surface.instructions is not None:
        out.append(TextField("instructions", surface.instructions, "instructions"))
    for i, prompt in enumerate(surface.prompts):
        base = f"prompts[{i}]"
        _named_text(base, prompt, out)
        for j, arg in enumerate(prompt.arguments):
            _named_text(f"{base}.arguments[{j}]", arg, out)
    for i, resource in enumerate(surface.resources):
        base = f"resources[{i}]"
        out.append(TextField(f"{base}.uri", resource.uri, "uri"))
        _named_text(base, resource, out)
    for i, template in enumerate(surface.resource_templates):
        base = f"resourceTemplates[{i}]"
        out.append(TextField(f"{base}.uriTemplate", template.uri_template, "uri"))
        _named_text(base, template, out)
    return iter(out)
