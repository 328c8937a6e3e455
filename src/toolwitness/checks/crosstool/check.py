"""The registered check `crosstool.structure`: TW-INJ-015, 016, 017 and 022 (`pinned`).

- 015: a tool's text names another tool of the same server *and* carries a destination literal
  (an address, account, wallet, URL or number that tool could be made to send to): one tool
  rewriting where another one's data goes. Both are witnesses.
- 016: a tool that declares itself read-only (`readOnlyHint: true`, or "read-only" in its title
  or description) has a string parameter whose name asks for a person's secret.
- 017: a data slot (a schema `default`, `examples`, `enum` or `const`, or a vendor field:
  `_meta`, a custom annotation, an unknown top-level key) holds a sentence naming another tool.

Each reads the tool's fields through `model.tool_text_fields`; a tool with no other
identifier-shaped tool beside it and no secret-shaped parameter costs one pass of cheap tests.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from toolwitness import paths
from toolwitness.checks.crosstool.parties import own_labels, shown_as_example, third_party
from toolwitness.checks.crosstool.pinned import pinned_finding, writers_of
from toolwitness.checks.crosstool.secrets import keeps_secrets, personal_secret
from toolwitness.checks.crosstool.tokens import (
    Destination,
    destinations,
    dumps_list,
    identifier_shaped,
    identifier_words,
    may_hold_destination,
    mentions,
)
from toolwitness.checks.interface import CheckContext, server_check
from toolwitness.checks.text.language import analyse
from toolwitness.findings import Finding, Witness
from toolwitness.lazyre import lazy_compile
from toolwitness.literals import contains_any
from toolwitness.model import ServerSurface, TextField, Tool, tool_text_fields
from toolwitness.textnorm import excerpt

_SKIP_KINDS = frozenset({"name", "schema-key", "key"})
_DATA_SLOT = lazy_compile(r"\.(?:default|examples|enum|const)(?:\[[0-9]+\])?$")
_VENDOR_KINDS = frozenset({"meta", "extra", "annotation", "key-text"})
# Keyword values that are URIs by definition (a JSON Schema dialect, an id, a reference, a
# pattern or format) and icons (whose `src` is a URL by nature) never hold a destination.
_URI_KEYWORD = lazy_compile(r'(?:\.|\[")(?:\$schema|\$id|\$ref|\$anchor|pattern|format)"?\]?$')
_WORD_RUN = re.compile(r"[A-Za-z0-9_]+")
_READ_ONLY = lazy_compile(r"\b(?:read[- ]?only|view[- ]only)\b", re.IGNORECASE)


@server_check("crosstool.structure", ["TW-INJ-015", "TW-INJ-016", "TW-INJ-017", "TW-INJ-022"])
def crosstool_findings(surface: ServerSurface, ctx: CheckContext) -> Iterator[Finding]:
    index = {t.name: i for i, t in enumerate(surface.tools)}
    named = frozenset(n for n in index if identifier_shaped(n))
    # A superset gate of `mentions`: a name of word characters only occurs as a maximal run of
    # them; the rare name with "-" or "." is looked for as a substring.
    plain = frozenset(n for n in named if _WORD_RUN.fullmatch(n))
    plain_runs = frozenset(n.encode("ascii") for n in plain)  # (see `_word_runs`)
    dotted_in = contains_any(named - plain)
    own_hosts = _own_hosts(surface)
    own = own_labels(surface)
    writers = writers_of(surface)
    for i, tool in enumerate(surface.tools):
        yield from _read_only_secrets(tool, i, ctx)
        if len(named) - (tool.name in named) == 0:
            continue  # no other identifier-shaped tool to name
        gate = _gate_text(tool)
        if plain_runs.isdisjoint(_word_runs(gate)) and not dotted_in(gate):
            continue  # no other tool's name anywhere in the tool: neither 015 nor 017 can fire
        others = named - {tool.name}
        fields = [f for f in tool_text_fields(tool, i) if f.kind not in _SKIP_KINDS]
        yield from _redirection(tool, fields, others, index, own_hosts, own, ctx)
        yield from _data_slots(tool, fields, others, index, ctx)
        pinned = pinned_finding(tool, i, fields, writers, ctx)
        if pinned is not None:
            yield pinned


# Word bytes kept, every other byte (each byte of a non-ASCII character too) a space.
_RUN_BYTES = bytes(
    c if 48 <= c <= 57 or 65 <= c <= 90 or 97 <= c <= 122 or c == 95 else 32 for c in range(256)
)


def _word_runs(text: str) -> list[bytes]:
    """`_WORD_RUN.findall(text)`, UTF-8 encoded: the runs of [A-Za-z0-9_] are the runs of those
    bytes in the text's UTF-8 (a non-ASCII character's bytes are all above 127), split in C
    rather than tried by the regex engine at every position (issue 17: ~3x faster)."""
    return text.encode("utf-8", "surrogatepass").translate(_RUN_BYTES).split()


# `json.dumps(..., ensure_ascii=False)` of a list, its encoder built once (`tokens.dumps_list`).
_DUMPS = dumps_list


def _gate_text(tool: Tool) -> str:
    """Every string of the tool but its name, in one text: a superset of the texts
    `crosstool_findings` reads from `tool_text_fields` (the schemas and vendor fields as JSON,
    serialised in C; identifiers survive JSON escaping unchanged, and extra keys only add
    matches to a superset gate)."""
    fault = tool.input_schema_fault.value if tool.input_schema_fault is not None else None
    rest = [tool.annotations, tool.meta, tool.icons, tool.extra, tool.input_schema,
            tool.output_schema, fault]  # fmt: skip
    return "\n".join(
        (tool.title or "", tool.description or "", _DUMPS(rest))
    )


def _own_hosts(surface: ServerSurface) -> frozenset[str]:
    url = surface.transport.url if surface.transport is not None else None
    if not url or "://" not in url:
        return frozenset()
    host = url.split("://", 1)[1].split("/", 1)[0].split(":", 1)[0].lower()
    return frozenset({host, ".".join(host.split(".")[-2:])})


def _foreign(dest: Destination, own_hosts: frozenset[str], own: frozenset[str]) -> bool:
    """A third party's (`parties.third_party`: not under one of the server's names, not a
    documentation name, not a known service's) and not on the server's transport host."""
    if not third_party(dest, own):
        return False
    return dest.host is None or not any(
        dest.host == h or dest.host.endswith("." + h) for h in own_hosts
    )


def _sample(text: str, dest: Destination) -> bool:
    """Shown after an example marker ("e.g. user@outlook.com"), not a place to send to."""
    return shown_as_example(analyse(text), text.find(dest.value))


def _tool_witness(name: str, index: dict[str, int]) -> Witness:
    return Witness(kind="field", symbol=name, path=(f"tools[{index[name]}].name",))


def _redirection(
    tool: Tool,
    fields: list[TextField],
    others: frozenset[str],
    index: dict[str, int],
    own_hosts: frozenset[str],
    own: frozenset[str],
    ctx: CheckContext,
) -> Iterator[Finding]:
    dest: tuple[TextField, Destination] | None = None
    for field in fields:
        if field.kind == "icon" or _URI_KEYWORD.search(field.location):
            continue
        if may_hold_destination(field.text):
            found = next(
                (
                    d
                    for d in destinations(field.text)
                    if _foreign(d, own_hosts, own) and not _sample(field.text, d)
                ),
                None,
            )
            if found is not None:
                dest = (field, found)
                break
    if dest is None:
        return
    named: tuple[TextField, list[str]] | None = None
    for field in fields:
        if field.text.strip() in others:
            continue  # a bare name (an enum of tools a router dispatches to) is data, not text
        hit = mentions(field.text, others)
        if hit:
            named = (field, hit)
            break
    if named is None:
        return
    where, literal = dest
    field, hit = named
    yield ctx.rules.finding(
        "TW-INJ-015",
        tool=tool.name,
        location=field.location,
        message=(
            f"this tool's text names {', '.join(hit)} (another tool of this server) and carries"
            f" the {literal.kind} {literal.value} (at {where.location}): one tool setting where"
            " another one's data goes"
        ),
        evidence=excerpt(field.text),
        witnesses=(
            *(_tool_witness(name, index) for name in hit),
            Witness(kind="text", symbol=literal.value, path=(where.location,), detail=literal.kind),
        ),
    )


def _data_slots(
    tool: Tool,
    fields: list[TextField],
    others: frozenset[str],
    index: dict[str, int],
    ctx: CheckContext,
) -> Iterator[Finding]:
    for field in fields:
        slot = field.kind in _VENDOR_KINDS or (
            field.kind == "schema-text" and _DATA_SLOT.search(field.location) is not None
        )
        if not slot or " " not in field.text.strip():
            continue
        hit = mentions(field.text, others)
        if hit:
            yield ctx.rules.finding(
                "TW-INJ-017",
                tool=tool.name,
                location=field.location,
                message=(
                    f"a data slot holds a sentence naming {', '.join(hit)} (another tool of this"
                    " server): values are data, not a place for directions about other tools"
                ),
                evidence=excerpt(field.text),
                witnesses=tuple(_tool_witness(name, index) for name in hit),
            )
            return  # one finding per tool: the first slot is the witness


def _declares_read_only(tool: Tool) -> str | None:
    if tool.hint("readOnlyHint") is True:
        return "annotations.readOnlyHint"
    for attr in ("title", "description"):
        value = getattr(tool, attr)
        if isinstance(value, str) and _READ_ONLY.search(value[:2000]):
            return attr
    return None


def _read_only_secrets(tool: Tool, i: int, ctx: CheckContext) -> Iterator[Finding]:
    props = tool.input_schema.get("properties")
    if not isinstance(props, dict) or not props:
        return
    asked = [
        name
        for name, schema in props.items()
        if isinstance(schema, dict)
        and schema.get("type", "string") == "string"
        and personal_secret(name)
    ]
    if not asked:
        return
    claim = _declares_read_only(tool)
    if claim is None:
        return
    title = tool.title if isinstance(tool.title, str) else ""
    if keeps_secrets(identifier_words(tool.name) + identifier_words(title)):
        return  # a vault, password manager or sign-in step: taking the secret is its purpose
    yield ctx.rules.finding(
        "TW-INJ-016",
        tool=tool.name,
        location=paths.child(f"tools[{i}].inputSchema.properties", asked[0]),
        message=(
            f"the tool declares itself read-only ({claim}) yet asks for a person's secret in"
            f" {', '.join(asked)}: a tool that only reads needs no password, PIN, recovery"
            " phrase or session cookie"
        ),
        evidence=", ".join(asked),
        witnesses=(
            Witness(kind="field", symbol=claim, path=(f"tools[{i}].{claim}",)),
            *(
                Witness(
                    kind="field",
                    symbol=n,
                    path=(paths.child(f"tools[{i}].inputSchema.properties", n),),
                )
                for n in asked
            ),
        ),
    )
