"""Static catalogs: every JSON shape a tools list is found in, loaded to one `ServerSurface`.

Accepted shapes: one tool object; an array of tools; `{"tools": [...]}`; a JSON-RPC `tools/list`
response; a list of paged responses (or paged `result` objects); a full surface snapshot (the
format `toolwitness snapshot` writes). camelCase and snake_case spellings are both accepted; if
both are given with different values the input is rejected.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from toolwitness import paths
from toolwitness.acquire.hostile_json import parse_json_bytes
from toolwitness.acquire.limits import InputLimits
from toolwitness.acquire.package_meta import FIELD as PACKAGE_META
from toolwitness.acquire.package_meta import read_package_meta
from toolwitness.errors import InputError
from toolwitness.files import read_regular
from toolwitness.gcpause import gc_paused
from toolwitness.model import (
    POLICY_HINTS,
    Coverage,
    PackageRef,
    Prompt,
    PromptArgument,
    Resource,
    ResourceTemplate,
    SchemaFault,
    ServerSurface,
    Tool,
    Transport,
)

SNAPSHOT_SCHEMA = "toolwitness.surface/1"

_TOOL_KEYS = {
    "name": "name",
    "title": "title",
    "description": "description",
    "inputSchema": "input_schema",
    "outputSchema": "output_schema",
    "annotations": "annotations",
    "_meta": "meta",
    "icons": "icons",
}
# camelCase → the snake_case spelling a catalog may use instead (both are accepted; the SARIF
# writer uses this table to find a finding's key in the file as written).
SNAKE_SPELLINGS = {
    "inputSchema": "input_schema",
    "outputSchema": "output_schema",
    "readOnlyHint": "read_only_hint",
    "destructiveHint": "destructive_hint",
    "idempotentHint": "idempotent_hint",
    "openWorldHint": "open_world_hint",
    "serverInfo": "server_info",
    "protocolVersion": "protocol_version",
    "resourceTemplates": "resource_templates",
    "uriTemplate": "uri_template",
    "mimeType": "mime_type",
    "nextCursor": "next_cursor",
    "_meta": "meta",
}


class _Reader:
    """Reads one parsed document; every error names the source and the JSON path."""

    def __init__(self, source: str, limits: InputLimits) -> None:
        self.source = source
        self.limits = limits

    def fail(self, message: str, where: str) -> InputError:
        return InputError(message, source=self.source, path=where or "$")

    def unalias(self, obj: dict[str, Any], where: str) -> dict[str, Any]:
        """Fold snake_case spellings into camelCase; reject a conflicting pair."""
        out = dict(obj)
        for camel, snake in SNAKE_SPELLINGS.items():
            if snake in out:
                value = out.pop(snake)
                if camel in out and out[camel] != value:
                    raise self.fail(
                        f"both {camel!r} and {snake!r} given, with different values", where
                    )
                out[camel] = value
        return out

    def obj(self, value: Any, where: str, what: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(f"{what} must be an object, not {_kind(value)}", where)
        return value

    def opt_str(self, obj: dict[str, Any], key: str, where: str) -> str | None:
        value = obj.get(key)
        if value is None or isinstance(value, str):
            return value
        raise self.fail(f"{key!r} must be a string, not {_kind(value)}", paths.child(where, key))

    def req_str(self, obj: dict[str, Any], key: str, where: str) -> str:
        value = obj.get(key)
        if not isinstance(value, str) or not value:
            raise self.fail(f"{key!r} must be a non-empty string", paths.child(where, key))
        return value

    def opt_obj(self, obj: dict[str, Any], key: str, where: str) -> dict[str, Any] | None:
        value = obj.get(key)
        if value is None:
            return None
        return self.obj(value, paths.child(where, key), repr(key))

    def items(self, value: Any, where: str, what: str) -> list[Any]:
        if value is None:
            return []
        if not isinstance(value, list):
            raise self.fail(f"{what} must be an array, not {_kind(value)}", where)
        if len(value) > self.limits.max_items:
            raise self.fail(f"more than {self.limits.max_items} {what}", where)
        return value

    # --- tools -------------------------------------------------------------------------------
    def tool(self, value: Any, where: str) -> Tool:
        raw = self.unalias(self.obj(value, where, "a tool"), where)
        name = self.req_str(raw, "name", where)
        # A missing or non-object inputSchema is what some real servers ship: the tool is still
        # analysed (as taking no parameters) and TW-META-007 reports the fault.
        schema: dict[str, Any] = {}
        fault = None
        if "inputSchema" not in raw:
            fault = SchemaFault(kind="absent")
        elif isinstance(raw["inputSchema"], dict):
            schema = raw["inputSchema"]
        else:
            fault = SchemaFault(kind="not-object", value=raw["inputSchema"])
        icons = raw.get("icons")
        if icons is not None and not isinstance(icons, list):
            raise self.fail("'icons' must be an array", paths.child(where, "icons"))
        return Tool(
            name=name,
            title=self.opt_str(raw, "title", where),
            description=self.opt_str(raw, "description", where),
            inputSchema=schema,
            input_schema_fault=fault,
            outputSchema=self.opt_obj(raw, "outputSchema", where),
            annotations=self.annotations(raw.get("annotations"), paths.child(where, "annotations")),
            _meta=self.opt_obj(raw, "_meta", where),
            icons=icons,
            extra={k: v for k, v in raw.items() if k not in _TOOL_KEYS},
        )

    def annotations(self, value: Any, where: str) -> dict[str, Any] | None:
        if value is None:
            return None
        ann = self.unalias(self.obj(value, where, "'annotations'"), where)
        for hint in POLICY_HINTS:
            if hint in ann:
                if ann[hint] is None:
                    del ann[hint]  # null and absent mean the same to a client
                elif not isinstance(ann[hint], bool):
                    raise self.fail(
                        f"{hint!r} must be a boolean, not {_kind(ann[hint])}",
                        paths.child(where, hint),
                    )
        if "title" in ann and not isinstance(ann["title"], str):
            raise self.fail("'title' must be a string", paths.child(where, "title"))
        return ann

    def tools(self, values: list[Any], where: str) -> list[Tool]:
        if len(values) > self.limits.max_tools:
            raise self.fail(
                f"{len(values)} tools, over the limit of {self.limits.max_tools} (--max-tools)",
                where,
            )
        return [self.tool(v, paths.item(where, i)) for i, v in enumerate(values)]

    # --- other primitives --------------------------------------------------------------------
    def prompt(self, value: Any, where: str) -> Prompt:
        raw = self.obj(value, where, "a prompt")
        args = []
        for i, arg in enumerate(
            self.items(raw.get("arguments"), paths.child(where, "arguments"), "arguments")
        ):
            at = paths.item(paths.child(where, "arguments"), i)
            a = self.obj(arg, at, "a prompt argument")
            required = a.get("required")
            if required is not None and not isinstance(required, bool):
                raise self.fail("'required' must be a boolean", paths.child(at, "required"))
            args.append(
                PromptArgument(
                    name=self.req_str(a, "name", at),
                    title=self.opt_str(a, "title", at),
                    description=self.opt_str(a, "description", at),
                    required=required,
                    extra=_rest(a, _ARG_KEYS),
                )
            )
        return Prompt(
            name=self.req_str(raw, "name", where),
            title=self.opt_str(raw, "title", where),
            description=self.opt_str(raw, "description", where),
            arguments=tuple(args),
            extra=_rest(raw, _PROMPT_KEYS),
        )

    def resource(self, value: Any, where: str) -> Resource:
        raw = self.unalias(self.obj(value, where, "a resource"), where)
        return Resource(
            uri=self.req_str(raw, "uri", where),
            name=self.opt_str(raw, "name", where),
            title=self.opt_str(raw, "title", where),
            description=self.opt_str(raw, "description", where),
            mimeType=self.opt_str(raw, "mimeType", where),
            extra=_rest(raw, _RESOURCE_KEYS),
        )

    def template(self, value: Any, where: str) -> ResourceTemplate:
        raw = self.unalias(self.obj(value, where, "a resource template"), where)
        return ResourceTemplate(
            uriTemplate=self.req_str(raw, "uriTemplate", where),
            name=self.opt_str(raw, "name", where),
            title=self.opt_str(raw, "title", where),
            description=self.opt_str(raw, "description", where),
            mimeType=self.opt_str(raw, "mimeType", where),
            extra=_rest(raw, _TEMPLATE_KEYS),
        )


_ARG_KEYS = frozenset({"name", "title", "description", "required"})
_PROMPT_KEYS = frozenset({"name", "title", "description", "arguments"})
_RESOURCE_KEYS = frozenset({"uri", "name", "title", "description", "mimeType"})
_TEMPLATE_KEYS = frozenset({"uriTemplate", "name", "title", "description", "mimeType"})


def _rest(raw: dict[str, Any], known: frozenset[str]) -> dict[str, Any]:
    """Every wire field the model has no attribute for (`_meta`, icons, vendor keys): kept, so
    checks read it and snapshots write it back."""
    return {k: v for k, v in raw.items() if k not in known}


def _dump(item: Any) -> dict[str, Any]:
    """A prompt, argument, resource or template as the wire had it (its extra fields inline)."""
    doc: dict[str, Any] = item.model_dump(
        by_alias=True, exclude_none=True, exclude={"extra"}, mode="json"
    )
    if "arguments" in doc:
        doc["arguments"] = [_dump(a) for a in item.arguments]
    extra: dict[str, Any] = item.extra
    return doc | extra


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    return {dict: "an object", list: "an array", str: "a string", bool: "a boolean"}.get(
        type(value), "a number"
    )


def _unique(tools: list[Tool], reader: _Reader, where: str) -> None:
    seen: dict[str, int] = {}
    for i, tool in enumerate(tools):
        if tool.name in seen:
            raise reader.fail(
                f"duplicate tool name {tool.name!r} (also at index {seen[tool.name]})",
                paths.item(where, i),
            )
        seen[tool.name] = i


def surface_from_document(
    doc: Any, *, server_id: str, source: str, limits: InputLimits | None = None
) -> ServerSurface:
    """Detect the shape of a parsed document and load it into a `ServerSurface`."""
    with gc_paused():
        return _surface_from_document(doc, server_id, source, limits)


def _surface_from_document(
    doc: Any, server_id: str, source: str, limits: InputLimits | None
) -> ServerSurface:
    reader = _Reader(source, limits or InputLimits())
    notes: list[str] = []
    fields: dict[str, Any] = {}
    if isinstance(doc, list):
        if doc and all(isinstance(d, dict) and _is_page(d) for d in doc):
            tools = _pages(doc, reader, notes)
        else:
            tools = reader.tools(reader.items(doc, "$", "tools"), "")
    elif isinstance(doc, dict):
        doc = reader.unalias(doc, "")
        if "jsonrpc" in doc or "result" in doc or "error" in doc:
            tools = _pages([doc], reader, notes, single=True)
        elif "tools" in doc or doc.get("schema") == SNAPSHOT_SCHEMA:
            tools, fields = _container(doc, reader, notes)
            server_id = fields.pop("id", None) or server_id
        elif "name" in doc:
            tools = [reader.tool(doc, "")]
        else:
            raise reader.fail(
                'not a tools catalog: expected a tool, an array of tools, {"tools": [...]}, '
                "a tools/list response, a list of paged responses or a surface snapshot",
                "",
            )
    else:
        raise reader.fail(f"not a tools catalog: the document is {_kind(doc)}", "")
    if not fields.get("coverage"):
        fields["coverage"] = (Coverage.MANIFEST,)
    return ServerSurface(
        id=server_id, source=source, tools=tuple(tools), notes=tuple(notes), **fields
    )


def _is_page(doc: dict[str, Any]) -> bool:
    return any(k in doc for k in ("jsonrpc", "result", "error")) or (
        "tools" in doc and set(doc) <= {"tools", "nextCursor", "next_cursor", "_meta"}
    )


def _pages(
    pages: list[Any], reader: _Reader, notes: list[str], *, single: bool = False
) -> list[Tool]:
    if len(pages) > reader.limits.max_items:
        raise reader.fail(f"more than {reader.limits.max_items} pages", "")
    raw_tools: list[Any] = []
    cursor: Any = None
    for i, raw_page in enumerate(pages):
        where = "" if single else paths.item("", i)
        page = reader.unalias(reader.obj(raw_page, where, "a page"), where)
        if "error" in page:
            raise reader.fail("the response is a JSON-RPC error, not a tools list", where)
        result = page.get("result", page)
        at = paths.child(where, "result") if "result" in page else where
        result = reader.unalias(reader.obj(result, at, "'result'"), at)
        if "tools" not in result:
            raise reader.fail("the result has no 'tools'", at)
        raw_tools.extend(reader.items(result["tools"], paths.child(at, "tools"), "tools"))
        if len(raw_tools) > reader.limits.max_tools:
            raise reader.fail(
                f"more than {reader.limits.max_tools} tools across pages (--max-tools)", at
            )
        cursor = result.get("nextCursor")
    if cursor is not None:
        notes.append(
            "the last page has a nextCursor: the catalog holds only part of the tools list"
        )
    tools = [reader.tool(t, f"tools[{i}]") for i, t in enumerate(raw_tools)]
    _unique(tools, reader, "tools")
    return tools


def _container(
    doc: dict[str, Any], reader: _Reader, notes: list[str]
) -> tuple[list[Tool], dict[str, Any]]:
    tools = reader.tools(reader.items(doc.get("tools"), "tools", "tools"), "tools")
    _unique(tools, reader, "tools")
    if doc.get("nextCursor") is not None:
        notes.append("the document has a nextCursor: the catalog holds only part of the tools list")
    fields: dict[str, Any] = {
        "prompts": tuple(
            reader.prompt(p, paths.item("prompts", i))
            for i, p in enumerate(reader.items(doc.get("prompts"), "prompts", "prompts"))
        ),
        "resources": tuple(
            reader.resource(r, paths.item("resources", i))
            for i, r in enumerate(reader.items(doc.get("resources"), "resources", "resources"))
        ),
        "resourceTemplates": tuple(
            reader.template(r, paths.item("resourceTemplates", i))
            for i, r in enumerate(
                reader.items(
                    doc.get("resourceTemplates"), "resourceTemplates", "resource templates"
                )
            )
        ),
        "instructions": reader.opt_str(doc, "instructions", ""),
        "serverInfo": reader.opt_obj(doc, "serverInfo", ""),
        "protocolVersion": reader.opt_str(doc, "protocolVersion", ""),
        "capabilities": reader.opt_obj(doc, "capabilities", ""),
    }
    if isinstance(doc.get("id"), str) and doc["id"]:
        fields["id"] = doc["id"]
    if doc.get("schema") == SNAPSHOT_SCHEMA:
        fields.update(_snapshot_extras(doc, reader))
    if PACKAGE_META in doc and "package" not in fields:  # a vendor's statement of its package
        package, note = read_package_meta(doc[PACKAGE_META])
        if package is not None:
            fields["package"] = package
        if note is not None:
            notes.append(note)
    return tools, fields


def _snapshot_extras(doc: dict[str, Any], reader: _Reader) -> dict[str, Any]:
    out: dict[str, Any] = {}
    coverage = reader.items(doc.get("coverage"), "coverage", "coverage entries")
    try:
        out["coverage"] = tuple(Coverage(c) for c in coverage)
    except ValueError:
        raise reader.fail(f"unknown coverage in {coverage!r}", "coverage") from None
    transport = reader.opt_obj(doc, "transport", "")
    if transport is not None:
        try:
            out["transport"] = Transport.model_validate(transport)
        except ValueError as exc:
            raise reader.fail(f"invalid transport: {_first_error(exc)}", "transport") from None
    package = reader.opt_obj(doc, "package", "")
    if package is not None:
        try:
            out["package"] = PackageRef.model_validate(package)
        except ValueError as exc:
            raise reader.fail(f"invalid package: {_first_error(exc)}", "package") from None
    return out


def _first_error(exc: ValueError) -> str:
    errors = getattr(exc, "errors", None)
    if callable(errors):
        first = errors()[0]
        return f"{'.'.join(str(p) for p in first['loc'])}: {first['msg']}"
    return str(exc)


def surface_to_snapshot(surface: ServerSurface) -> dict[str, Any]:
    """The snapshot document `toolwitness snapshot` writes; loads back to an equal surface."""
    doc: dict[str, Any] = {"schema": SNAPSHOT_SCHEMA, "id": surface.id}
    for key, value in (
        ("serverInfo", surface.server_info),
        ("protocolVersion", surface.protocol_version),
        ("capabilities", surface.capabilities),
        ("instructions", surface.instructions),
    ):
        if value is not None:
            doc[key] = value
    doc["coverage"] = [str(c) for c in surface.coverage]
    doc["tools"] = [t.wire() | t.extra for t in surface.tools]
    doc["prompts"] = [_dump(p) for p in surface.prompts]
    doc["resources"] = [_dump(r) for r in surface.resources]
    doc["resourceTemplates"] = [_dump(r) for r in surface.resource_templates]
    if surface.transport is not None:
        doc["transport"] = surface.transport.model_dump(mode="json")
    if surface.package is not None:
        doc["package"] = surface.package.model_dump(mode="json", exclude_none=True)
    return doc


def load_catalog_file(
    path: Path, *, server_id: str | None = None, limits: InputLimits | None = None
) -> ServerSurface:
    limits = limits or InputLimits()
    source = str(path)
    data = read_regular(path, limits.max_file_bytes, source=source)
    doc = parse_json_bytes(data, source, limits)
    return surface_from_document(
        doc, server_id=server_id or path.stem, source=source, limits=limits
    )


def load_catalog_targets(
    targets: list[Path], limits: InputLimits | None = None
) -> list[ServerSurface]:
    """Files and directories (each `*.json` inside, sorted) → one surface per file."""
    limits = limits or InputLimits()
    files: list[Path] = []
    for target in targets:
        if target.is_dir():
            found = sorted(p for p in target.iterdir() if p.suffix == ".json" and p.is_file())
            if len(found) > limits.max_files:
                raise InputError(f"more than {limits.max_files} JSON files", source=str(target))
            if not found:
                raise InputError("directory holds no .json catalog", source=str(target))
            files.extend(found)
        elif target.exists():
            files.append(target)
        else:
            raise InputError("no such file or directory", source=str(target))
    surfaces = [load_catalog_file(f, limits=limits) for f in files]
    return _distinct_ids(surfaces)


def _distinct_ids(surfaces: list[ServerSurface]) -> list[ServerSurface]:
    counts: dict[str, int] = {}
    for s in surfaces:
        counts[s.id] = counts.get(s.id, 0) + 1
    return [
        s.model_copy(update={"id": f"{s.id}@{s.source}"})
        if counts[s.id] > 1 and s.source is not None
        else s
        for s in surfaces
    ]
