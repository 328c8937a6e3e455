"""Cheap necessary conditions for each detector, so ordinary descriptions skip the full rules.

Every gate is a *superset* test: a detector can only emit a signal when its gate is open (each
signal needs one of these words or characters), so skipping on a closed gate changes no result.
A phrase can only match when all its words occur as tokens, so a phrase opens its gate only when
its longest word and every other word are present. Word sets come from the lexicon once, with
inflected verb forms; each text's gate mask is computed in one pass over its words, from a
tokenising pass alone (`scan`), so a text whose gates are all closed is never fully analysed.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from toolwitness.checks.injection.slots import slots
from toolwitness.checks.text.language import Analysis, fold, lower_ascii_tokens, token_texts
from toolwitness.checks.text.lexicon import Lexicon, Phrase, lexicon, model_possessives
from toolwitness.checks.text.wordnet import lexical_classes
from toolwitness.lazyre import lazy_compile
from toolwitness.plainclass import plainclass

AUTHORITY = 1
SECRECY = 2
SEQ_MARKER = 4
SEQ_SCOPE = 8
RANKING = 16
OTHER_TOOL = 32
INTENT = 64
# Frame gates (checks/injection/frames*.py): each frame needs a word of both halves of a pair.
RANK, RANK_ARG = 128, 256  # prioritize/obey/deem/prevail/yield  x  this text, instructions
ROLE = 512  # a chat-role word (with a ":" in the text)
HIDE = 1024  # conceal verbs, covert adverbs, hidden adjectives
KEEP, KEEP_ARG = 2048, 4096  # keep/remain/without  x  out/away/hidden/telling
RUN, COMMAND = 8192, 16384  # run/execute  x  a command word (or a code span)
LURE = 32768  # obsolete/retired, offensive verbs, attack nouns
AIM, AIM_ARG = 65536, 131072  # intrusive operations  x  a target, remote or vulnerable system
TAKE, SECRET = 1 << 18, 1 << 19  # acquire/pass on  x  a secret or sign-in material
CALL, ORDER = 1 << 20, 1 << 21  # call/use  x  before/after/first (dependency injection)
SEND, ENDPOINT = 1 << 22, 1 << 23  # contact/send  x  an endpoint or third party (or a URL)
EXPOSED = 1 << 24  # a vulnerable/exposed system or sensitive data: any action verb completes it
SEE = 1 << 25  # come to know / come into view: negated, it conceals (with a negator, SECRECY)
CONVO = 1 << 26  # the conversation (with TAKE: moved into an argument)
VOID = 1 << 27  # expired, revoked, void (with RANK_ARG: "your previous directions have expired")
SEEK = 1 << 28  # search/query/hunt: an action verb only for EXPOSED (an exposed system, secrets)
PORTRAY, CONCEDE = 1 << 29, 1 << 30  # report/describe x even/regardless (a misreported state)
ASKED = 1 << 31  # "if someone asks": with a negator (SECRECY), a scripted denial
BANK = 1 << 32  # a bank or banking: with SECRET, a bank sign-in secret a parameter holds
EARLIER = 1 << 33  # earlier/previously: with CONVO, data recalled from the chat into a parameter
ACT = RUN | TAKE | CALL | SEND | AIM | SEEK  # the action verbs (the other half of EXPOSED)

# verbs of including something in a record (negated: frames._left_out_of_record) and the
# restricting adverbs of "describe it only as …" (frames._misreported): one list each, read by
# the frame and by its gate
INCLUDE_WORDS = frozenset({"include", "includes", "including", "add", "list", "mention", "put"})
ONLY_WORDS = frozenset({"only", "merely", "solely"})
# Verbs that put a value into an argument when one of the tool's own arguments is named with
# them ("set `units` to the user's …", "log the card number in `trace`"): the action frames.
ASSIGN_WORDS = frozenset({"set", "fill", "populate", "log", "record", "store", "save", "write",
                          "note", "keep", "quote", "repeat"})  # fmt: skip
# verbs of a person asking (frames._scripted_denial reads them after "if someone …")
# Verbs that, before "as", make their subject stand for something ("counts as", "serves as").
COUNT_WORDS = frozenset({"count", "counts", "counted", "serve", "serves", "act", "acts", "stand",
                         "stands", "qualify", "qualifies", "rank", "ranks", "function",
                         "functions"})  # fmt: skip
ASK_WORDS = frozenset({"ask", "asks", "asked", "asking", "inquire", "inquires", "enquire",
                       "enquires", "questions", "wonders", "checks"})  # fmt: skip

_SHELL_SPLIT = lazy_compile(r"[\s;.!?<>]+")


def inflections(verbs: frozenset[str]) -> frozenset[str]:
    """Base forms plus every inflected form `language.base_form` accepts (the lemmatiser's)."""
    return lexical_classes().inflect(verbs)


def _key(phrase: Phrase) -> str:
    """The word a phrase is indexed by: its longest (ties broken alphabetically)."""
    return max(phrase, key=lambda w: (len(w), w))


@plainclass(frozen=True)
class Triggers:
    bits: dict[str, int]  # word -> detectors it opens on its own
    # longest word -> (detectors, the phrase's other words): opens only when all of them occur
    phrases: dict[str, tuple[tuple[int, frozenset[str]], ...]]
    shell: frozenset[str]
    keys: frozenset[str]  # every word of `bits` and `phrases`
    shell_runs: frozenset[str]  # the shell words made of [a-z0-9] only
    shell_other: tuple[str, ...]  # the rest, tested as substrings
    # every key -> (its own bits, its phrases): `bits` and `phrases` in one lookup
    entries: dict[str, tuple[int, tuple[tuple[int, frozenset[str]], ...]]]


_CACHE: dict[int, tuple[Lexicon, Triggers]] = {}


def triggers(lex: Lexicon | None = None) -> Triggers:
    """The trigger table of a lexicon, computed once per lexicon object."""
    lex = lex or lexicon()
    held = _CACHE.get(id(lex))
    if held is not None and held[0] is lex:
        return held[1]
    built = _build(lex)
    _CACHE[id(lex)] = (lex, built)
    return built


# Words that put a side below another with no WordNet class of their own (frames_rank): an
# ordinal before "to" ("comes second to") and a word of nullity ("is void where …").
ORDINALS_BELOW = frozenset({"second", "secondary", "last"})
VOID_WORDS = frozenset({"void", "null", "invalid", "moot"})
UNDER_WORDS = frozenset({"below", "beneath", "under", "underneath", "behind"})
# Words that put data in the chat's past ("mentioned earlier in the conversation").
EARLIER_WORDS = frozenset({"earlier", "previously", "before", "already"})
# Nouns of a dispute between two sides (frames_rank: "these notes settle any disagreement …").
DISPUTE_WORDS = frozenset({"disagreement", "disagreements", "conflict", "conflicts",
                           "discrepancy", "discrepancies", "contradiction", "contradictions",
                           "clash", "clashes"})  # fmt: skip


def _build(lex: Lexicon) -> Triggers:
    fr = lex.framing
    action_verbs = frozenset().union(*(v for v, _ in lex.intent["actions"]))
    sl = slots()
    words = {
        RANK: sl.of("prioritize", "obey", "deem", "prevail", "submit", "precedence", "subordinate",
                    "governing", "conflict")  # conflict: "if they clash, go with this"
        | {"ahead", "replace", "replaces", "replacing", "replaced", "supplant", "supplants",
           "supplanting"}
        | COUNT_WORDS  # "counts as developer instructions"
        | {"otherwise"}  # "even where the user's instructions say otherwise"
        # frames_rank: "sits above", "comes second to", "ranks beneath", "is void where …"
        | sl.of("comparator") | ORDINALS_BELOW | VOID_WORDS | UNDER_WORDS | DISPUTE_WORDS,
        RANK_ARG: sl.of("self", "instruction", "person") | {"this", "these"}
        | model_possessives(lex),  # "the assistant's configuration": the model's own things
        ROLE: sl.of("role"),
        HIDE: sl.of("conceal", "covert", "hidden"),
        KEEP: sl.of("keep") | {"without"},
        KEEP_ARG: sl.of("away", "hidden", "communicate", "disclosure", "remark")
        | INCLUDE_WORDS  # negated: frames._left_out_of_record
        | {"unaware", "uninformed", "oblivious", "unwitting"}
        | {"un" + w for w in sl.members["communicate"] if w.endswith(("ed", "n"))},
        RUN: sl.of("execute"),
        COMMAND: sl.of("command"),
        TAKE: sl.of("acquire", "transfer") | inflections(ASSIGN_WORDS),
        # (with "sign"/"log": "the words they use to sign in" is sign-in material)
        SECRET: sl.of("secret", "secret_modifier", "typed_secret")
        | {"sign", "signs", "log", "logs"},
        BANK: sl.of("bank"),
        EARLIER: EARLIER_WORDS,
        CALL: sl.of("call"),
        ORDER: sl.of("sequence") | {"instead", "rather", "place"},
        SEND: sl.of("contact", "transfer"),
        ENDPOINT: sl.of("endpoint", "third_party"),
        EXPOSED: sl.of("aimed_strong", "sensitive"),
        LURE: sl.of("obsolete", "retire", "offensive", "attack_noun", "longer"),
        SEE: sl.of("cognition", "appear"),
        CONVO: sl.of("conversation"),
        VOID: sl.of("obsolete") | fr["nullifiers"],
        AIM: sl.of("intrusive"),
        SEEK: sl.of("seek"),
        PORTRAY: sl.of("portray"),
        CONCEDE: frozenset({"even", "regardless", "whether"}) | ONLY_WORDS,
        ASKED: ASK_WORDS,
        AIM_ARG: sl.of("aimed"),
        AUTHORITY: inflections(lex.verbs["override"]) | fr["override_objects"],
        SECRECY: lex.negators | inflections(lex.verbs["concealment"]) | fr["secrecy_adverbs"],
        SEQ_SCOPE: fr["quantifiers"] | {"whenever"},  # (+ "whenever the user …")
        INTENT: (
            inflections(lex.intent["verbs"]) | lex.intent["markers"] | lex.intent["attack_heads"]
            | inflections(action_verbs)
        ),
    }  # fmt: skip
    phrases = {
        AUTHORITY: fr["identity"],
        SECRECY: fr["secrecy_phrases"],
        SEQ_MARKER: fr["sequence_markers"],
        SEQ_SCOPE: fr["universal_scope"],
        RANKING: fr["ranking_claims"],
        OTHER_TOOL: lex.other_tool_refs,
        INTENT: lex.intent["phrases"],
    }
    bits: dict[str, int] = {}
    for bit, group in words.items():
        for w in group:
            bits[w] = bits.get(w, 0) | bit
    by_key: dict[str, set[tuple[int, frozenset[str]]]] = {}
    for bit, group_phrases in phrases.items():
        for p in group_phrases:
            key = _key(p)
            if len(p) == 1:
                bits[key] = bits.get(key, 0) | bit
            else:
                by_key.setdefault(key, set()).add((bit, frozenset(p) - {key}))
    shell = (
        lex.shell["fetchers"]
        | lex.shell["decoders"]
        | frozenset(p[0] for p in lex.shell["dangerous"])
        | frozenset(p[0] for p in lex.shell["trust_changes"])
        | lex.shell["remote_readers"]  # "urlopen(": substrings (`payloads._evaluates_download`)
    )
    keyed = {k: tuple(sorted(v, key=repr)) for k, v in by_key.items()}
    return Triggers(
        bits=bits,
        phrases=keyed,
        entries={k: (bits.get(k, 0), keyed.get(k, ())) for k in set(bits) | set(keyed)},
        shell=shell,
        keys=frozenset(bits) | frozenset(by_key),
        shell_runs=frozenset(w for w in shell if w.isascii() and w.isalnum()),
        shell_other=tuple(sorted(w for w in shell if not (w.isascii() and w.isalnum()))),
    )


# A SQL statement in upper-case keywords ("SELECT * FROM users", "DROP TABLE", "DELETE FROM",
# "UPDATE accounts SET"): what the command frame reads as a query the model is told to run.
SQL_STATEMENT = lazy_compile(
    r"\b(?:SELECT\s+(?:\*|[\w.,\s]{1,80}?\s+FROM\b)|DELETE\s+FROM\b|DROP\s+(?:TABLE|DATABASE)\b"
    r"|TRUNCATE\s+TABLE\b|INSERT\s+INTO\b|UPDATE\s+\w{1,64}\s+SET\b|GRANT\s+ALL\b)"
)


def frame_gates(
    mask: int, text: str, lower: str | None = None, words: frozenset[str] | None = None
) -> tuple[bool, bool, bool]:
    """Whether the precedence, concealment and action frames may fire: a necessary condition
    of each (every frame needs a word of both halves of one pair, or the marks it reads).
    Precedence and concealment are then narrowed by the words their readings need
    (`frames_precedence.may_take_precedence`, `concealment_may_fire`), on the text's folded
    form and word set (`lower`, `words`: its `TextScan`'s, computed here when not given)."""
    precedence = (mask & RANK and mask & RANK_ARG) or (mask & ROLE and ":" in text)
    conceal = (
        mask & HIDE
        or (mask & KEEP and mask & KEEP_ARG)
        or (mask & SEE and mask & SECRECY)
        or (mask & PORTRAY and mask & CONCEDE)
        or (mask & PORTRAY and mask & SEND)  # "describe the upload as a routine refresh"
        or (mask & PORTRAY and mask & KEEP)  # "describe it as 'restored' and leave it there"
        or (mask & ASKED and mask & SECRECY)
        or (mask & ASKED and mask & CONCEDE)  # "if the client asks whether …, say yes"
        or (mask & KEEP_ARG and mask & SECRECY)  # "shall not enumerate them … to the user"
        or (mask & KEEP_ARG and ("drop" in text or "Drop" in text))  # "drop it from the report"
    )
    acts = (
        bool(mask & LURE)
        or bool(mask & AIM and mask & AIM_ARG)
        or bool(mask & ACT and mask & EXPOSED)
        or bool(mask & RUN and (mask & COMMAND or "`" in text or SQL_STATEMENT.search(text)))
        or bool(mask & (TAKE | CALL) and mask & (SECRET | CONVO))
        or bool(mask & SECRET and mask & BANK)  # frames_custody: a bank sign-in secret
        or bool(mask & CONVO and mask & EARLIER)  # data recalled from the chat
        or bool(mask & CALL and mask & ORDER)
        or bool(mask & SEND and (mask & ENDPOINT or "://" in text or "@" in text))
    )
    image = "![" in text or ("<" in text and "<img" in text.lower()) or (
        "{" in text and "://" in text  # a URL template (`_template_beacons`)
    )
    if precedence or conceal:
        if lower is None or words is None:
            lower, words = scan_words(text)
        precedence = precedence and _later().may_take_precedence(text, lower, words)
        conceal = conceal and concealment_may_fire(mask, lower, words)
    return bool(precedence), bool(conceal), acts or image


@plainclass(frozen=True)
class LaterGates:
    """Gates defined beside their readings, in modules that import this one (so imported at
    first use): precedence's words, and the five frames whose gates read words of their own."""

    may_take_precedence: Callable[[str, str, frozenset[str]], bool]
    may_bypass: Callable[[frozenset[str]], bool]
    may_script_answer: Callable[[frozenset[str]], bool]
    may_order_authority: Callable[[str], bool]
    may_grant: Callable[[frozenset[str], str], bool]
    may_set_off: Callable[[str, frozenset[str]], bool]


_LATER: list[LaterGates] = []


def _later() -> LaterGates:
    if not _LATER:
        from toolwitness.checks.injection.frames_consent import may_bypass
        from toolwitness.checks.injection.frames_grant import may_grant
        from toolwitness.checks.injection.frames_ordered import may_order_authority
        from toolwitness.checks.injection.frames_policy import may_set_off
        from toolwitness.checks.injection.frames_precedence import may_take_precedence
        from toolwitness.checks.injection.frames_scripted import may_script_answer

        gates = (may_bypass, may_script_answer, may_order_authority, may_grant, may_set_off)
        _LATER[:] = [LaterGates(may_take_precedence, *gates)]
    return _LATER[0]


def word_frames_may_open(text: str, words: frozenset[str]) -> bool:
    """The gates of five frames (consent, scripted answers, ordered authority, grants, policy
    keys), each asked as `detect._text_gates` asks it."""
    later = _later()
    return (
        later.may_bypass(words)
        or later.may_script_answer(words)
        or later.may_order_authority(text)
        or later.may_grant(words, text)
        or later.may_set_off(text, words)
    )


_HIDING_WORDS: list[tuple[object, frozenset[str]]] = []


def _hiding_words() -> frozenset[str]:
    sl = slots()
    if not _HIDING_WORDS or _HIDING_WORDS[0][0] is not sl:
        _HIDING_WORDS[:] = [(sl, sl.of("conceal", "keep", "covert"))]
    return _HIDING_WORDS[0][1]


# "drop" read as omitting before "from" and a record (`frames._dropped_from_record`)
DROP_WORDS = frozenset({"drop", "drops", "dropping", "dropped"})


def concealment_may_fire(mask: int, lower: str, words: frozenset[str]) -> bool:
    """A necessary condition for `frames.concealment` to yield, on a text's gate mask, folded
    form and word set (`TextScan`). Its readings need:
    - the first clause loop: a word of the conceal, keep or covert slot (`_HIDING_TAGS`; a
      possessive fills its word's slots);
    - the negated loop: a negated word (a negator or a word ending in "n't", which set the
      SECRECY bit), or a verb of telling before "nothing" or "none" (negators); its unaware
      reading a keep word;
    - `_without_notice`: "without" (a negator); `_misreported`: a verb of portraying before
      "as"; `_scripted_denial`: a verb of asking (`ASK_WORDS`); `_conceded_statement`: a
      denial (`frames._DENIALS`, negators, or a word ending in "n't"); `_silent_when_asked`:
      a negated word.
    (`frame_gates`' concealment gate is wider: a verb of portraying with "only", a verb of
    sending or a keep word opens it, for `_misreported`, which also needs "as".)"""
    if mask & SECRECY or "as" in words or not ASK_WORDS.isdisjoint(words):
        return True
    if "from" in words and not DROP_WORDS.isdisjoint(words):
        return True  # "drop it from the report"
    hiding = _hiding_words()
    if not hiding.isdisjoint(words):
        return True
    return "'" in lower and any(
        (w[:-2] if w.endswith("'s") else w[:-1]) in hiding
        for w in words
        if w.endswith(("'s", "s'"))
    )


def authority_may_open(mask: int) -> bool:
    """The word half of the authority gate: an override word, or an instruction word with a
    word declaring something void (the markup half is tested on the text)."""
    return bool(mask & AUTHORITY) or bool(mask & RANK_ARG and mask & VOID)


@plainclass(frozen=True)
class AuthorityWords:
    """The words each of `directives.authority`'s word readings starts from (its fourth reading,
    instruction-style markup, needs a "<", "[" or "#", tested on the text)."""

    lex: Lexicon
    override: frozenset[str]  # the override verbs and every form `base_form` maps to one
    identity: tuple[frozenset[str], ...]  # the words of each identity or priority phrase
    objects: frozenset[str]  # what `_nullified` declares void: override objects, instructions
    decrees: frozenset[str]  # what declares it so: nullifiers, obsolete words, validity words


_AUTHORITY_WORDS: list[AuthorityWords] = []


def authority_words(lex: Lexicon) -> AuthorityWords:
    held = _AUTHORITY_WORDS[0] if _AUTHORITY_WORDS else None
    if held is not None and held.lex is lex:
        return held
    sl, fr = slots(), lex.framing
    built = AuthorityWords(
        lex=lex,
        override=inflections(lex.verbs["override"]),
        identity=tuple(frozenset(p) for p in fr["identity"]),
        objects=fr["override_objects"] | sl.members["instruction"],
        decrees=fr["nullifiers"] | sl.members["obsolete"] | fr["validity"],
    )
    _AUTHORITY_WORDS[:] = [built]
    return built


def authority_may_fire(words: frozenset[str], lex: Lexicon) -> bool:
    """A necessary condition for one of `directives.authority`'s three word readings to yield,
    on a text's word set (`TextScan.words`, which holds every sentence's words):
    - the override reading starts at a word `base_form` maps to an override verb;
    - `_nullified` needs one of its objects (after a qualifier) and, after it, a nullifier or an
      obsolete word, or a validity word under a negation;
    - the identity reading matches a whole phrase of `framing.identity`.
    (`authority_may_open` is the mask's wider test: an override object alone opens it.)"""
    table = authority_words(lex)
    if not table.override.isdisjoint(words):
        return True
    if not table.objects.isdisjoint(words) and not table.decrees.isdisjoint(words):
        return True
    return any(phrase <= words for phrase in table.identity)


@plainclass(frozen=True)
class SecrecyWords:
    """The words `directives.secrecy`'s readings start from."""

    lex: Lexicon
    openers: frozenset[str]  # verbs of telling and of concealment in every form, "without",
    # the secrecy adverbs (`_may_keep_any_secret`'s words)
    phrases: tuple[frozenset[str], ...]  # the words of each secrecy phrase


BRING = frozenset({"bring", "brings", "brought", "bringing"})  # "brought up": a verb of telling
_SECRECY_WORDS: list[SecrecyWords] = []


def secrecy_words(lex: Lexicon) -> SecrecyWords:
    held = _SECRECY_WORDS[0] if _SECRECY_WORDS else None
    if held is not None and held.lex is lex:
        return held
    fr = lex.framing
    told = inflections(lex.verbs["communication"] | slots().members["communicate"])
    hidden = inflections(lex.verbs["concealment"])
    built = SecrecyWords(
        lex=lex,
        openers=told | hidden | {"without"} | fr["secrecy_adverbs"],
        phrases=tuple(frozenset(p) for p in fr["secrecy_phrases"]),
    )
    _SECRECY_WORDS[:] = [built]
    return built


def secrecy_may_fire(words: frozenset[str], lex: Lexicon) -> bool:
    """A necessary condition for `directives.secrecy` to yield, on a text's word set: its clause
    loop reads a sentence only with a word of `SecrecyWords.openers` or "brought up"
    (`_may_keep_any_secret`), and its phrase reading needs a whole secrecy phrase. (The mask's
    SECRECY bit is wider: a negator alone opens it, "This cannot be undone".)"""
    table = secrecy_words(lex)
    if not table.openers.isdisjoint(words):
        return True
    if "up" in words and not BRING.isdisjoint(words):
        return True
    return any(phrase <= words for phrase in table.phrases)


def frames_may_open(
    mask: int, text: str, lower: str | None = None, words: frozenset[str] | None = None
) -> bool:
    """Whether some frame's gate is open: one of `frame_gates`, or one of the five frames whose
    gates read words of their own (`word_frames_may_open`)."""
    if lower is None or words is None:
        lower, words = scan_words(text)
    return any(frame_gates(mask, text, lower, words)) or word_frames_may_open(text, words)


def wordset(analysis: Analysis) -> frozenset[str]:
    """Every token, plus the parts of hyphenated tokens (the intent rule reads those too)."""
    words: set[str] = set()
    for sentence in analysis.sentences:
        for w in sentence.words():
            words.add(w)
            if "-" in w:
                words.update(w.split("-"))
    return frozenset(words)


def gate_mask(words: frozenset[str], lex: Lexicon) -> int:
    return mask_of(words, triggers(lex))


def mask_of(words: frozenset[str], table: Triggers, apostrophe: bool = True) -> int:
    """`gate_mask` given the lexicon's trigger table; `apostrophe=False` says no word holds "'"
    (true when the folded text holds none)."""
    entries = table.entries
    mask = 0
    for w in words & table.keys:  # only words that open something on their own or key a phrase
        own, keyed = entries[w]
        mask |= own
        for bit, rest in keyed:
            if not mask & bit and rest <= words:
                mask |= bit
    if apostrophe and not mask & SECRECY and "n't " in " ".join(words) + " ":  # a word ends in n't
        mask |= SECRECY
    return mask


@plainclass(frozen=True)
class TextScan:
    """What the gates read of a text, from one tokenising pass (no sentence analysis)."""

    lower: str  # `language.fold` of the text, the same string as `Analysis.lower`
    words: frozenset[str]  # the same set as `wordset(analyse(text))`
    mask: int


def scan_words(text: str) -> tuple[str, frozenset[str]]:
    """Folded text and word set (every token plus the parts of hyphenated tokens)."""
    if text.isascii():
        # ASCII lower-casing is per character: `token_texts` would find these same tokens.
        lower = text.lower()
        found = lower_ascii_tokens(lower)
    else:
        lower, found = fold(text), token_texts(text)
    if "-" not in lower and text.isascii():  # a token holds "-" only when the text does
        return lower, frozenset(found)
    words = set(found)
    for w in found:
        if "-" in w:
            words.update(w.split("-"))
    return lower, frozenset(words)


# Per-text caches keep only texts up to this length: catalogs repeat short strings, while long
# hostile ones would pin memory (each entry holds a copy of its text).
CACHE_MAX_CHARS = 4000
# Entries of the `scan` cache: a text's scan is asked for close together (its quiet test,
# gates and detection), so 2,048 recent texts keep nearly every hit of 16,384 (counted on the
# 5,000-tool benchmark catalogs and the corpus, docs/performance.md "Seventh pass") without
# pinning every text's word set and folded copy to the end of the scan. (`detect.short_cache`
# keeps 16,384: its entries are small and a miss of `context_free` reruns detectors.)
SCAN_CACHE_ENTRIES = 2048


def _scan(text: str) -> TextScan:
    lower, words = scan_words(text)
    return TextScan(lower, words, gate_mask(words, lexicon()))


_scan_cached = lru_cache(maxsize=SCAN_CACHE_ENTRIES)(_scan)


def scan(text: str) -> TextScan:
    """Gate inputs of `text` under the shared lexicon (cached: catalogs repeat strings)."""
    return _scan_cached(text) if len(text) <= CACHE_MAX_CHARS else _scan(text)


def shell_may_open(text: str, lower: str, runs: frozenset[str], lex: Lexicon) -> bool:
    """A superset of `shell_possible`, given the letter/digit runs of `lower`. A piece that is an
    alphanumeric shell word sits between separators (space, |, ;.!?<>) or the text's ends, none
    of them [a-z0-9], so it is a whole run; any other piece is a substring of `lower`."""
    return shell_may_open_in(text, lower, runs, triggers(lex))


def shell_may_open_in(text: str, lower: str, runs: frozenset[str], table: Triggers) -> bool:
    """`shell_may_open` given the lexicon's trigger table."""
    if "`" in text or "/dev/tcp/" in lower or not table.shell_runs.isdisjoint(runs):
        return True
    return any(word in lower for word in table.shell_other)


def shell_possible(text: str, lower: str, lex: Lexicon) -> bool:
    if "`" in text or "/dev/tcp/" in lower:
        return True
    pieces = set(lower.replace("|", " | ").replace("=", " ").split()) | set(
        _SHELL_SPLIT.split(lower)
    )
    if pieces & triggers(lex).shell:
        return True
    return "(" in lower and any(r in lower for r in lex.shell["remote_readers"])
