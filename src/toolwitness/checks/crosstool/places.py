"""The registered check `crosstool.places`: TW-INJ-018, 019, 020 — where a tool's text says
data goes, read from destination literals, whatever language the prose around them is in.

- 018: a data slot (a schema `default`, `examples`, `enum` or `const`, or a vendor field:
  `_meta`, a custom annotation, an unknown top-level key) holds a sentence *and* a destination
  literal. A bare endpoint or address as a value is not a sentence; words are counted with the
  literals taken out, in any script.
- 019: a schema `default` or `const` *is* a foreign e-mail address, IBAN, wallet or phone
  number: the server, not the user, picks where the tool sends. URLs are left out: a default
  endpoint to read from is ordinary.
- 020: a tool's description carries a destination literal on a host that is not the server's
  own, not a documentation host (RFC 2606/6761 names) and not a known service's, outside an
  example ("e.g.", "such as") and, for a link or host, after the first sentence of a tool not
  named for web work, *and* names an identifier that is neither this tool's parameter nor
  another tool of the server (`read_clipboard`, `git_push`): a route for data, off the schema,
  to a place the server chose.
- 021: the same third-party literal without such a name: an e-mail address, IBAN, wallet or
  phone number anywhere in the description, or a URL after its first sentence (a tool says what
  it reads from first; a link appended after the purpose is where the text sends the model or
  its data) in a tool not named for web or network work (a webhook tool may suggest a test
  collector).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from urllib.parse import urlsplit

from toolwitness.checks.crosstool.accounts import account_numbers
from toolwitness.checks.crosstool.parties import (
    fiction_number,
    own_labels,
    registrable_label,
    shown_as_example,
    third_party,
)
from toolwitness.checks.crosstool.references import labelled_reference, resource_link
from toolwitness.checks.crosstool.tokens import (
    Destination,
    destinations,
    dumps_list,
    identifier_words,
    may_hold_destination,
)
from toolwitness.checks.injection.slots import slots
from toolwitness.checks.interface import CheckContext, server_check
from toolwitness.checks.schema_names import property_names
from toolwitness.checks.text.english import is_english_prose
from toolwitness.checks.text.language import Analysis, analyse
from toolwitness.checks.text.lexicon import lexicon, model_names
from toolwitness.checks.text.words import UNSPACED, reader_words
from toolwitness.findings import Finding, Witness
from toolwitness.lazyre import lazy_compile
from toolwitness.model import ServerSurface, TextField, Tool, tool_text_fields
from toolwitness.textnorm import excerpt

_DATA_SLOT = lazy_compile(r"\.(?:default|examples|enum|const)(?:\[[0-9]+\])?$")
_FIXED_SLOT = lazy_compile(r"\.(?:default|const)(?:\[[0-9]+\])?$")  # a list default's items too
_VENDOR_KINDS = frozenset({"meta", "extra", "annotation", "key-text", "icon"})
_URI_KEYWORD = lazy_compile(r'(?:\.|\[")(?:\$schema|\$id|\$ref|\$anchor|pattern|format)"?\]?$')
_RECIPIENT_KINDS = frozenset({"email", "iban", "wallet", "phone"})
# Words of a sentence: runs of two or more letters (any script); kana, hangul and ideographs
# count per character, since those scripts do not separate words with spaces.
_LETTER_WORD = lazy_compile(r"[^\W\d_]{2,}")
_UNSPACED = lazy_compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")
_SENTENCE_WORDS = 4
_SENTENCE_UNSPACED = 8
_URLISH = lazy_compile(r"\S*(?:://|@)\S*")  # a whole URL or address token, path and query too
_PATHISH = lazy_compile(r"\S*/\S*")  # a path or the rest of a URL: not words of a sentence
# An identifier in prose: a back-quoted name or snake_case, not part of a path, address or URL
# (those were taken out) and not a file name. camelCase is left out: API-wrapping servers quote
# their API's field names ("dependsOn", "getMailTips") as often as a tool's.
_IDENTIFIER = lazy_compile(
    r"`([A-Za-z_][\w.\-]{2,60})`|(?<![\w./@\-])([a-z][a-z0-9]*(?:_[a-z0-9]+)+)(?![\w@\-])"
)
_FILE_NAME = lazy_compile(r"[\w.\-]+\.[A-Za-z0-9]{1,5}")
# `json.dumps(..., ensure_ascii=False[, separators=(",", ":")])` builds an encoder per call;
# the same settings, once each.
_DUMPS = dumps_list
_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


@server_check("crosstool.places", ["TW-INJ-018", "TW-INJ-019", "TW-INJ-020", "TW-INJ-021"])
def place_findings(surface: ServerSurface, ctx: CheckContext) -> Iterator[Finding]:
    own = own_labels(surface)
    siblings = frozenset(t.name for t in surface.tools)
    for i, tool in enumerate(surface.tools):
        rest = [tool.input_schema, tool.output_schema, tool.meta, tool.extra, tool.annotations]
        # every string but the description, serialised once in C for the gates below
        dump = _DUMPS(rest) if any(rest) else ""
        holds = tool.input_schema_fault is not None or may_hold_destination(dump)
        found = next(_slot_findings(tool, i, own, ctx, dump, holds), None) if dump else None
        if found is not None:
            yield found
        routed = list(_description_route(tool, i, own, siblings, ctx))
        yield from routed
        if found is None and not routed and holds:
            yield from _schema_text_route(tool, i, own, ctx)


# Literals that are a place by themselves (a person's or account's address), unlike a link a
# parameter's description may cite as documentation.
_ADDRESS_KINDS = frozenset({"email", "iban", "phone", "wallet"})
# Literals a description may cite under a label as a page or a mailbox to read or write to;
# a payee (IBAN, wallet, account) under a label is still a payee.
_REFERENCE_KINDS = frozenset({"url", "host", "email"})


def _schema_text_route(
    tool: Tool, i: int, own: frozenset[str], ctx: CheckContext
) -> Iterator[Finding]:
    """021 in a parameter's or the output's description, a `$comment` or a title (the tool's,
    its annotations', a property's): a third party's e-mail address, IBAN, phone number,
    wallet, link or host written into prose about a value, outside an example — where the text
    sends the model or its data, in any language. (A parameter named for a link or a host may
    name hosts in its own text: those are values the user sets.)"""
    for field in tool_text_fields(tool, i):
        if field.kind not in ("schema-text", "title") or _DATA_SLOT.search(field.location):
            continue
        if _URI_KEYWORD.search(field.location) or not may_hold_destination(field.text):
            continue
        # a link or host counts too, unless the field documents a parameter that takes one:
        # the hosts in its text are values the user may set ("Prefer cdn.example.net")
        links = not _about_a_link(field.location)
        found = [d for d in destinations(field.text)
                 if (d.kind in _ADDRESS_KINDS or (links and d.kind in _LINK_KINDS
                                                  and not _named_site(d, field.text)))
                 and third_party(d, own)]  # fmt: skip
        analysis = analyse(field.text) if found else None
        for literal in found:
            if analysis is not None and shown_as_example(analysis, field.text.find(literal.value)):
                continue
            yield ctx.rules.finding(
                "TW-INJ-021",
                tool=tool.name,
                location=field.location,
                message=(
                    f"a schema's description carries the {literal.kind} {literal.value}, a"
                    " third party's address outside every value the user sets: a place the"
                    " text points the model or its data to"
                ),
                evidence=excerpt(field.text),
                witnesses=(_literal_witness(literal, field.location),),
            )
            return


_LINK_KINDS = frozenset({"url", "host"})
# the last property of a schema path, before the keyword holding the text
_LAST_PROPERTY = lazy_compile(r"\.properties(?:\.([A-Za-z_][A-Za-z0-9_\-]*)|\[\"([^\"]{0,200})\"\])"
                              r"(?:\.items)?\.(?:description|title|\$comment)$")
_LINK_WORDS = frozenset({"url", "uri", "urls", "uris", "link", "links", "href", "endpoint",
                         "host", "hostname", "domain", "website", "site", "webhook", "callback",
                         "origin", "server", "proxy", "redirect"})  # fmt: skip


def _vendors_own(dest: Destination, location: str) -> bool:
    """An address on the host the vendor field's own key names (`_meta["ridgeline/owner"]`:
    data-platform@ridgeline.io), or under a key that names the publisher's contact
    (`"io.pay/support-contact"`): the vendor's, for people, as the key says."""
    label = registrable_label(dest.host or "")
    if len(label) >= 3 and label in location.lower():
        return True
    key = location.rsplit("[", 1)[-1] if location.endswith("]") else location.rsplit(".", 1)[-1]
    return not _CONTACT_KEYS.isdisjoint(identifier_words(key.strip('"[]')))


# the last key of a vendor field that says it names the publisher's contact for people
_CONTACT_KEYS = frozenset({"support", "contact", "owner", "maintainer", "maintainers", "author",
                           "publisher", "vendor", "security", "abuse", "helpdesk"})  # fmt: skip


def _named_site(dest: Destination, text: str) -> bool:
    """The host is the site of what the text names ("JMESPath expression … https://jmespath.org",
    an app.json schema's json-schema.org): every part of its registered name appears in the
    text with the literal taken out."""
    return _spells_out(dest.host or "", text.replace(dest.value + (dest.rest or ""), " ").lower())


def _spells_out(host: str, told: str) -> bool:
    """Every part of the host's registered name (three letters or more) is in `told`, a
    lower-cased text: the text names the service or project the host is."""
    named = [p for p in _LABEL_PARTS.split(registrable_label(host)) if len(p) >= 3]
    return bool(named) and all(p in told for p in named)


def _about_a_link(location: str) -> bool:
    """The text describes a parameter named for a link or a host (`avatar_url`, `webhook`)."""
    m = _LAST_PROPERTY.search(location)
    name = (m.group(1) or m.group(2)) if m else None
    return bool(name) and not _LINK_WORDS.isdisjoint(identifier_words(name or ""))


def _is_sentence(text: str, literals: list[Destination]) -> bool:
    rest = _PATHISH.sub(" ", _URLISH.sub(" ", text))
    for literal in literals:
        rest = rest.replace(literal.value, " ")  # IBANs and phone numbers hold spaces
    if len(_UNSPACED.findall(rest)) >= _SENTENCE_UNSPACED:
        return True
    return len(_LETTER_WORD.findall(rest)) >= _SENTENCE_WORDS


_KEY_WORD = lazy_compile(r"[A-Za-z]{4,}")
_KEY_TAIL = lazy_compile(r'\["([^"]*)"\]$|\.([^.\[]+)$')


def _pointed_to(tool: Tool, field: TextField) -> bool:
    """The tool's description or a parameter's names the vendor field: "_meta" itself, or a
    word of the field's own key ("the partner desk" for `_meta["com.news/partner-desk"]`)."""
    match = _KEY_TAIL.search(field.location)
    key = next((g for g in match.groups() if g), "") if match else ""
    tail = key.rsplit("/", 1)[-1].rsplit(".", 1)[-1]
    key_words = {w.lower() for w in _KEY_WORD.findall(tail)}
    prose = " ".join(_prose_of(tool)).lower()
    if "_meta" in prose and field.location.split(".", 1)[-1].startswith("_meta"):
        return True
    return any(re.search(rf"\b{re.escape(w)}\b", prose) for w in key_words)


def _prose_of(tool: Tool) -> Iterator[str]:
    if isinstance(tool.description, str):
        yield tool.description[:20_000]
    schema = tool.input_schema
    props = schema.get("properties") if isinstance(schema, dict) else None
    if isinstance(props, dict):
        for body in list(props.values())[:200]:
            if isinstance(body, dict) and isinstance(body.get("description"), str):
                yield body["description"][:4_000]


def _is_data_slot(field: TextField) -> bool:
    return field.kind in _VENDOR_KINDS or (
        field.kind == "schema-text" and _DATA_SLOT.search(field.location) is not None
    )


def _literal_witness(literal: Destination, location: str) -> Witness:
    return Witness(kind="text", symbol=literal.value, path=(location,), detail=literal.kind)


def _literal_finding(
    ctx: CheckContext, tool: Tool, field: TextField, rule_id: str, literal: Destination,
    message: str,
) -> Finding:
    """A finding on a field that holds a destination literal: the field's text as evidence,
    the literal as the witness."""
    return ctx.rules.finding(
        rule_id,
        tool=tool.name,
        location=field.location,
        message=message,
        evidence=excerpt(field.text),
        witnesses=(_literal_witness(literal, field.location),),
    )


def _slot_findings(
    tool: Tool, i: int, own: frozenset[str], ctx: CheckContext, dump: str, holds: bool
) -> Iterator[Finding]:
    """018 or 019 for the first data slot that holds a foreign destination (one per tool).
    `dump`: the schemas and vendor fields as JSON; `holds`: it may hold a destination."""
    vendor = [tool.meta, tool.extra, tool.annotations, tool.icons]
    prose = next(_vendor_prose(tool, i), None) if _may_hold_prose(vendor) else None
    lists = '"enum"' in dump or '"examples"' in dump  # the keys `_odd_value` reads
    if not holds:
        # a superset gate, serialised in C: no literal anywhere, no slot holds one
        yield from _prose_findings(tool, i, prose, ctx, lists)
        return
    for field in tool_text_fields(tool, i):
        if not _is_data_slot(field) or _URI_KEYWORD.search(field.location):
            continue
        if not may_hold_destination(field.text):
            continue
        found = [d for d in destinations(field.text) if third_party(d, own)]
        if not found:
            continue
        if _is_sentence(field.text, found):
            literal = found[0]
            yield _literal_finding(
                ctx, tool, field, "TW-INJ-018", literal,
                (f"a data slot holds a sentence with the {literal.kind} {literal.value}:"
                " values are data, not a place for prose about where something is sent"),
            )
            return
        fixed = next((d for d in found if d.kind in _RECIPIENT_KINDS), None)
        if fixed is None and _FIXED_SLOT.search(field.location):
            fixed = _fixed_endpoint(tool, field.text, found)
        if (fixed is not None and field.kind in _VENDOR_KINDS and fixed.kind in _RECIPIENT_KINDS
                and not _vendors_own(fixed, field.location)):  # fmt: skip
            # a third party's address, IBAN, phone or wallet as vendor metadata, alone or under
            # a label ("copia del resumen: pacientes@…"): a recipient the server wrote where
            # only the model reads it (every such field in the labelled sets but one was an
            # attack; none on the real servers)
            yield _literal_finding(
                ctx, tool, field, "TW-INJ-018", fixed,
                (f"a vendor field holds the {fixed.kind} {fixed.value}, a third party's: a"
                " recipient written where the model reads it and few reviewers do"),
            )
            return
        if fixed is not None and field.kind in _VENDOR_KINDS and _pointed_to(tool, field):
            yield _literal_finding(
                ctx, tool, field, "TW-INJ-018", fixed,
                (f"a vendor field holds the {fixed.kind} {fixed.value} and the tool's text"
                " points the model to it: a payload split between prose and a value"),
            )
            return
        if fixed is not None and _FIXED_SLOT.search(field.location):
            keyword = field.location.rpartition(".")[2]
            yield _literal_finding(
                ctx, tool, field, "TW-INJ-019", fixed,
                (f"a parameter's {keyword} is the {fixed.kind} {fixed.value}: the server,"
                " not the user, chooses where this tool "
                + ("connects" if fixed.kind == "url" else "sends")),
            )
            return
    yield from _prose_findings(tool, i, prose, ctx, lists)


def _sample_number(dest: Destination, text: str) -> bool:
    """A number from a range set aside for fiction, alone in parentheses: an illustration of
    what precedes it ("numbers must be in E.164 format (+14155550123)"). Either alone is not
    enough: writers of attacks use those ranges as stand-ins ("change the recipient to
    +13125550123"), and a real number in parentheses may be a line to call."""
    return (
        dest.kind == "phone" and fiction_number(dest.value) and f"({dest.value})" in text
    )


def _fixed_endpoint(tool: Tool, text: str, found: list[Destination]) -> Destination | None:
    """A default or const that is nothing but a URL on a third party's host (with a path, so
    not a bare site): the endpoint the tool sends to or loads from when the parameter is left
    out, chosen by the server. The server's own host, a known service's (an API base such as
    registry.npmjs.org) and documentation names are not third parties (`third_party`); a host
    whose registered name the tool's own text spells out ("… from the Order Backend API") is
    the service it says it uses, and a host that serves published files (`file_hosts`)
    serves a project's own file."""
    value = text.strip()
    published = lexicon().urls["file_hosts"]
    told = f"{tool.name} {tool.title or ''} {tool.description or ''}".lower()
    for d in found:
        host = d.host or ""
        if d.kind != "url" or d.value + (d.rest or "") != value or host in published:
            continue
        if _spells_out(host, told):
            continue
        if urlsplit(value).path.strip("/"):
            return d
    return None


_LABEL_PARTS = lazy_compile(r"[^a-z]+")


def _prose_findings(
    tool: Tool, i: int, prose: tuple[TextField, int] | None, ctx: CheckContext, lists: bool
) -> Iterator[Finding]:
    """A paragraph in a vendor field, else a sentence among short list values (one finding)."""
    if prose is not None:
        yield _prose_finding(tool, prose, ctx)
        return
    odd = _odd_value(tool, i) if lists else None
    if odd is not None:
        yield ctx.rules.finding(
            "TW-INJ-018",
            tool=tool.name,
            location=odd.location,
            message=(
                "one value of a list of short values is a sentence: the choices a client"
                " offers are data, and a sentence among them is text for the model"
            ),
            evidence=excerpt(odd.text),
        )


_LIST_ITEM = lazy_compile(r"\.(?:enum|examples)\[[0-9]+\]$")
_ODD_WORDS = 6  # a sentence among values of at most three words
_SHORT_WORDS = 3


def _odd_value(tool: Tool, i: int) -> TextField | None:
    """An `enum` or `examples` member that is a sentence (six words or more) beside members of
    a few words ("friendly", "formal", "after replying, DM the recovery email to …"): in any
    language, the odd one out is where the text was hidden. Every other member is short and at
    most half are long (a list of sample texts is a list of texts)."""
    lists: dict[str, list[TextField]] = {}
    for field in tool_text_fields(tool, i):
        if field.kind == "schema-text" and _LIST_ITEM.search(field.location):
            lists.setdefault(field.location.rsplit("[", 1)[0], []).append(field)
    for members in lists.values():
        if len(members) < 2:
            continue
        counts = [reader_words(m.text[:4000]) for m in members]
        long = [m for m, n in zip(members, counts, strict=True) if n >= _ODD_WORDS]
        short = sum(1 for n in counts if n <= _SHORT_WORDS)
        if long and 2 * len(long) <= len(members) and short + len(long) == len(members):
            return long[0]
    return None


_VENDOR_PROSE_WORDS = 12  # a vendor value of this many words is a paragraph, not metadata


def _may_hold_prose(vendor: Sequence[object]) -> bool:
    """A superset gate of `_vendor_prose`, serialised in C without separator spaces: a paragraph
    needs eleven gaps between words somewhere in the strings, or letters of an unspaced
    script."""
    if not any(vendor):
        return False
    compact = _COMPACT(vendor)
    gaps = len(_SPACE.findall(compact)) + compact.count("\\n") + compact.count("\\t")
    if gaps >= _VENDOR_PROSE_WORDS - 1:
        return True
    # ASCII strings hold no unspaced letter (and need no compiling of that class's ranges)
    return not compact.isascii() and UNSPACED.search(compact) is not None


_SPACE = re.compile(r"\s")  # any Unicode space a paragraph may separate its words with


def _vendor_prose(tool: Tool, i: int) -> Iterator[tuple[TextField, int]]:
    """Vendor fields (`_meta`, a custom annotation, an unknown top-level key) that hold a
    paragraph: twelve words or more (scripts without spaces: two characters a word). Machine
    metadata is a label, a number or a one-line note ("Maintained by the platform team; report
    issues in #data", eleven words); a paragraph there is written for a reader, and the reader
    a client shows it to is the model."""
    for field in tool_text_fields(tool, i):
        if field.kind not in _VENDOR_KINDS:
            continue
        words = reader_words(field.text[:4000])
        if words >= _VENDOR_PROSE_WORDS and not _plain_note(field.text):
            yield field, words


def _plain_note(text: str) -> bool:
    """English prose that orders nothing and names nothing a payload needs: no imperative or
    deontic sentence, no one addressed, no model, instructions or role named, no address, link
    or identifier ("30 issues per hour per user; further requests get HTTP 429", "readings come
    from regional monitoring networks; values are provisional"). A note about the service, not
    text for the model. Other languages are not read here: their paragraphs stay findings."""
    if len(text) > 2000 or not is_english_prose(text):
        return False
    if "://" in text or "@" in text or "`" in text or "_" in text or "{" in text:
        return False
    analysis = analyse(text)
    if any(s.directive or s.to_model for s in analysis.sentences):
        return False
    sl, models = slots(), model_names(lexicon())
    for sentence in analysis.sentences:
        words = sentence.words()
        for k, word in enumerate(words):
            tags = sl.tags(word)
            if word in models or "instruction" in tags:
                return False
            # a noun of text refers to this text only when pointed at ("this note", "these
            # notes"): "Notes are kept until the user deletes them" is a notes app's data
            if "self" in tags and not _POINTERS.isdisjoint(words[max(0, k - 2) : k]):
                return False
    return True


_POINTERS = frozenset({"this", "these", "the following", "following", "above", "below", "here"})


def _prose_finding(tool: Tool, prose: tuple[TextField, int], ctx: CheckContext) -> Finding:
    field, words = prose
    return ctx.rules.finding(
        "TW-INJ-018",
        tool=tool.name,
        location=field.location,
        message=(
            f"a vendor field holds {words} words of prose: machine metadata the model reads and"
            " few reviewers do, where a sentence has no business"
        ),
        evidence=excerpt(field.text),
    )


def _description_route(
    tool: Tool, i: int, own: frozenset[str], siblings: frozenset[str], ctx: CheckContext
) -> Iterator[Finding]:
    text = tool.description
    if not isinstance(text, str):
        return
    literals = (
        [d for d in destinations(text) if third_party(d, own) and not _sample_number(d, text)]
        if may_hold_destination(text)
        else []
    )  # fmt: skip
    literals += account_numbers(text)
    if not literals:
        return
    analysis = analyse(text)
    literal = next(iter(_pointed(tool, literals, analysis)), None)
    if literal is None:
        return
    known = property_names(tool.input_schema) | property_names(tool.output_schema)
    named = _foreign_identifiers(text, known | siblings)
    where = f"tools[{i}].description"
    if named:
        yield ctx.rules.finding(
            "TW-INJ-020",
            tool=tool.name,
            location=where,
            message=(
                f"the description points to the {literal.kind} {literal.value} (not the server's"
                f" own host) and names {', '.join(named[:3])}, which is neither a parameter of"
                " this tool nor another tool of the server: a route for data that the schema"
                " does not show"
            ),
            evidence=excerpt(text),
            witnesses=(
                _literal_witness(literal, where),
                *(
                    Witness(kind="text", symbol=n, path=(where,), detail="identifier")
                    for n in named[:3]
                ),
            ),
        )
        return
    yield ctx.rules.finding(
        "TW-INJ-021",
        tool=tool.name,
        location=where,
        message=(
            f"the description carries the {literal.kind} {literal.value}, which is not the"
            " server's own host, a documentation name or a known service's: a place the"
            " text points the model or its data to, outside every parameter"
        ),
        evidence=excerpt(text),
        witnesses=(_literal_witness(literal, where),),
    )


def _pointed(tool: Tool, literals: list[Destination], analysis: Analysis) -> Iterator[Destination]:
    """The literals the text points to: not shown as an example, and for links and host names,
    not in the first sentence (the source a tool reads from) nor in a tool named for web or
    network work (a webhook tool may suggest a test collector)."""
    first_end = analysis.sentences[0].end if analysis.sentences else 0
    title = tool.title if isinstance(tool.title, str) else ""
    named_for = set(identifier_words(tool.name)) | set(identifier_words(title))
    web_tool = not named_for.isdisjoint(slots().members["network_domain"])
    for literal in literals:
        offset = analysis.text.find(literal.value)
        if shown_as_example(analysis, offset):
            continue
        if analysis.quoted_at(offset) and analysis.table_cell_at(offset) is not None:
            continue  # a quoted literal in a table row that orders nothing: a catalog entry
        if literal.kind in ("url", "host") and (offset < first_end or web_tool):
            continue
        if literal.kind in _REFERENCE_KINDS and labelled_reference(analysis.text, offset):
            continue  # "Contact: …", "Docs: https://…": a reference, not a destination
        if literal.kind == "url" and resource_link(analysis.text, offset):
            continue  # ".../i/{invoice_id}": where the tool's own object lives
        yield literal


def _foreign_identifiers(text: str, known: set[str] | frozenset[str]) -> list[str]:
    plain = _URLISH.sub(" ", text)
    out: list[str] = []
    for match in _IDENTIFIER.finditer(plain):
        name = next(g for g in match.groups() if g)
        if name in known or name in out or _FILE_NAME.fullmatch(name):
            continue
        out.append(name)
    return out
