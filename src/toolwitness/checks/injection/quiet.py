"""TW-INJ fast paths: prove that a text, or a whole tool, cannot yield a finding.

Every test here is a detector gate's own necessary condition or a proved superset of it, so a
skipped text or tool is one the per-field pass would have found silent; anything undecided goes
through that pass unchanged (tests/test_injection_gates.py checks each shortcut against the
exact computation).
"""

from __future__ import annotations

from typing import Any

from toolwitness.checks.injection import payloads as inj_payloads
from toolwitness.checks.injection import targets as inj_targets
from toolwitness.checks.injection import triggers as trig
from toolwitness.checks.injection.decoders import may_encode
from toolwitness.checks.injection.detect import (
    CONTEXT_FREE,
    DETECTORS,
    INERT,
    NAME_DETECTORS,
    WORDLIKE,
    Detector,
    context_free,
    shared_text_gates,
    short_cache,
)
from toolwitness.checks.injection.frames_custody import may_name_abbreviated_secret
from toolwitness.checks.injection.frames_elsewhere import may_read_elsewhere
from toolwitness.checks.injection.frames_shadow import may_rewire
from toolwitness.checks.injection.outside_tools import may_name_outside_tool
from toolwitness.checks.injection.params import may_ask
from toolwitness.checks.injection.split import is_prose, may_number_parts
from toolwitness.checks.text.language import split_identifier
from toolwitness.checks.text.lexicon import Lexicon, lexicon
from toolwitness.checks.text.secrets_scan import Needles, may_hold_secret, token_needles
from toolwitness.checks.unicode.decode import reveal_hidden
from toolwitness.checks.unicode.terminal import has_terminal_controls
from toolwitness.model import POLICY_HINTS, Tool, key_kind
from toolwitness.plainclass import plainclass
from toolwitness.textnorm import nfc


def nothing_hidden(text: str) -> bool:
    """True only when `reveal_hidden(text)` is empty: for ASCII text it reports the terminal
    channel alone, which needs terminal controls (control characters, absent from printable
    ASCII)."""
    return text.isascii() and (text.isprintable() or not has_terminal_controls(text))


# (authority and secrecy: their bits, then the words their readings start from, below)
_TEXT_BITS = trig.RANKING | trig.OTHER_TOOL | trig.INTENT
_SEQUENCE_BITS = trig.SEQ_MARKER | trig.SEQ_SCOPE


@plainclass(frozen=True)
class GateTables:
    """What the closed-gate tests read, fetched once per lexicon."""

    lex: Lexicon
    triggers: trig.Triggers
    anchors: dict[str, tuple[tuple[str, frozenset[str]], ...]]
    needles: Needles


_TABLES: list[GateTables] = []


def gate_tables() -> GateTables:
    lex = lexicon()
    if not _TABLES or _TABLES[0].lex is not lex:
        _TABLES[:] = [
            GateTables(lex, trig.triggers(lex), inj_targets.target_anchors(lex), token_needles())
        ]
    return _TABLES[0]


def text_gates_closed(text: str, tables: GateTables, shared: bool = False) -> frozenset[str] | None:
    """The text's word set when every gate in `_text_gates` is closed, else None (undecided).
    Each test below is the gate's own test or a superset of it (see the functions called).

    `shared`: read the words and mask from `trig.scan`'s cache (whose lexicon must be
    `tables.lex`): a field's text that stays undecided is scanned again by the gates
    (`detect.shared_text_gates`), and a quiet one may be by the per-field pass. A joined
    header, never scanned again, is not (it would only take the cache's room)."""
    if "<" in text or "[" in text or "#" in text or "@" in text or "://" in text:
        return None  # authority markup, shadowing addresses, URLs
    if may_name_outside_tool(text):
        return None  # a tool name that sends data away, in a code span
    # (The tests are independent and the answer is None when any opens, so they run cheapest
    # and most often open first: the word gates read one tokenising pass, which the gates
    # read again when the text stays undecided; the secret scans below them cost more and open
    # less often, so a text a word gate opens skips them.)
    if shared:
        # the same words and mask: `gate_mask` is `mask_of` on the lexicon's trigger table
        # with the apostrophe test on, which finds "n't" only in a word holding "'"
        scanned = trig.scan(text)
        lower, words, mask = scanned.lower, scanned.words, scanned.mask
    else:
        lower, words = trig.scan_words(text)
        mask = trig.mask_of(words, tables.triggers, "'" in lower)  # tokens are folded like `lower`
    if mask & _TEXT_BITS or mask & _SEQUENCE_BITS == _SEQUENCE_BITS:
        return None
    if trig.frames_may_open(mask, text, lower, words):
        return None  # the frames' own gates (those of five frames that read words of their own
        # included: they were asked only under the secrecy or authority bits, which their
        # words need not set)
    # The secrecy and authority gates, narrowed by their words as `_text_gates` narrows them.
    if mask & trig.SECRECY and trig.secrecy_may_fire(words, tables.lex):
        return None
    if trig.authority_may_open(mask) and trig.authority_may_fire(words, tables.lex):
        return None  # (the authority gate's markup half is tested above)
    if may_rewire(text, words):
        return None  # the shadowing frame's gate (a tool-shaped name and a use marker)
    runs = inj_targets.word_runs(text, lower, words)
    if inj_targets.mentions_in_index(runs, tables.anchors):
        return None
    if trig.shell_may_open_in(text, lower, runs, tables.triggers):
        return None
    if may_hold_secret(text, tables.needles, tables.lex):
        return None  # credentials
    if may_name_abbreviated_secret(text):
        return None  # a secret named by its abbreviation, in any language
    if "/" in text and inj_payloads.may_hold_ip_url(text):  # the IP-URL pattern holds a "/"
        return None
    # last: the language test costs more than the word gates above, which settle most texts
    if may_read_elsewhere(text):
        return None  # concealment, the whole chat asked for, precedence: in another language
    return words


def _frames_behind_the_bits(text: str, words: frozenset[str]) -> bool:
    """The gates of five frames (consent, scripted answers, ordered authority, grants, policy
    keys) that the quiet test asked only under the secrecy or authority bits up to the
    twenty-sixth pass; `trig.frames_may_open` now asks them of every text."""
    return trig.word_frames_may_open(text, words)


def closed_words(text: str, identifier: bool) -> frozenset[str] | None:
    """`quiet_words` of an already-joined identifier or a non-word text whose gates are all
    closed (so the context-free detectors are silent), or None when undecided."""
    tables = gate_tables()
    if identifier:
        # The joined words of `split_identifier` are [a-z0-9]+ with single spaces: its tokens,
        # word set and fold are the words and the text itself, and no markup character occurs.
        words = frozenset(text.split())
        name_mask = trig.mask_of(words, tables.triggers)
        if name_mask & trig.INTENT:
            return None
        if trig.authority_may_open(name_mask) and trig.authority_may_fire(words, tables.lex):
            return None
        quiet: frozenset[str] | None = frozenset()
    else:
        quiet = text_gates_closed(text, tables, shared=tables.lex is lexicon())
        if quiet is None:
            return None
        words = quiet
    if may_encode(text, words) and next(iter(inj_payloads.decode_payloads(text, words)), None):
        return None
    return quiet


@short_cache
def quiet_words(raw: str, identifier: bool) -> frozenset[str] | None:
    """Words of a field whose every signal source is closed by its text alone, except the
    shadowing gate's sibling-name test (the one gate that reads the tool's context); None when
    the field needs the full per-field pass. Cached: catalogs repeat strings."""
    text = raw if raw.isascii() else nfc(raw)  # ASCII text is already in NFC
    if not nothing_hidden(text) and any(revealed.text for revealed in reveal_hidden(text)):
        return None
    if identifier:
        text = " ".join(split_identifier(text))
        chosen = NAME_DETECTORS
    else:
        chosen = () if WORDLIKE.fullmatch(text) else DETECTORS
    if not chosen:
        return frozenset()
    fast = closed_words(text, identifier)
    return fast if fast is not None else gated_words(text, chosen)


def gated_words(text: str, chosen: tuple[Detector, ...]) -> frozenset[str] | None:
    """`quiet_words` through the gates themselves (and the context-free detectors)."""
    names_only = chosen is NAME_DETECTORS
    opened = shared_text_gates(text, names_only)
    # With every gate closed the context-free detectors are silent: skip computing them.
    if not opened.isdisjoint(chosen) and context_free(text, names_only):
        return None
    words = trig.scan(text).words
    if may_encode(text, words) and next(iter(inj_payloads.decode_payloads(text, words)), None):
        return None
    if not opened.isdisjoint(d for d in chosen if d not in CONTEXT_FREE):
        return None
    return trig.scan(text).words if inj_targets.shadowing in chosen else frozenset()


_PLAIN_ANNOTATIONS = frozenset({"title", *POLICY_HINTS})
_CONTAINERS = (dict, list)
_SCALARS = frozenset({int, float, bool, type(None)})


class QuietTools:
    """Decides whether a tool's per-field pass would yield nothing, remembering each distinct
    string's verdict for one server (the memos hold the surface's own string objects)."""

    def __init__(self, siblings: frozenset[str], lex: Lexicon) -> None:
        self.siblings = siblings
        self.lex = lex
        self.keys: set[str] = set()  # identifiers whose gates are all closed
        # True: skippable in any tool; False: never; else the sibling names the text holds
        self.texts: dict[str, bool | frozenset[str]] = {}
        self.silent: set[str] = set()  # property descriptions that cannot ask for data
        self.prose: list[str] = []  # the prose strings of the tool being walked (see `split`)

    def _verdict(self, text: str) -> bool | frozenset[str]:
        if INERT.fullmatch(text):
            return True
        quiet = quiet_words(text, False)
        if quiet is None:
            return False
        return frozenset(quiet & self.siblings) or True

    def text(self, text: str, own: str) -> bool:
        """The per-field skip test of `tool_poisoning` for a non-identifier text."""
        verdict = self.texts.get(text)
        if verdict is None:
            verdict = self.texts[text] = self._verdict(text)
        if isinstance(verdict, bool):
            return verdict
        return all(w == own for w in verdict)

    def key(self, key: Any) -> bool:
        """The same test for an identifier (its quiet word set is always empty); a key that is
        not a string (only possible for a surface built in Python) is left undecided."""
        if not isinstance(key, str) or quiet_words(key, True) is None:
            return False
        if key_kind(key) == "key-text" and self._verdict(key) is not True:
            return False  # a key holding a sentence is also read as text
        self.keys.add(key)
        return True

    def asks(self, description: str) -> bool:
        if may_ask(description, self.lex):
            return True
        self.silent.add(description)
        return False

    def tool(self, tool: Tool, own: str) -> bool:
        """True when the per-tool pass would yield nothing: a superset of its fields is quiet.

        `tool_text_fields` yields the name (an identifier), the title, description, annotation
        title, from the annotations, `_meta`, icons, vendor fields and schemas their string
        values and keys (as identifiers, or as text when a key holds a sentence). Here every key
        of every such object is read as an identifier (and as text when it holds a sentence) and
        every string value as text, so each field it yields is tested with its own kind.
        Parameter signals need a property description that `may_ask`; every such description is
        a string under a "description" key of the input schema, tested here too."""
        shown = tool.annotations.get("title") if tool.annotations else None
        header = [t for t in (tool.title, tool.description, shown) if isinstance(t, str)]
        self.prose = [t for t in header if is_prose(t)]
        if not self.schema(tool.input_schema, own, ask=True):
            return False
        fault = tool.input_schema_fault
        # Annotations holding only boolean policy hints and a string title (a header text)
        # carry no other text.
        ann = tool.annotations
        plain = not ann or (
            ann.keys() <= _PLAIN_ANNOTATIONS
            and all(v.__class__ is bool for k, v in ann.items() if k != "title")
            and ann.get("title", "").__class__ is str
        )
        others = (None if plain else ann, tool.meta, tool.icons, tool.extra, fault and fault.value)
        if not all(self.schema(value, own, ask=False) for value in others if value):
            return False
        if tool.output_schema is not None and not self.schema(tool.output_schema, own, ask=False):
            return False
        # The joined-prose pass (`split`) reads every prose field of the tool as one text: the
        # header test of that join covers it, and the header texts with it. Pieces numbered or
        # labelled across fields ("(1/2)", "1. rész:") open no word gate: asked first.
        if len(self.prose) >= 2 and may_number_parts(self.prose):
            return False
        if self.header(tool.name, [*header, *self.prose[len(header) :]], own):
            return True
        if len(self.prose) >= 2:
            return False  # the join opens a gate: the split pass may fire
        if tool.name not in self.keys and not self.key(tool.name):
            return False
        texts = self.texts
        return all(texts.get(text) is True or self.text(text, own) for text in header)

    def header(self, name: str, texts: list[str], own: str) -> bool:
        """True when the name and the texts are all quiet, read as one text (else undecided).

        The texts and the name's words are joined with newlines. Every closed-gate test is
        monotone under such a join: substrings and the IP-URL match survive (a newline is a
        non-word boundary), the tokens, words and letter/digit runs of the join are the union
        of each part's (no token or run crosses a newline), and each gate mask is monotone in
        the word set (a name's gates are a subset of a text's). An encoded run of a part is a
        whitespace-free run of the join, and its words hold each part's words, so the sibling
        test is conservative. Hidden text is ruled out part by part."""
        if not nothing_hidden(name) or not all(nothing_hidden(t) for t in texts):
            return False  # (ASCII only, so every part is its own NFC form)
        joined = "\n".join([" ".join(split_identifier(name)), *texts])
        words = text_gates_closed(joined, gate_tables())
        if words is None or may_encode(joined, words):
            return False
        return words.isdisjoint(self.siblings) or all(w == own for w in words & self.siblings)

    def schema(self, root: Any, own: str, *, ask: bool) -> bool:
        """Every key (as a name) and string value of a schema, at any depth. JSON values are
        exact built-in types: the class is compared first, `isinstance` only for others."""
        keys, texts, silent, prose = self.keys, self.texts, self.silent, self.prose
        stack: list[Any] = [root]
        while stack:
            node = stack.pop()
            if isinstance(node, dict):
                for key, value in node.items():
                    if key not in keys and not self.key(key):
                        return False
                    if " " in key or (not key.isascii() and is_prose(key)):
                        prose.append(key)  # a key holding a sentence is a prose field
                    kind = value.__class__
                    if kind is str or (kind not in _SCALARS and isinstance(value, str)):
                        if texts.get(value) is not True and not self.text(value, own):
                            return False
                        if " " in value or (not value.isascii() and is_prose(value)):
                            prose.append(value)
                        asks = ask and key == "description" and value not in silent
                        if asks and self.asks(value):
                            return False
                    elif kind in _CONTAINERS or (
                        kind not in _SCALARS and isinstance(value, _CONTAINERS)
                    ):
                        stack.append(value)
            elif isinstance(node, list):
                for value in node:
                    kind = value.__class__
                    if kind is str or (kind not in _SCALARS and isinstance(value, str)):
                        if texts.get(value) is not True and not self.text(value, own):
                            return False
                        if " " in value or (not value.isascii() and is_prose(value)):
                            prose.append(value)
                    elif kind in _CONTAINERS or (
                        kind not in _SCALARS and isinstance(value, _CONTAINERS)
                    ):
                        stack.append(value)
            elif isinstance(node, str):
                if not self.text(node, own):
                    return False
                if " " in node or (not node.isascii() and is_prose(node)):
                    prose.append(node)
        return True
