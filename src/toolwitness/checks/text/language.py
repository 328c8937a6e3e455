"""Sentence and clause structure of tool metadata, enough to tell an order from a description.

The analysis is deliberately shallow and linear: one tokenising pass, sentence and clause
boundaries from punctuation and a few conjunctions, then per clause
- whether it is a *directive* (sentence-initial base verb, "you must", "always/never + verb"),
- whether a token sits inside a *negation scope* (from a negator to the end of its clause),
- whether a sentence is *documentation* of attacks (a detector naming what it detects),
- whether the sentence names the model as its reader.
Every regex here is a single character class with a bounded or simple repetition (no nesting).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from functools import lru_cache
from itertools import accumulate, pairwise
from typing import Any, NamedTuple

from toolwitness.checks.text.lexicon import Lexicon, Phrase, lexicon
from toolwitness.checks.text.mention import base_verbs, carries_negation, mentioned
from toolwitness.checks.text.subjects import subject_head
from toolwitness.checks.text.wordnet import lexical_classes, verb_lemmas
from toolwitness.lazyre import lazy_compile
from toolwitness.plainclass import field, plainclass

# A word. Possessive, as `_LOWER_ASCII_TOKEN` below (the same matches: a joiner is no word
# character, so a run given back never ends before one). Compiled at its first use: an ASCII
# catalog never needs it.
TOKEN = lazy_compile(r"[\w~$@]++(?:['’.\-/][\w~$@]++)*+")
# TOKEN on lower-cased ASCII text, where \w is [a-z0-9_] and ’ cannot occur. Possessive
# quantifiers match the same: a run given back never ends before a joiner (nothing follows
# the repetition, so TOKEN never backtracks into a shorter match either).
_LOWER_ASCII_TOKEN = re.compile(r"[a-z0-9_~$@]++(?:['.\-/][a-z0-9_~$@]++)*+")


def lower_ascii_tokens(lower: str) -> list[str]:
    """`TOKEN.findall(lower)` for a lower-cased ASCII text, faster."""
    return _LOWER_ASCII_TOKEN.findall(lower)


_CLAUSE_PUNCT = frozenset(",:()[]{}—–")
_SENTENCE_PUNCT = frozenset(".!?;\n\r")
# The gap between two tokens that starts a new clause: a clause mark, or a spaced dash.
_CLAUSE_GAP = re.compile(r"[,:()\[\]{}—–]| - ")
# Sentence ends, of other scripts too (Unicode Sentence_Terminal): the ideographic and
# full-width stops, marks and semicolon (。！？；｡), the Devanagari danda (। ॥), the Arabic
# question mark and the Urdu full stop (؟ ۔); the full stops of Armenian (։), Syriac (܀ ܁ ܂),
# N'Ko (߹), Myanmar (၊ ။), Ethiopic (። ፧ ፨, and its semicolon ፤ as ";" is), Canadian
# syllabics (᙮), Mongolian (᠃ ᠉), Khmer (។ ៕), Tibetan (། ༎) and Limbu (᥄ ᥅).
_SENTENCE_MARK = re.compile(
    r"[.!?;\n\r\u3002\uff01\uff1f\uff1b\uff61\u0964\u0965\u061f\u06d4\u0589\u0700-\u0702"
    r"\u07f9\u104a\u104b\u1362\u1364\u1367\u1368\u166e\u1803\u1809\u17d4\u17d5\u0f0d\u0f0e"
    r"\u1944\u1945]"
)
_TAG = lazy_compile(r"</?[A-Za-z|][A-Za-z0-9_|\- ]{0,30}>")  # text with '<' and '>' only
_CLAUSE_WORDS = frozenset({"but", "however", "then", "otherwise", "although", "though", "whereas"})
_QUOTES = {'"': '"', "“": "”", "‘": "’", "`": "`", "«": "»", "„": "“"}
_QUOTE_MARK = re.compile("[\"“‘`«„']")  # where a quoted span can open
_WH = frozenset({"which", "whether"})  # not "what": "document what the user typed …"
_ABBREV = frozenset({"e", "g", "i", "etc", "vs", "eg", "ie", "cf", "mr", "dr", "no", "v"})


class Token(NamedTuple):
    """One word: immutable, made by the thousand per description (a tuple, not a dataclass)."""

    text: str  # lowercased, curly apostrophes folded
    start: int
    end: int


_make_token = tuple.__new__  # Token from (text, start, end) without NamedTuple's Python __new__


@plainclass(slots=True)
class Clause:
    tokens: list[Token]
    negation_from: int | None = None  # index of the first token inside a negation scope
    directive: bool = False
    ends: list[int] = field(default_factory=list)  # token end offsets, for bisect

    @property
    def start(self) -> int:
        return self.tokens[0].start if self.tokens else 0

    @property
    def end(self) -> int:
        return self.tokens[-1].end if self.tokens else 0

    def negated(self, index: int) -> bool:
        return self.negation_from is not None and index >= self.negation_from


@plainclass(slots=True)
class Sentence:
    start: int
    end: int
    clauses: list[Clause] = field(default_factory=list)
    directive: bool = False
    descriptive: bool = False
    to_model: bool = False
    documentary_from: int | None = None  # char offset after which the sentence documents attacks
    example_from: int | None = None  # char offset after an example marker ("such as", "e.g.")
    tokens: list[Token] = field(default_factory=list)
    clause_starts: list[int] = field(default_factory=list)
    _words: list[str] = field(default_factory=list)
    # per-sentence facts a detector computes once (so a check per token stays linear)
    memo: dict[str, Any] = field(default_factory=dict)

    def finish(self) -> None:
        for clause in self.clauses:
            clause.ends = [t.end for t in clause.tokens]
        self.tokens = [t for c in self.clauses for t in c.tokens]
        self._words = [t.text for t in self.tokens]
        self.clause_starts = [c.start for c in self.clauses]

    def _finish_with(self, tokens: list[Token], words: list[str]) -> None:
        """`finish` given the sentence's tokens and words (the clauses' in order)."""
        for clause in self.clauses:
            clause.ends = [t.end for t in clause.tokens]
        self.tokens = tokens
        self._words = words
        self.clause_starts = [c.tokens[0].start for c in self.clauses]  # clauses are never empty

    def words(self) -> list[str]:
        return self._words

    def lone_item(self, offset: int) -> bool:
        """The token at `offset` is a clause of its own in a list of three or more ("probe packs
        (jailbreak, tool-poisoning, data-exfiltration)"): a label, not a claim or an order."""
        if len(self.clauses) < 3:
            return False
        for clause in self.clauses:
            if clause.start <= offset < clause.end:
                return len(clause.tokens) == 1
        return False

    def documentary_at(self, offset: int) -> bool:
        return self.documentary_from is not None and offset >= self.documentary_from


_LABEL_WORDS = 4  # a table cell this short names a thing; a longer one may say what to do


@plainclass
class Analysis:
    text: str
    lower: str
    sentences: list[Sentence]
    quotes: list[tuple[int, int]]
    _starts: list[int] = field(default_factory=list)
    _quote_starts: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        # Offsets are looked up once per candidate span: bisect keeps every lookup logarithmic.
        self._starts = [s.start for s in self.sentences]
        self._quote_starts = [lo for lo, _ in self.quotes]

    def sentence_at(self, offset: int) -> Sentence | None:
        i = bisect.bisect_right(self._starts, offset) - 1
        if 0 <= i < len(self.sentences) and offset < self.sentences[i].end:
            return self.sentences[i]
        return None

    def clause_at(self, offset: int) -> tuple[Clause, int] | None:
        """The clause holding `offset` and the index of the token at or after it."""
        sentence = self.sentence_at(offset)
        if sentence is None or not sentence.clauses:
            return None
        c = max(0, bisect.bisect_right(sentence.clause_starts, offset) - 1)
        clause = sentence.clauses[c]
        if not clause.start <= offset <= clause.end:
            return None
        i = bisect.bisect_right(clause.ends, offset)
        return clause, min(i, len(clause.tokens) - 1)

    def negated_at(self, offset: int) -> bool:
        found = self.clause_at(offset)
        return found is not None and found[0].negated(found[1])

    def quoted_at(self, offset: int) -> bool:
        i = bisect.bisect_right(self._quote_starts, offset) - 1
        return i >= 0 and offset < self.quotes[i][1]

    def table_cell_at(self, offset: int) -> str | None:
        """The text of the Markdown table cell holding `offset` ("| PG-12 | pipe-to-shell |
        `curl … | sh` |"), stripped, when its row orders nothing and speaks to no model: a
        record of data, whose cells are values and labels. Cells split at pipes outside code
        spans, unescaped; a row's cut points are found once (sentence memo) and bisected."""
        sentence = self.sentence_at(offset)
        if sentence is None:
            return None
        cuts = sentence.memo.get("table_cuts")
        if cuts is None:
            cuts = sentence.memo["table_cuts"] = self._table_cuts(sentence)
        if not cuts:
            return None
        k = bisect.bisect_right(cuts, offset)
        if k == 0 or k == len(cuts):
            return None  # before the row's first pipe or after its last
        return self.text[cuts[k - 1] + 1 : cuts[k]].strip()

    def _table_cuts(self, sentence: Sentence) -> list[int]:
        """The offsets of a table row's cell-separating pipes ([] for any other sentence)."""
        if sentence.to_model or any(c.directive for c in sentence.clauses):
            return []
        lo, hi = sentence.start, sentence.end
        row = self.text[lo:hi].strip()
        if len(row) < 3 or row[0] != "|" or row[-1] != "|" or row.count("|") < 3:
            return []
        cuts: list[int] = []
        in_code = False
        for i in range(lo, hi):
            ch = self.text[i]
            if ch == "`":
                in_code = not in_code
            elif ch == "|" and not in_code and (i == lo or self.text[i - 1] != "\\"):
                cuts.append(i)
        return cuts

    def label_cell_at(self, offset: int) -> bool:
        """In a table cell of a few words ("| PG-07 | markdown-image exfiltration |"): a label."""
        cell = self.table_cell_at(offset)
        return cell is not None and len(cell.split()) <= _LABEL_WORDS

    def exemplified_at(self, offset: int) -> bool:
        """Inside a quotation or code span that an example marker introduces ("such as
        `cat /etc/passwd`", "e.g. 'ignore all previous instructions'"): shown, not ordered."""
        sentence = self.sentence_at(offset)
        return (
            sentence is not None
            and sentence.example_from is not None
            and sentence.example_from <= offset
            and self.quoted_at(offset)
        )


def fold(word: str) -> str:
    """Lowercase without changing the length (offsets into the original stay valid)."""
    low = word.lower()
    if len(low) != len(word):
        low = "".join(c.lower() if len(c.lower()) == 1 else c for c in word)
    return low.replace("’", "'")


def tokens(text: str) -> list[Token]:
    if text.isascii():  # ASCII lower-casing is per character: the same spans, already folded
        found = _LOWER_ASCII_TOKEN.finditer(text.lower())
        return [_make_token(Token, (m[0], m.start(), m.end())) for m in found]
    if "\u03a3" not in text:
        # Without a capital sigma (the one letter whose lower case `str.lower` reads from its
        # neighbours) fold() maps each character on its own: a word's fold is its slice of
        # the text's fold.
        low = fold(text)
        return [_make_token(Token, (low[s:e], s, e)) for s, e in map(_span, TOKEN.finditer(text))]
    # fold() of an ASCII word is its lower case: only the other words take fold's slow path
    return [
        _make_token(Token, (w.lower() if w.isascii() else fold(w), *m.span()))
        for m in TOKEN.finditer(text)
        for w in (m.group(),)
    ]


_span = re.Match.span


def token_texts(text: str) -> list[str]:
    """`[t.text for t in tokens(text)]` without building tokens (hot on every description)."""
    if text.isascii():
        # ASCII lower-casing is per character and keeps token boundaries: same folded tokens.
        return _LOWER_ASCII_TOKEN.findall(text.lower())
    # fold() of an ASCII word is its lower case (most words of a text with a few characters
    # beyond ASCII): only the other words call it
    return [w.lower() if w.isascii() else fold(w) for w in TOKEN.findall(text)]


_CAMEL_STEP = lazy_compile(r"(?<=[a-z0-9])(?=[A-Z])")  # names with capitals only
_ALNUM_RUN = re.compile(r"[A-Za-z0-9]+")


@lru_cache(maxsize=65536)
def split_identifier(name: str) -> tuple[str, ...]:
    """`sendEmail_v2` → ["send", "email", "v2"]: tool and parameter names as words."""
    lower = name.lower()
    if lower != name:  # some character changes case: there may be camel-case steps to split
        lower = _CAMEL_STEP.sub(" ", name).lower()
    return tuple(_ALNUM_RUN.findall(lower))


def match_at(words: Sequence[str], i: int, phrase: Phrase) -> bool:
    n = len(phrase)
    if i + n > len(words):
        return False
    if n == 1:
        return words[i] == phrase[0]
    return tuple(words[i : i + n]) == tuple(phrase)


_INDEXES: dict[int, tuple[tuple[Phrase, ...], dict[str, list[Phrase]]]] = {}


def phrase_index(phrases: tuple[Phrase, ...]) -> dict[str, list[Phrase]]:
    """Phrases grouped by first word, built once per (long-lived, lexicon-owned) phrase tuple."""
    held = _INDEXES.get(id(phrases))
    if held is not None and held[0] is phrases:
        return held[1]
    by_first: dict[str, list[Phrase]] = {}
    for p in phrases:
        by_first.setdefault(p[0], []).append(p)
    _INDEXES[id(phrases)] = (phrases, by_first)
    return by_first


def find_phrases(words: Sequence[str], phrases: tuple[Phrase, ...]) -> list[tuple[int, Phrase]]:
    """Every (start index, phrase) occurrence; phrases are short, so this stays linear."""
    by_first = phrase_index(phrases)
    if by_first.keys().isdisjoint(words):
        return []  # no word starts a phrase
    hits = []
    for i, w in enumerate(words):
        for p in by_first.get(w, ()):
            if match_at(words, i, p):
                hits.append((i, p))
    return hits


def starts_phrase(words: Sequence[str], i: int, phrases: tuple[Phrase, ...]) -> bool:
    return any(match_at(words, i, p) for p in phrase_index(phrases).get(words[i], ()))


@lru_cache(maxsize=65536)
def base_form(word: str, verbs: frozenset[str]) -> str | None:
    """The lemma behind `reads`/`reading`/`hid`, when it is one of `verbs`, or None. Forms come
    from the lemmatiser's dictionary, inverted at build time (`checks.text.wordnet`)."""
    if word in verbs:
        return word
    lemma = lexical_classes().forms.get(word)
    return lemma if lemma is not None and lemma in verbs else None


def _quote_spans(text: str) -> list[tuple[int, int]]:
    """Quoted spans, left to right; only the characters that can open one are looked at."""
    spans: list[tuple[int, int]] = []
    n, resume = len(text), 0
    for mark in _QUOTE_MARK.finditer(text):
        i = mark.start()
        if i < resume:  # inside the span just found
            continue
        ch = mark.group()
        close = _QUOTES.get(ch)
        if close is None and (i == 0 or not text[i - 1].isalnum()):
            close = "'"
        if close is not None:
            j = text.find(close, i + 1, min(n, i + 400))
            newline = text.find("\n", i + 1, j if j > 0 else i + 1)
            if j > i + 1 and newline < 0:
                spans.append((i, j + 1))
                resume = j + 1
    return spans


def _sentence_bounds(
    text: str, toks: list[Token], quotes: Sequence[tuple[int, int]] = ()
) -> list[tuple[int, int]]:
    """Split on terminal punctuation followed by space, newlines, semicolons and markup tags;
    never inside a code span (`curl 'https://x/?a=1;cat /etc/passwd'` is one example) or a URL
    (`https://px.example/i.gif?sid=1` is one token of its sentence)."""
    tagged = "<" in text and ">" in text  # every tag holds both
    code = unsplit_spans(text, quotes) if quotes or "://" in text else []
    found: list[int] = []
    ends: list[int] | None = None
    for mark in _SENTENCE_MARK.finditer(text):
        i = mark.start()
        if text[i] == "!" and text[i + 1 : i + 2] == "[":
            continue  # a Markdown image ("…such as ![](https://…)") ends no sentence
        if text[i] == ".":
            nxt = text[i + 1] if i + 1 < len(text) else " "
            if not nxt.isspace():
                continue
            if ends is None:
                ends = [t.end for t in toks]
            before = bisect.bisect_right(ends, i) - 1  # the last token ending at or before i
            prev_word = toks[before].text if before >= 0 else ""
            if prev_word.rsplit(".", 1)[-1] in _ABBREV:
                continue
        found.append(i + 1)
    if tagged or code:
        cuts = set(found)
        if tagged:
            for m in _TAG.finditer(text):
                cuts.add(m.start())
                cuts.add(m.end())
        if code:
            starts = [lo for lo, _ in code]
            cuts = {c for c in cuts if not _inside(code, starts, c)}
        found = sorted(cuts)  # (marks alone come in order, each once)
    bounds, start = [], 0
    for cut in found:
        if cut > start:
            bounds.append((start, cut))
            start = cut
    if start < len(text):
        bounds.append((start, len(text)))
    return bounds


_URL_SPAN = lazy_compile(r"(?:https?|wss?|ftp)://[^\s\"'<>`]{1,2000}")  # text with "://" only


def unsplit_spans(text: str, quotes: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """Code spans and URLs, merged and in order: no sentence ends inside them."""
    spans = [(lo, hi) for lo, hi in quotes if text[lo] == "`"]
    if "://" in text:
        spans += [(m.start(), m.end()) for m in _URL_SPAN.finditer(text)]
    merged: list[tuple[int, int]] = []
    for lo, hi in sorted(spans):
        if merged and lo < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(hi, merged[-1][1]))
        else:
            merged.append((lo, hi))
    return merged


def _inside(spans: list[tuple[int, int]], starts: list[int], offset: int) -> bool:
    i = bisect.bisect_right(starts, offset - 1) - 1
    return i >= 0 and spans[i][0] < offset < spans[i][1]


def _clauses(text: str, toks: list[Token]) -> list[Clause]:
    if not toks:
        return []
    return _clauses_of(text, toks, [t[0] for t in toks])[0]


def _clauses_of(
    text: str, toks: list[Token], words: list[str]
) -> tuple[list[Clause], list[list[str]]]:
    """The clauses of a sentence's (non-empty) tokens, and each clause's words."""
    # Every gap searched below lies in [first token's start, last token's start): when that
    # span holds no clause mark, no gap does (the one search replaces one per token).
    gap_mark = _CLAUSE_GAP.search
    marked = gap_mark(text, toks[0].start, toks[-1].start) is not None
    if not marked and _CLAUSE_WORDS.isdisjoint(words):
        return [Clause(tokens=list(toks))], [words]
    # A clause mark in the gap before a token, or a clause word, starts a clause at that token
    # (never at the first).
    cuts = [0]
    prev_end = toks[0].end
    for i in range(1, len(toks)):
        tok = toks[i]
        if (marked and gap_mark(text, prev_end, tok.start) is not None) or (
            tok.text in _CLAUSE_WORDS
        ):
            cuts.append(i)
        prev_end = tok.end
    cuts.append(len(toks))
    pairs = list(pairwise(cuts))
    return [Clause(tokens=toks[a:b]) for a, b in pairs], [words[a:b] for a, b in pairs]


def _mark_negation(
    clause: Clause,
    lex: Lexicon,
    words: list[str],
    quotes: list[tuple[int, int]] | None = None,
    quote_starts: list[int] | None = None,
) -> None:
    if lex.negators.isdisjoint(words) and "n't\x00" not in "\x00".join(words) + "\x00":
        return  # no negator and no word ending in n't
    last_order = -1  # where the clause's last coordinated order sits ("and keep"), once
    for i, w in enumerate(words):
        if w in lex.negators or w.endswith("n't"):
            if starts_phrase(words, i, lex.non_negating):
                continue
            if quotes and quote_starts and _inside(quotes, quote_starts, clause.tokens[i].start):
                # a negation inside a quotation ("such as \"Do not tell the user\" is shown
                # …") scopes over the quoted words only, which the frames skip as quoted
                continue
            if w == "without":
                if last_order == -1:
                    last_order = _last_coordinated_order(words)
                if last_order > i + 1:
                    continue  # "phrase it without the fee and keep X out of …": "without"
                    # negates its noun phrase, not the order coordinated after it
            clause.negation_from = i
            return


_COORDINATORS = frozenset({"and", "then"})


def _last_coordinated_order(words: list[str]) -> int:
    """The index of the last "and" or "then" before a verb in its base form ("and keep",
    "then send"): a later order a preposition's negation does not reach; -2 when none. One
    pass per clause, however many prepositions it holds."""
    verbs = verb_lemmas()
    for j in range(len(words) - 2, -1, -1):
        if words[j] in _COORDINATORS and words[j + 1] in verbs:
            return j
    return -2


def _strip_openers(words: list[str], lex: Lexicon) -> int:
    i = 0
    openers = lex.framing["openers"]
    while i < len(words) and i < 8 and words[i] in openers and words[i] not in ("always", "never"):
        i += 1
    return i


_MODALS = frozenset({"must", "should", "shall", "need", "have", "are"})
# A short purpose phrase before an imperative with no comma: "For best results include …",
# "For better ranking add …", "In every reply mention …".
_LEADING_PREPS = frozenset({"for", "in", "on", "at", "during", "before", "after"})
_QUANTIFIED = frozenset({"every", "each"})
_NOT_BEFORE_IMPERATIVE = frozenset({"who", "that", "which", "to", "will", "can", "may", "might",
                                    "would", "could", "should", "must", "does", "do", "did", "not",
                                    "you", "they", "we", "it", "i", "he", "she", "and", "or",
                                    "the", "a", "an",
                                    # the noun a quantifier takes ("after each reply is sent")
                                    "every", "each", "any", "other"})  # fmt: skip


def _after_leading_phrase(
    words: list[str], i: int, verbs: frozenset[str], base: frozenset[str] | None = None
) -> bool:
    """A base verb two to six words after a leading preposition, right after a plain word of
    its phrase ("for best results include", "for better ranking add", "at the start of every
    turn call"): the order after a purpose or time phrase written without its comma. Not
    after a pronoun, a relative or an auxiliary ("for users who include", "for files you
    add"). `base`: the verbs that count even at the phrase's end (WordNet's classes); the
    other `verbs` (the lexicon's verbs of orders) need a word after them."""
    base = verbs if base is None else base
    # (past four words only through a quantified time phrase: "at the start of every turn")
    reach = i + 7 if not _QUANTIFIED.isdisjoint(words[i + 1 : i + 6]) else i + 5
    for k in range(i + 2, min(len(words), reach)):
        if words[k] in verbs and words[k - 1] not in _NOT_BEFORE_IMPERATIVE:
            # (a verb of orders that ends the phrase is its noun: "Before any other answer,")
            if words[k] not in base and k + 1 == len(words):
                return False
            return not words[k - 1].endswith(("ly", "ing"))
    return False


def _is_directive(
    lex: Lexicon,
    words: list[str],
    modal: dict[str, list[Phrase]] | None = None,
    verbs: frozenset[str] | None = None,
) -> bool:
    """`modal`: `phrase_index(lex.framing["modal_openers"])`; `verbs`: `base_verbs()` (both
    looked up here when not given; `_analyse` passes them once per text)."""
    i = _strip_openers(words, lex)
    if i >= len(words):
        return False
    if modal is None:
        modal = phrase_index(lex.framing["modal_openers"])
    first = modal.get(words[0])
    if first is not None and any(match_at(words, 0, p) for p in first):
        return True
    at_i = modal.get(words[i]) if i else None  # i == 0 was just tested
    if at_i is not None and any(match_at(words, i, p) for p in at_i):
        return True
    verbs = verbs or base_verbs()
    if (words[i] in lex.verbs["imperative"] or words[i] in verbs) and not subject_head(words, i):
        return True  # (not "Email addresses are masked …": the subject, then its verb)
    if words[i] in _LEADING_PREPS and _after_leading_phrase(
        words, i, verbs | lex.verbs["imperative"], verbs
    ):
        return True
    # any verb WordNet lists, opening the clause before its object: "close them and …",
    # "Finish the download by running …" (a noun heading a phrase is followed by "of", a noun)
    if i + 1 < len(words) and words[i + 1] in lex.sets["object_openers"] and words[i] in (
        verb_lemmas()
    ):
        return True
    # "you must", "the assistant should" anywhere in the clause
    if lex.model_words.isdisjoint(words):
        return False
    return any(
        w in lex.model_words and k + 1 < len(words) and words[k + 1] in _MODALS
        for k, w in enumerate(words)
    )


_SUBJECTS = (("this", "tool"), ("the", "tool"), ("it",), ("this", "server"), ("this", "function"))
_SUBJECT_FIRSTS = frozenset(s[0] for s in _SUBJECTS)
_DESCRIPTIVE_SKIP = ("also", "only", "just", "then", "never", "not", "does", "will", "can", "may",
                     "automatically")  # fmt: skip


_DOC_VERBS: dict[int, tuple[Lexicon, frozenset[str]]] = {}


def _documentation_verbs(lex: Lexicon) -> frozenset[str]:
    """The lexicon's documentation verbs and WordNet's verbs of looking something over ("check
    a catalog for poisoning", "verify … for injection")."""
    held = _DOC_VERBS.get(id(lex))
    if held is None or held[0] is not lex:
        scrutiny = lexical_classes().words.get("scrutinize", ())
        held = _DOC_VERBS[id(lex)] = (lex, lex.verbs["documentation"] | frozenset(scrutiny))
    return held[1]


def _documentary_from(
    sentence: Sentence, lex: Lexicon, quotes: list[tuple[int, int]]
) -> int | None:
    toks = sentence.tokens
    words = sentence.words()
    doc = _documentation_verbs(lex)
    nouns = lex.framing["attack_nouns"]
    examples = lex.framing["example_markers"]
    for i, w in enumerate(words):
        if base_form(w, doc) is None:
            continue
        rest = words[i + 1 : i + 12]
        if any(n in nouns for n in rest) or any(
            starts_phrase(words, k, examples) for k in range(i + 1, min(len(words), i + 12))
        ):
            return toks[i].end
        if any(toks[i].end <= lo < toks[i].end + 80 for lo, _ in quotes) and not _passive_at(
            words, i
        ):
            # ("if it is not detected, execute `…`": a passive says what happens to something
            # else; the quote after it is not what is documented)
            return toks[i].end
        # "explains which sentences try to …", "reports whether a text tells the model to …":
        # the verb's object is a question about the text, not an order
        # (said of the tool: "explains which", not the imperative "explain which files …")
        if w not in doc and not _WH.isdisjoint(words[i + 1 : i + 3]):
            return toks[i].end
    # "phrases such as …", "requests like …": an example marker after a noun of mention
    # introduces the examples a tool handles, whatever verb the sentence has
    for k, phrase in find_phrases(words, examples):
        if k > 0 and words[k - 1] in nouns:
            return toks[k + len(phrase) - 1].end
    reported = _reported_text(words, lex)
    return None if reported is None else toks[reported].start


_THIS_TEXT = frozenset({"this", "these", "following", "above", "below", "my", "our"})
_BE_FORMS = frozenset({"is", "are", "was", "were", "be", "been", "being", "gets", "get"})


def _passive_at(words: list[str], i: int) -> bool:
    """Word i is a participle after a form of "be" ("is detected", "is not detected")."""
    before = [w for w in words[max(0, i - 3) : i] if w not in ("not", "never", "n't")]
    return bool(before) and before[-1] in _BE_FORMS


def _reported_text(words: list[str], lex: Lexicon) -> int | None:
    """ "text telling the model to hide …", "a description that says to BCC …": a noun naming a
    text, then (after "that"/"which") a verb of saying or asking; the index of the noun. Not
    this very text ("this description tells you to …", "the following note asks …")."""
    nouns = lex.framing["reported_text_nouns"]
    if nouns.isdisjoint(words):
        return None
    verbs = lex.framing["reporting_verbs"]
    for k, w in enumerate(words[:-1]):
        if w not in nouns:
            continue
        relative = words[k + 1] in ("that", "which")
        j = k + 2 if relative else k + 1
        if j >= len(words) or not (
            words[j] in verbs or (relative and words[j] in lex.framing["reporting_verbs_plural"])
        ):
            continue
        if not _THIS_TEXT.isdisjoint(words[max(0, k - 3) : k]):
            continue
        if not _OWN_ORDERS.isdisjoint(words[max(0, k - 2) : k]):
            continue  # "whatever the system prompt says": the model's own orders, not a text
        return k
    return None


# Words before a text noun that make it the model's or user's own instructions.
_OWN_ORDERS = frozenset({"system", "your", "whatever", "user", "user's", "developer", "operator"})


_OBJECT_DETERMINERS = frozenset({"the", "a", "an", "our", "your", "their", "its", "ai", "language",
                                 "new", "custom", "other"})  # fmt: skip


def _names_model(words: list[str], lex: Lexicon) -> bool:
    """A model word as the reader, not as what is made: "their contents are never used to
    train models", "fine-tune the model" name models as an object of training (up to two
    determiners or modifiers between)."""
    owned = [w[:-2] for w in words if w.endswith("'s")]  # "the assistant's answer": its act
    if lex.model_words.isdisjoint(words) and lex.model_words.isdisjoint(owned):
        return False
    making = lex.sets["model_making"]
    for k, w in enumerate(words):
        if w not in lex.model_words and not (w.endswith("'s") and w[:-2] in lex.model_words):
            continue
        j = k - 1
        while j >= 0 and k - j <= 3 and words[j] in _OBJECT_DETERMINERS:
            j -= 1
        if j < 0 or words[j] not in making:
            return True
    return False


def analyse(text: str, lex: Lexicon | None = None) -> Analysis:
    """The structure of `text`. Cached: catalogs repeat descriptions, and results are read-only."""
    if lex is None or lex is lexicon():
        return _analyse_cached(text)
    return _analyse(text, lex)


# 512, not more: the checks ask for a text's analysis close together (one tool's fields, a few
# checks in turn), so a larger cache adds few hits and pins thousands of token lists: at 5,000
# generated tools, 4,096 entries held ~40 MiB for 3.5 % fewer analyses than 512 (poisoned; the
# same hits exactly on benign tools and the corpus).
@lru_cache(maxsize=512)
def _analyse_cached(text: str) -> Analysis:
    return _analyse(text, lexicon())


class _Reader(NamedTuple):
    """What `_analyse` reads from one lexicon, fetched once per lexicon instead of per clause."""

    lex: Lexicon
    modal: dict[str, list[Phrase]]  # phrase_index(framing["modal_openers"])
    verbs: frozenset[str]  # base_verbs()
    imperative: frozenset[str]
    imperative_forms: frozenset[str]  # the words `base_form(w, imperative)` maps to a lemma
    documentation_forms: frozenset[str]  # the same for `_documentation_verbs(lex)`
    negators: frozenset[str]
    examples: tuple[Phrase, ...]
    example_firsts: frozenset[str]  # the first words of the example markers
    vocatives: tuple[Phrase, ...]
    vocative_firsts: frozenset[str]


_READERS: list[_Reader] = []


def _reader(lex: Lexicon) -> _Reader:
    held = _READERS[0] if _READERS else None
    if held is not None and held.lex is lex:
        return held
    classes = lexical_classes()
    imperative = lex.verbs["imperative"]
    examples = lex.framing["example_markers"]
    reader = _Reader(
        lex=lex,
        modal=phrase_index(lex.framing["modal_openers"]),
        verbs=base_verbs(),
        imperative=imperative,
        imperative_forms=classes.inflect(imperative),
        documentation_forms=classes.inflect(_documentation_verbs(lex)),
        negators=lex.negators,
        examples=examples,
        example_firsts=frozenset(phrase_index(examples)),
        vocatives=lex.model_vocatives,
        vocative_firsts=frozenset(phrase_index(lex.model_vocatives)),
    )
    _READERS[:] = [reader]
    _MEMO.readings.clear()  # readings made with another lexicon
    return reader


def _analyse(text: str, lex: Lexicon) -> Analysis:
    toks = tokens(text)
    r = _reader(lex)
    modal, verbs, imperative = r.modal, r.verbs, r.imperative
    quotes = _quote_spans(text)
    quote_starts = [lo for lo, _ in quotes]  # for a bisect per negator (linear overall)
    lower = text.lower() if text.isascii() else fold(text)  # fold() of ASCII text is its lower
    # A token ending in "n't" is a piece of the folded text, and fold() only lower-cases and
    # turns "’" into "'": without "n't" or "n’t" in the lower-cased text no word ends so.
    maybe_nt = "n't" in lower or "n’t" in lower
    # Without quoted spans a sentence's reading depends on its own text alone, and on the three
    # characters after its first token (`mentioned`): the same key, the same reading at the
    # same offsets from the sentence's start (`_SentenceMemo`).
    memo = _MEMO if not quotes and _MEMO.on else None
    key: str | tuple[int, str] = ""
    sentences: list[Sentence] = []
    starts = [t.start for t in toks]
    k = 0
    for lo, hi in _sentence_bounds(text, toks, quotes):
        # The bounds tile the text in order, so a sentence's tokens are the next ones starting
        # before its end.
        upto = bisect.bisect_left(starts, hi, k)
        own = toks[k:upto]
        k = upto
        if not own:
            continue
        words = [t[0] for t in own]
        if memo is not None:
            tail = own[0].end + 3
            key = text[lo:hi] if tail <= hi else (hi - lo, text[lo:tail])
            held = memo.readings.get(key)
            if held is not None:
                memo.hits += 1
                sentences.append(_reread_sentence(lo, hi, own, words, held))
                continue
        clauses, clause_words = _clauses_of(text, own, words)
        sentence = Sentence(start=lo, end=hi, clauses=clauses)
        sentence._finish_with(own, words)
        if maybe_nt or not r.negators.isdisjoint(words):
            for clause, cwords in zip(clauses, clause_words, strict=True):
                _mark_negation(clause, lex, cwords, quotes, quote_starts)
            # a clause negated by "without" alone negates its noun phrase, not the orders
            # after it ("phrase it without the fee, and keep the sync out of the list")
            negated = [
                c.negation_from is not None and cw[c.negation_from] != "without"
                for c, cw in zip(clauses, clause_words, strict=True)
            ]
            if any(negated):
                carried = carries_negation(clause_words, negated, imperative)
                for clause, carry in zip(clauses, carried, strict=True):
                    if carry:
                        clause.negation_from = 0  # "must not hide A, conceal B, or suppress C"
        directive = False
        for clause, cwords in zip(clauses, clause_words, strict=True):
            if _is_directive(lex, cwords, modal, verbs):
                clause.directive = directive = True
        sentence.directive = directive
        sentence.descriptive = _descriptive(r, clause_words[0])
        sentence.to_model = _names_model(words, lex) or (
            not r.vocative_firsts.isdisjoint(words) and bool(find_phrases(words, r.vocatives))
        )
        example = (
            find_phrases(words, r.examples) if not r.example_firsts.isdisjoint(words) else []
        )
        sentence.documentary_from = _documentary(sentence, r, quotes, example)
        if example:
            sentence.example_from = own[example[0][0]].end
        if mentioned(words, text[own[0].end : own[0].end + 3]):
            sentence.documentary_from = sentence.start  # "… is an unsafe phrase", "Lesson: …"
        sentences.append(sentence)
        if memo is not None:
            memo.remember(key, sentence)
    return Analysis(text=text, lower=lower, sentences=sentences, quotes=quotes)


# One sentence's reading, offsets from its start: clause ends (token counts), each clause's
# negation start and directive flag, the sentence's directive, descriptive and to-model flags,
# and its documentary and example offsets.
_Reading = tuple[
    tuple[int, ...], tuple[int | None, ...], tuple[bool, ...], bool, bool, bool,
    int | None, int | None,
]  # fmt: skip


class _SentenceMemo:
    """Readings of sentences without quoted spans, by their text, for the current reader.

    Catalogs repeat sentences across texts that differ elsewhere ("Defaults to 10.", a generated
    catalog's templates): a repeated sentence is rebuilt from its reading instead of read again.
    Bounded (`KEPT` entries of ~200 bytes, begun afresh when full); a reading costs ~1 µs to
    keep, so when fewer than one sentence in `MIN_SHARE` was a repeat by the `CHECKPOINT`th
    reading, the memo stops for the rest of the process (distinct prose, such as the real
    servers' catalogs, where ~3% repeat). Results never depend on it: only the work does."""

    KEPT = 4096
    CHECKPOINT = 2048
    MIN_SHARE = 8

    def __init__(self) -> None:
        self.readings: dict[str | tuple[int, str], _Reading] = {}
        self.on = True
        self.hits = 0
        self.reads = 0

    def reset(self) -> None:
        """Empty, counting afresh and on (tests; a process reads one scan)."""
        self.readings.clear()
        self.on = True
        self.hits = self.reads = 0

    def remember(self, key: str | tuple[int, str], sentence: Sentence) -> None:
        self.reads += 1
        if self.reads == self.CHECKPOINT and self.hits * self.MIN_SHARE < self.reads:
            self.on = False
            self.readings.clear()
            return
        if len(self.readings) >= self.KEPT:
            self.readings.clear()  # dropping only the oldest would cost a scan of the table
        lo = sentence.start
        clauses = sentence.clauses
        documentary = sentence.documentary_from
        example = sentence.example_from
        self.readings[key] = (
            tuple(accumulate(len(c.tokens) for c in clauses)),
            tuple(c.negation_from for c in clauses),
            tuple(c.directive for c in clauses),
            sentence.directive,
            sentence.descriptive,
            sentence.to_model,
            None if documentary is None else documentary - lo,
            None if example is None else example - lo,
        )


_MEMO = _SentenceMemo()


def _reread_sentence(
    lo: int, hi: int, own: list[Token], words: list[str], reading: _Reading
) -> Sentence:
    """The sentence `_analyse` reads from the same text at another offset."""
    ends, negations, directives, directive, descriptive, to_model, documentary, example = reading
    if len(ends) == 1:
        clauses = [Clause(tokens=list(own), negation_from=negations[0], directive=directive)]
    else:
        clauses = []
        prev = 0
        for end, negation, clause_directive in zip(ends, negations, directives, strict=True):
            clauses.append(
                Clause(tokens=own[prev:end], negation_from=negation, directive=clause_directive)
            )
            prev = end
    sentence = Sentence(
        start=lo,
        end=hi,
        clauses=clauses,
        directive=directive,
        descriptive=descriptive,
        to_model=to_model,
        documentary_from=None if documentary is None else lo + documentary,
        example_from=None if example is None else lo + example,
    )
    sentence._finish_with(own, words)
    return sentence


def _descriptive(r: _Reader, words: list[str]) -> bool:
    """A sentence that opens with a verb's inflected form ("Returns …", "This tool reads …"),
    after a subject and adverbs: it says what the tool does. `base_form(w, imperative)` is
    `w in r.imperative_forms`."""
    i = 0
    if words[0] in _SUBJECT_FIRSTS:
        for subj in _SUBJECTS:
            if match_at(words, 0, subj):
                i = len(subj)
                break
    while i < len(words) and words[i] in _DESCRIPTIVE_SKIP:
        i += 1
    if i >= len(words):
        return False
    w = words[i]
    return w not in r.imperative and w in r.imperative_forms


def _documentary(
    sentence: Sentence,
    r: _Reader,
    quotes: list[tuple[int, int]],
    example: list[tuple[int, Phrase]],
) -> int | None:
    """`_documentary_from`, given the sentence's example markers (`example`), testing its words
    against the documentation verbs' forms at once before looking at any one of them."""
    words = sentence.words()
    if r.documentation_forms.isdisjoint(words):
        lex = r.lex
        nouns = lex.framing["attack_nouns"]
        for k, phrase in example:
            if k > 0 and words[k - 1] in nouns:
                return sentence.tokens[k + len(phrase) - 1].end
        reported = _reported_text(words, lex)
        return None if reported is None else sentence.tokens[reported].start
    return _documentary_from(sentence, r.lex, quotes)
