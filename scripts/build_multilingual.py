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
SCHEMA = "toolwitness.multilingual-classes/1"

# ISO 639-1 -> the WikDict code of each language and how it is reached.
DIRECT = {"fi": "fin", "id": "ind", "bg": "bul", "nb": "nor"}
REVERSE = {"pl": "pol", "el": "ell"}
PIVOT_BOTH = {"de": "deu", "fr": "fra", "it": "ita", "nl": "nld", "pt": "por", "sv": "swe"}
PIVOT_POLISH = {"ru": "rus", "es": "spa", "tr": "tur"}
# Languages reached through Finnish and Greek alone (no Polish dictionary into them).
PIVOT_FIN_ELL = {"lt": "lit"}
# The Greek pivot's dictionary into each language; German is read backwards from deu-ell.
_GREEK_INTO = {"fra": "ell-fra", "ita": "ell-ita", "nld": "ell-nld", "por": "ell-por",
               "swe": "ell-swe", "rus": "ell-rus", "spa": "ell-spa", "lit": "ell-lit"}
_GREEK_FROM = {"deu": "deu-ell"}
_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_NUMBER = re.compile(r"^\s*\d+\.\s*")
_WORD = re.compile(r"[a-z]+")
_TAG = re.compile(r"<([a-z]+)")
# dictd part-of-speech tags -> WordNet's; a negating particle is read as an adverb
_POS = {"n": "n", "v": "v", "adj": "a", "adv": "r", "particle": "r", "pronoun": "r"}
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
            self._reverse[key] = index
        return self._reverse[key].get(word, set())

    def first(self, pair: str, word: str, pos: str) -> set[str]:
        """The translations of the word's first sense in that part of speech: a pivot word
        was chosen for one sense, and its first is the common one."""
        senses = self.dictionary(pair).senses(word, pos)
        return set(senses[0][0]) if senses else set()

    def into(self, lang: str, word: str, sense: Synset, either: bool = False) -> set[str]:
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
            found = _union(self.first(f"pol-{code}", p, pos) for p in strict)
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

    def _via_greek(self, code: str, word: str, pos: str) -> set[str]:
        """Greek words of the seed (any sense), each taken into the language in its first
        sense (`ell-XXX`), or German headwords whose first sense is one of them (`deu-ell`)."""
        greek = self.reverse("ell-eng", word, pos)
        if code in _GREEK_INTO:
            return _union(self.first(_GREEK_INTO[code], g, pos) for g in greek)
        if code in _GREEK_FROM:
            return _union(self.reverse(_GREEK_FROM[code], g, pos, first_only=True) for g in greek)
        return set()


def _union(sets: Iterable[set[str]]) -> set[str]:
    out: set[str] = set()
    for s in sets:
        out |= s
    return out


def _forms_of(lang: str) -> dict[str, set[str]]:
    """simplemma's dictionary of the language inverted: lemma -> its forms."""
    from simplemma.strategies.dictionaries.dictionary_factory import DefaultDictionaryFactory

    inverted: dict[str, set[str]] = {}
    for form, lemma in DefaultDictionaryFactory().get_dictionary(lang).items():
        inverted.setdefault(lemma.lower(), set()).add(form.lower())
    return inverted


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


def build(dictd: Path, wordnet: Path) -> str:
    import simplemma

    seeds = yaml.safe_load(SEEDS.read_text("utf-8"))
    wn = WordNet(wordnet)
    tr = Translator(dictd)
    tables: dict[str, dict[str, set[str]]] = {}  # each language's inverted table, this run only
    classes: dict[str, Any] = {}
    for name, spec in sorted(seeds["classes"].items()):
        per_lang: dict[str, list[str]] = {}
        for lang in sorted(seeds["languages"]):
            words: set[str] = set()
            for key in spec["seeds"]:
                sense = wn.sense(key)
                words |= tr.into(lang, key.split(".")[0], sense, spec.get("pivots") == "either")
            single = {w for w in words if " " not in w and "(" not in w and w.isalpha()}
            per_lang[lang] = sorted(inflected(lang, single, tables)) if single else []
        classes[name] = {"seeds": spec["seeds"], "words": per_lang}
        if "pivots" in spec:
            classes[name]["pivots"] = spec["pivots"]
    doc = {
        "schema": SCHEMA,
        "source": "WikDict bilingual dictionaries (Debian dict-freedict-*, 2022.12.07), "
        "CC BY-SA 3.0; WordNet 3.0 senses (see WIKDICT-LICENSE, WORDNET-LICENSE)",
        "lemmatiser": f"simplemma {simplemma.__version__} (each language's dictionary, inverted)",
        "generator": "scripts/build_multilingual.py from multilingual-seeds.yaml",
        "classes": classes,
    }
    return json.dumps(doc, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dictd", type=Path, default=Path("/usr/share/dictd"))
    ap.add_argument("--wordnet", type=Path, default=Path("/usr/share/wordnet"))
    ap.add_argument("--packages", action="store_true", help="list the Debian packages read")
    ap.add_argument("--check", action="store_true", help="exit 1 when the shipped file is stale")
    args = ap.parse_args()
    if args.packages:
        print(" ".join(packages()))
        return 0
    text = build(args.dictd, args.wordnet)
    if args.check:
        return 0 if OUTPUT.read_text("utf-8") == text else 1
    OUTPUT.write_text(text, "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
