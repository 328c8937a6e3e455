"""TW-CAP: annotations against derived roles, unconstrained dangerous parameters, and the
sampling / elicitation capabilities.

Roles come from `checks/roles/derive.py` (name, description, parameters -- never annotations), so an
annotation can contradict them. A role given by the tool's name or by a parameter's shape is
strong evidence; one given only by its description is weaker and the finding says so.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from toolwitness import paths
from toolwitness.checks.capability.purpose import NO_HABITS, mismatches, purpose_of
from toolwitness.checks.interface import CheckContext, server_check
from toolwitness.checks.roles.derive import ParamShape, RoleSignal, ToolRoles, surface_roles
from toolwitness.checks.roles.text import name_tokens
from toolwitness.checks.roles.vocab import RoleVocabulary, vocabulary
from toolwitness.findings import Confidence, Finding, Severity, Witness
from toolwitness.model import ServerSurface, Tool

# Roles that change the world: a read-only claim contradicts any of them.
MUTATING = ("destructive", "file-write", "state-write", "code-exec")
_STRONG = ("name", "parameter")
_CONTRADICTABLE = frozenset((*MUTATING, "external-sink", "network", "credential-access"))


def role_witness(tool: str, signal: RoleSignal) -> Witness:
    return Witness(
        kind="field", symbol=tool, path=(signal.location,), detail=f"{signal.role}: {signal.term}"
    )


def _witnesses(tool: str, signals: list[RoleSignal], limit: int = 4) -> tuple[Witness, ...]:
    ordered = sorted(signals, key=lambda s: (s.source not in _STRONG, s.location, s.term))
    return tuple(role_witness(tool, s) for s in ordered[:limit])


def _hint_witness(tool: Tool, index: int, hint: str) -> Witness:
    return Witness(
        kind="field",
        symbol=tool.name,
        path=(f"tools[{index}].annotations.{hint}",),
        detail=f"{hint}: {str(tool.hint(hint)).lower()}",
    )


def _options(tool: Tool, index: int) -> tuple[str, ...]:
    """Location prefixes of the tool's optional parameters that offer no value of their own
    (not required, no default, no const): choices the caller may make, or leave alone."""
    schema = tool.input_schema
    props = schema.get("properties")
    if not isinstance(props, dict):
        return ()
    required = schema.get("required")
    needed = set(required) if isinstance(required, list) else set()
    base = f"tools[{index}].inputSchema.properties"
    return tuple(
        paths.child(base, name) + "."
        for name, prop in props.items()
        if name not in needed
        and not (isinstance(prop, dict) and ("default" in prop or "const" in prop))
    )


def _in_an_option(signal: RoleSignal, options: tuple[str, ...]) -> bool:
    """A clause of the description of an optional parameter (see `_options`)."""
    return signal.source == "description" and signal.location.startswith(options)


def _graded(
    signals: list[RoleSignal], options: tuple[str, ...] = (), first: str = ""
) -> tuple[Severity | None, Confidence | None]:
    """Rule defaults when the evidence is strong; one step down (and heuristic) if prose only;
    low when the only prose describes optional parameters.

    An optional parameter's description tells what choosing it does ("fetch all pages and
    merge the results", "set to true to include all members"): the tool does it only when
    asked, so on its own that does not contradict the read-only claim at medium. A required
    parameter, or one with a default, is something the tool does whenever it is called."""
    if all(s.source == "name" for s in signals) and not any(
        s.term.endswith(f"'{first}'") for s in signals
    ):
        # The name alone, and the act word not its first: in a compound the last word is the
        # head, so the act word often modifies a noun ("sync_status", "invite_link",
        # "irrigation_schedule"). Reported low: a reviewer sees it; the tool is not called
        # poisoned on it. A name opening with the act ("delete_notebook") keeps the default.
        return Severity.LOW, Confidence.HEURISTIC
    if any(s.source in _STRONG for s in signals):
        return None, None
    if options and all(_in_an_option(s, options) for s in signals):
        return Severity.LOW, Confidence.HEURISTIC
    return Severity.MEDIUM, Confidence.HEURISTIC


_WORD = re.compile(r"`?[A-Za-z0-9_$='/-]+(?:\.[A-Za-z0-9_$='/-]+)*`?|[.;:!?()\[\]{}\n•\u2014,]")
_PUNCT = frozenset(".;:!?()[]{}\n•\u2014")
_LISTED = frozenset({"and", "or", ","})
# Where a gerund names someone else's activity: "call this first before creating, updating or
# searching for events", "operations like listing or editing workspaces", "for example
# creating mock servers".
_AROUND = frozenset({"before", "after", "without", "like", "while", "when", "example", "e.g."})
_NOT_HEADS = frozenset(
    {"the", "a", "an", "it", "them", "this", "these", "those", "that", "all", "any", "every",
     "your", "their", "its", "to", "from", "into", "with"}
)  # fmt: skip
_DETERMINERS = frozenset(
    {"the", "a", "an", "all", "any", "these", "those", "its", "their", "your", "our", "my",
     "no", "some", "each", "many", "recent", "upserted", "new", "existing", "of"}
)  # fmt: skip
_AUXILIARIES = frozenset(
    {"can", "could", "will", "would", "may", "might", "must", "should", "are", "were", "have",
     "had", "cannot", "do", "don't"}
)  # fmt: skip
_PREPOSITIONS = frozenset({"to", "from", "into", "in", "on", "onto", "with", "at", "via", "for"})


def _text_at(tool: Tool, signal: RoleSignal) -> str | None:
    if signal.location.endswith("].description"):
        return tool.description
    if signal.location.endswith("].title"):
        return tool.title
    return None


def _code_name(raw: str) -> bool:
    core = raw.strip("`")
    return core != raw or "_" in core or "=" in core or (
        core[:1].islower() and any(c.isupper() for c in core[1:])
    )


def _use_of(raw: list[str], low: list[str], k: int, verb: str, obj: str | None,
            vocab: RoleVocabulary) -> bool:  # fmt: skip
    """Is the word at k the verb of something the tool does? Not when it is a noun or a
    modifier ("the user's name and email address", "record counts per namespace", "record
    pages)"), a gerund for someone else's activity (see `_AROUND`), the act of a person ("who
    uploaded it"), or setting an argument ("Set include_summaries=true", "set `teamId`")."""
    word = low[k]
    prev = low[k - 1] if k else "."
    nxt = low[k + 1] if k + 1 < len(low) else "."
    if verb == "set" and k + 1 < len(raw) and _code_name(raw[k + 1]):
        return False
    if prev == "who":
        return False
    if word.endswith("ing"):
        j = k - 1
        while j >= 0 and (low[j] in _LISTED or low[j].endswith("ing")):
            j -= 1
        if j >= 0 and low[j] in _AROUND:
            return False
    if word.endswith("s") and word != verb and (prev in _DETERMINERS or nxt in _AUXILIARIES):
        return False  # a plural noun: "newly upserted records can take", "the records"
    if word != verb or prev in _PUNCT or prev == "-":
        return True  # inflected, or at a sentence's or item's start: a verb
    if prev in _LISTED:
        # "name and email address." / "index pages and record pages)": a listed noun phrase
        # ends at the object; a listed verb takes it somewhere ("and email it to …")
        after = low[k + 2] if k + 2 < len(low) else "."
        if obj is None:  # "size, upload date, and …": the next word is the head noun
            return not (nxt.isalpha() and nxt not in _NOT_HEADS
                        and (after in _PUNCT or after in _LISTED))  # fmt: skip
        return not (vocab.lemma(nxt) == obj and after not in _PREPOSITIONS)
    return prev in vocab.verb_leads or prev.endswith("ly") or prev in ("not", "never")


def _form_of(word: str, verb: str, vocab: RoleVocabulary) -> bool:
    """The word is the verb or one of its regular inflections ("updating", "uploaded")."""
    if word == verb or vocab.lemma(word) == verb:
        return True
    stem = verb[:-1] if verb.endswith("e") else verb
    rest = word[len(stem) :] if word.startswith(stem) else None
    return rest in ("s", "es", "ed", "d", "ing", "e", f"{stem[-1:]}ed", f"{stem[-1:]}ing")


def _said_of_the_tool(tool: Tool, signal: RoleSignal, vocab: RoleVocabulary) -> bool:
    """A prose signal whose verb, wherever it occurs in its text, is used as the tool's own
    verb (see `_use_of`). Name and parameter signals, and texts not read here, stand."""
    if signal.source != "description":
        return True
    text = _text_at(tool, signal)
    term = signal.term.strip("'")
    verb, _, obj = term.partition(" … ")
    if text is None or not verb or " " in verb:
        return True
    first_obj = obj.split()[0] if obj else None
    raw = _WORD.findall(text)
    low = [w.strip("`").lower() for w in raw]
    uses = [k for k, w in enumerate(low) if _form_of(w, verb, vocab)]
    if not uses or any(_use_of(raw, low, k, verb, first_obj, vocab) for k in uses):
        return True
    # The word is a noun here ("the user's name and email address"); the role still stands
    # when another of its verbs is used as one ("sends them to whatever URL or email
    # address"): the text says it, only the witness word was the wrong one.
    others = _role_verbs(vocab, signal.role) - {verb}
    return any(
        _use_of(raw, low, k, other, None, vocab)
        for k, w in enumerate(low)
        for other in others
        if w[:1] == other[:1]
        and _form_of(w, other, vocab)
        # a gerund after a preposition names an activity ("context for scheduling")
        and not (w.endswith("ing") and k > 0 and low[k - 1] in _PREPOSITIONS)
    )


_ROLE_VERBS: dict[tuple[int, str], tuple[RoleVocabulary, frozenset[str]]] = {}


def _role_verbs(vocab: RoleVocabulary, role: str) -> frozenset[str]:
    """The verbs by which the vocabulary's prose rules give `role`."""
    held = _ROLE_VERBS.get((id(vocab), role))
    if held is None or held[0] is not vocab:
        verbs = frozenset().union(
            *(r.verbs for r in vocab.rules if r.role == role and r.source == "description")
        )
        held = _ROLE_VERBS[(id(vocab), role)] = (vocab, verbs)
    return held[1]


def _tool_texts(tool: Tool) -> list[str]:
    """The title, the description and every top-level parameter's description."""
    texts = [t for t in (tool.title, tool.description) if t]
    props = tool.input_schema.get("properties")
    if isinstance(props, dict):
        texts += [
            p["description"]
            for p in props.values()
            if isinstance(p, dict) and isinstance(p.get("description"), str)
        ]
    return texts


def _corroborated(tool: Tool, signal: RoleSignal, vocab: RoleVocabulary) -> bool:
    """A path parameter is written to when a writing verb of the vocabulary's path rule is in
    the tool's name or used as a verb in its prose; a writing word used as a noun ("the full
    diff patch", "line number for appending") is not that verb."""
    words = frozenset().union(
        *(r.corroborate for r in vocab.rules if r.role == signal.role and r.source == "parameter"
          and "path" in r.shapes)
    )  # fmt: skip
    if not words:
        return True
    name = {vocab.lemma(t) for t in name_tokens(tool.name)}
    if not words.isdisjoint(name):
        return True
    for text in _tool_texts(tool):
        raw = _WORD.findall(text)
        low = [w.strip("`").lower() for w in raw]
        for k, w in enumerate(low):
            for verb in words:
                if w[:1] != verb[:1] or not _form_of(w, verb, vocab):
                    continue
                if w.endswith("ing") and k > 0 and low[k - 1] in _PREPOSITIONS:
                    continue
                if _use_of(raw, low, k, verb, None, vocab):
                    return True
    return False


def _mutation_signals(tool: Tool, roles: ToolRoles) -> list[RoleSignal]:
    found = [s for s in roles.signals if s.role in MUTATING]
    # Sending is mutation too, when a verb says so (a URL parameter alone may be a plain GET).
    found += [s for s in roles.evidence("external-sink") if s.source != "parameter"]
    vocab = vocabulary()
    return [
        s
        for s in found
        if _said_of_the_tool(tool, s, vocab)
        and not (
            s.source == "parameter" and s.role == "file-write" and not _corroborated(tool, s, vocab)
        )
    ]


def _annotation_findings(tool: Tool, roles: ToolRoles, ctx: CheckContext) -> Iterator[Finding]:
    i, base = roles.index, f"tools[{roles.index}].annotations"
    read_only, destructive = tool.hint("readOnlyHint"), tool.hint("destructiveHint")
    mutation = _mutation_signals(tool, roles) if read_only is True else []
    if read_only is True and mutation:
        tokens = name_tokens(tool.name)
        severity, confidence = _graded(mutation, _options(tool, i), tokens[0] if tokens else "")
        kinds = sorted({s.role for s in mutation})
        yield ctx.rules.finding(
            "TW-CAP-001",
            tool=tool.name,
            location=f"{base}.readOnlyHint",
            message=f"declared read-only, but its own metadata says: {', '.join(kinds)}",
            evidence="; ".join(sorted({f"{s.role}: {s.term}" for s in mutation})[:4]),
            witnesses=(_hint_witness(tool, i, "readOnlyHint"), *_witnesses(tool.name, mutation)),
            severity=severity,
            confidence=confidence,
        )
    wipes = roles.evidence("destructive")
    if wipes and read_only is not True and destructive is False:
        strong = any(s.source in _STRONG for s in wipes)
        yield ctx.rules.finding(
            "TW-CAP-002",
            tool=tool.name,
            location=f"{base}.destructiveHint",
            message="declared non-destructive, but its metadata says it deletes or overwrites",
            evidence="; ".join(sorted({s.term for s in wipes})[:4]),
            witnesses=(_hint_witness(tool, i, "destructiveHint"), *_witnesses(tool.name, wipes)),
            severity=None if strong else Severity.LOW,
            confidence=None if strong else Confidence.HEURISTIC,
        )
    if wipes and read_only is not True and destructive is None:
        yield ctx.rules.finding(
            "TW-CAP-003",
            tool=tool.name,
            location=base if tool.annotations else f"tools[{i}]",
            message="deletes or overwrites, and does not declare destructiveHint",
            evidence="; ".join(sorted({s.term for s in wipes})[:4]),
            witnesses=_witnesses(tool.name, wipes),
        )
    yield from _world_findings(tool, roles, ctx)
    if read_only is True and destructive is True:
        yield ctx.rules.finding(
            "TW-CAP-006",
            tool=tool.name,
            location=base,
            message="readOnlyHint and destructiveHint are both true",
            witnesses=(
                _hint_witness(tool, i, "readOnlyHint"),
                _hint_witness(tool, i, "destructiveHint"),
            ),
        )


_DESTINATIONS = frozenset(("url", "webhook", "recipient"))
_SAYING_REACH = frozenset(("network", "untrusted-input", "external-sink"))
_REACH_VERBS: dict[int, tuple[RoleVocabulary, frozenset[str], frozenset[str]]] = {}


def _reach_words(vocab: RoleVocabulary) -> tuple[frozenset[str], frozenset[str]]:
    """(verbs that send to or fetch from a place, name words that only name a URL value).

    The verbs are those of the vocabulary's own network rules, the name words of its sink rule
    and the words that corroborate a URL parameter as fetched: a tool whose name holds none of
    them encodes, shortens, registers or stores a URL (`url_encode`, `shorten_url`), it does not
    go there. The URL words are the url shape's parameter names (`url`, `uri`, `link`)."""
    hit = _REACH_VERBS.get(id(vocab))
    if hit is None or hit[0] is not vocab:
        verbs: set[str] = set()
        for rule in vocab.rules:
            if rule.role == "network":
                verbs |= rule.verbs
            elif rule.role == "external-sink" and rule.source == "name":
                verbs |= rule.any
            elif rule.role == "untrusted-input" and rule.source == "parameter":
                verbs |= rule.corroborate
        url = vocab.shapes.get("url")
        names = (url.names | url.last_token) if url is not None else frozenset()
        hit = (vocab, frozenset(verbs), frozenset(names))
        _REACH_VERBS[id(vocab)] = hit
    return hit[1], hit[2]


def _place(value: str) -> bool:
    """A URL (`scheme://host`) or an e-mail address (`local@domain.tld`), without spaces."""
    if " " in value:
        return False
    if "://" in value:
        return True
    local, at, domain = value.partition("@")
    return bool(at and local and "." in domain.strip("."))


def _open_world_reach(tool: Tool, roles: ToolRoles, reach: list[RoleSignal]) -> list[RoleSignal]:
    """The reach signals that show the tool goes to hosts or recipients it is *given*.

    * A URL or recipient parameter is a place the tool goes only when the tool says it goes
      somewhere (a reach verb in its name, or a network, fetching or sending clause in its
      prose), when the parameter is a callback (`webhook`), or when its schema offers a value
      (a default host is a place the tool goes without being told). `store_secret(url)` stores
      the URL as data; `shorten_url(url)` computes from it.
    * A name word that only names a URL value (`url_encode`) is the tool's object, not a place,
      under the same condition.
    * A sink named only by the tool's name (`submit_*`, `create_page`, `share_*`) reaches the
      tool's own service unless the tool also takes a destination that counts by the first
      point: that service is the closed world the hint declares.
    """
    vocab = vocabulary()
    verbs, url_words = _reach_words(vocab)
    lemmas = vocab.lemmas.get
    name = {lemmas(t, t) for t in name_tokens(tool.name)}
    says = not verbs.isdisjoint(name) or any(
        s.source == "description" and s.role in _SAYING_REACH for s in roles.signals
    )
    offered = {v.param for v in roles.values if v.keyword in ("default", "const", "examples")}
    # A default that is itself a host or an address (`forward_copy: "x@elsewhere.net"`) is a
    # place the tool goes, whatever the parameter is called.
    placed = {
        v.param for v in roles.values if v.keyword in ("default", "const") and _place(v.value)
    }
    given: set[str] = set()  # locations of destination parameters that count
    idle: set[str] = set()  # locations of those that do not
    sources = fetched_sources(roles)
    for param in roles.params:
        if param.shapes.isdisjoint(_DESTINATIONS) or param.location in sources:
            continue  # a source (`photo_url`) is reached, but it is not where data goes
        if says or "webhook" in param.shapes or param.name in offered:
            given.add(param.location)
        else:
            idle.add(param.location)
    if placed:
        given |= {p.location for p in roles.params if p.name in placed} or {"default"}
    kept: list[RoleSignal] = []
    for signal in reach:
        if signal.source == "parameter" and signal.location in idle:
            continue
        if signal.source == "name" and not says and signal.role == "network" and any(
            f"'{w}'" in signal.term for w in url_words
        ):
            continue
        if signal.source == "name" and signal.role == "external-sink" and not given:
            continue
        kept.append(signal)
    return kept


def fetched_sources(roles: ToolRoles) -> frozenset[str]:
    """Locations of URL parameters named for what the tool fetches to work on (`file_url`,
    `photo_url`, `audio_url`; roles.yaml `fetched_objects`) and not callbacks or recipients: the
    tool reads from a host it is given there, it sends nothing to it."""
    fetched = vocabulary().fetched_objects
    return frozenset(
        p.location
        for p in roles.params
        if "url" in p.shapes
        and p.shapes.isdisjoint(("webhook", "recipient"))
        and not fetched.isdisjoint(name_tokens(p.name))
    )


def _world_findings(tool: Tool, roles: ToolRoles, ctx: CheckContext) -> Iterator[Finding]:
    base = f"tools[{roles.index}].annotations.openWorldHint"
    open_world = tool.hint("openWorldHint")
    reach = roles.evidence("network") + [
        s for s in roles.evidence("external-sink") if s.source != "parameter"
    ]
    if open_world is False and reach:
        reach = _open_world_reach(tool, roles, reach)
    if open_world is False and reach:
        # Only fetching from a URL it is given (`photo_url`): an inexact hint, not a place the
        # tool sends data to, so a low finding.
        sources = fetched_sources(roles)
        strong = any(
            s.source in _STRONG and not (s.source == "parameter" and s.location in sources)
            for s in reach
        )
        yield ctx.rules.finding(
            "TW-CAP-004",
            tool=tool.name,
            location=base,
            message="declared closed-world, but it reaches hosts or recipients it is given",
            evidence="; ".join(sorted({f"{s.role}: {s.term}" for s in reach})[:4]),
            witnesses=(
                _hint_witness(tool, roles.index, "openWorldHint"),
                *_witnesses(tool.name, reach),
            ),
            severity=None if strong else Severity.LOW,
            confidence=None if strong else Confidence.HEURISTIC,
        )
    secrets = roles.evidence("credential-access")
    if open_world is True and secrets:
        yield ctx.rules.finding(
            "TW-CAP-005",
            tool=tool.name,
            location=base,
            message="reads credentials and declares that it interacts with an open world",
            evidence="; ".join(sorted({s.term for s in secrets})[:4]),
            witnesses=(
                _hint_witness(tool, roles.index, "openWorldHint"),
                *_witnesses(tool.name, secrets),
            ),
        )


def _free(params: list[ParamShape]) -> list[ParamShape]:
    return [p for p in params if not p.constrained]


def _param_witness(tool: str, param: ParamShape, shape: str) -> Witness:
    return Witness(
        kind="field",
        symbol=tool,
        path=(param.location,),
        detail=f"{shape} parameter, unconstrained",
    )


def _unstated_commands(tool: Tool, roles: ToolRoles) -> frozenset[str]:
    vocab = vocabulary()
    found = mismatches(roles, purpose_of(tool, roles, vocab), NO_HABITS, vocab)
    return frozenset(m.param.location for m in found if m.shape == "command")


def _parameter_findings(tool: Tool, roles: ToolRoles, ctx: CheckContext) -> Iterator[Finding]:
    name = roles.tool
    commands = _free(roles.shaped("command"))
    if roles.has("code-exec", sources=("name", "description")):
        for param in commands + _free(roles.shaped("code")):
            yield ctx.rules.finding(
                "TW-CAP-010",
                tool=name,
                location=param.location,
                message="the tool executes, and this parameter takes any command or code",
                evidence=param.name,
                witnesses=(_param_witness(name, param, "command"),),
            )
    else:
        # A command parameter the stated purpose never accounts for is TW-CAP-014's finding;
        # this one is left for those the purpose names ("sends a command to the device").
        unstated = _unstated_commands(tool, roles)
        for param in roles.shaped("command"):
            if param.location in unstated:
                continue
            yield ctx.rules.finding(
                "TW-CAP-013",
                tool=name,
                location=param.location,
                message="a command-shaped parameter on a tool that never says it runs anything",
                evidence=param.name,
                witnesses=(_param_witness(name, param, "command"),),
            )
    if roles.has("network") or roles.has("external-sink"):
        for param in _free(roles.shaped("url") + roles.shaped("webhook")):
            yield ctx.rules.finding(
                "TW-CAP-011",
                tool=name,
                location=param.location,
                message="the tool reaches a URL it is given, with no allowlist on the parameter",
                evidence=param.name,
                witnesses=(_param_witness(name, param, "url"),),
            )
    writes = roles.has("file-write") or roles.has("destructive")
    if writes or roles.has("sensitive-source"):
        for param in _free(roles.shaped("path")):
            yield ctx.rules.finding(
                "TW-CAP-012",
                tool=name,
                location=param.location,
                message=f"the tool {'writes' if writes else 'reads'} any path it is given",
                evidence=param.name,
                witnesses=(_param_witness(name, param, "path"),),
                severity=None if writes else Severity.INFO,
            )


@server_check(
    "capability.annotations",
    ["TW-CAP-001", "TW-CAP-002", "TW-CAP-003", "TW-CAP-004", "TW-CAP-005", "TW-CAP-006"],
)
def annotation_contradictions(surface: ServerSurface, ctx: CheckContext) -> Iterator[Finding]:
    for tool, roles in zip(surface.tools, surface_roles(surface), strict=True):
        # Every finding but TW-CAP-006 needs a signal of one of these roles (mutation, wipes,
        # reach or secrets); TW-CAP-006 needs both hints true. Other tools give nothing.
        if _CONTRADICTABLE.isdisjoint([s.role for s in roles.signals]) and not (
            tool.hint("readOnlyHint") is True and tool.hint("destructiveHint") is True
        ):
            continue
        yield from _annotation_findings(tool, roles, ctx)


@server_check("capability.parameters", ["TW-CAP-010", "TW-CAP-011", "TW-CAP-012", "TW-CAP-013"])
def unconstrained_parameters(surface: ServerSurface, ctx: CheckContext) -> Iterator[Finding]:
    for tool, roles in zip(surface.tools, surface_roles(surface), strict=True):
        if roles.params:  # every finding names one of the tool's shaped parameters
            yield from _parameter_findings(tool, roles, ctx)
