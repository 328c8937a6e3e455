"""Build the lexical classes the injection frames match on, from WordNet 3.0.

Reads the seed synsets of each class (`src/toolwitness/data/lexicon/wordnet-seeds.yaml`: a class
is a part of speech, seed senses such as `hide.v.01`, and how far to follow WordNet's relations
from them), walks the WordNet database files (Debian `wordnet-base`, /usr/share/wordnet, or
$WORDNET_DIR), and writes `src/toolwitness/data/lexicon/wordnet.json`: each class's lemmas
(multi-word lemmas as word sequences), and the inflected forms of every lemma the lexicon uses,
taken from the simplemma lemmatiser's English dictionary (so no inflection rule is written here).

Reproducible: the same WordNet files, seeds and simplemma version give the same bytes (sorted
keys and lists, no timestamps). `tests/test_lexicon_build.py` regenerates and compares.

    python scripts/build_lexicon.py            # write the data file
    python scripts/build_lexicon.py --check    # exit 1 when the shipped file is stale
    python scripts/build_lexicon.py --show hide.v   # list the senses of a word, to choose seeds
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
LEXICON = ROOT / "src" / "toolwitness" / "data" / "lexicon"
SEEDS = LEXICON / "wordnet-seeds.yaml"
# Seed files, not lexicon words: their text names WordNet senses and other languages' classes.
SEED_FILES = frozenset({"wordnet-seeds.yaml", "multilingual-seeds.yaml"})
OUTPUT = LEXICON / "wordnet.json"
SCHEMA = "toolwitness.wordnet-classes/1"
_FILES = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}
_SENSE = re.compile(r"(?P<lemma>[a-z0-9_'\-.]+)\.(?P<pos>[nvar])\.(?P<num>[0-9]{2})")
_MARKER = re.compile(r"\([a-z]+\)$")  # adjective position markers such as "(a)", "(p)"
# The relations a seed may follow: hyponyms (troponyms of verbs), similar adjectives,
# derivationally related words of another part of speech, adverbs' adjective pertainyms.
_HYPONYM, _SIMILAR, _DERIVED, _PERTAINYM = "~", "&", "+", "\\"


@dataclass(frozen=True)
class Synset:
    pos: str  # n v a r (satellite adjectives are read as a)
    offset: int
    lemmas: tuple[str, ...]
    pointers: tuple[tuple[str, str, int], ...]  # (symbol, pos, offset)
    gloss: str


class WordNet:
    """The WordNet 3.0 database files, read directly (offsets are byte offsets)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.index: dict[str, dict[str, tuple[int, ...]]] = {p: {} for p in _FILES}
        for pos, name in _FILES.items():
            with (root / f"index.{name}").open(encoding="utf-8") as handle:
                for line in handle:
                    if line.startswith(" "):
                        continue  # the licence header
                    parts = line.split()
                    lemma, synsets, pointers = parts[0], int(parts[2]), int(parts[3])
                    offsets = parts[6 + pointers : 6 + pointers + synsets]
                    self.index[pos][lemma] = tuple(int(o) for o in offsets)
        self._data = {pos: (root / f"data.{name}").read_bytes() for pos, name in _FILES.items()}
        self._cache: dict[tuple[str, int], Synset] = {}

    def synset(self, pos: str, offset: int) -> Synset:
        key = (pos, offset)
        held = self._cache.get(key)
        if held is not None:
            return held
        data = self._data[pos]
        end = data.index(b"\n", offset)
        line = data[offset:end].decode("utf-8")
        head, _, gloss = line.partition(" | ")
        parts = head.split()
        count = int(parts[3], 16)
        lemmas = tuple(
            _MARKER.sub("", parts[4 + 2 * k]).lower() for k in range(count)
        )  # fmt: skip
        at = 4 + 2 * count
        n_ptr = int(parts[at])
        pointers = []
        for k in range(n_ptr):
            symbol, target, target_pos = parts[at + 1 + 4 * k : at + 4 + 4 * k]
            pointers.append((symbol, "a" if target_pos == "s" else target_pos, int(target)))
        found = Synset(pos, offset, lemmas, tuple(pointers), gloss.strip())
        self._cache[key] = found
        return found

    def sense(self, key: str) -> Synset:
        """`hide.v.01`: the first listed sense of "hide" as a verb."""
        m = _SENSE.fullmatch(key.strip())
        if m is None:
            raise SystemExit(f"not a sense key: {key!r} (expected lemma.pos.NN)")
        offsets = self.index[m["pos"]].get(m["lemma"])
        number = int(m["num"])
        if not offsets or not 0 < number <= len(offsets):
            raise SystemExit(f"WordNet has no sense {key}")
        return self.synset(m["pos"], offsets[number - 1])

    def lemmas(self, pos: str) -> list[str]:
        """Every lemma listed for a part of speech (multi-word ones joined by "_")."""
        return list(self.index[pos])

    def senses(self, lemma: str, pos: str) -> Iterator[tuple[str, Synset]]:
        for number, offset in enumerate(self.index[pos].get(lemma, ()), start=1):
            yield f"{lemma}.{pos}.{number:02d}", self.synset(pos, offset)


_SEED = re.compile(r"(?P<sense>[^+&]+)(?:\+(?P<depth>[0-9]))?(?P<similar>&)?")


def expand(wn: WordNet, spec: dict[str, Any]) -> set[str]:
    """Lemmas of the seeds and of what each seed asks for: `hide.v.01+1` adds its hyponyms
    (troponyms, for verbs) one level down, `covert.a.01&` its similar adjectives; `derived`
    adds derivationally related words (and adverb pertainyms) of those parts of speech."""
    derived = set(spec.get("derived", []))
    out: set[str] = set()
    frontier = []
    for seed in spec["seeds"]:
        m = _SEED.fullmatch(seed)
        if m is None:
            raise SystemExit(f"not a seed: {seed!r}")
        frontier.append((wn.sense(m["sense"]), int(m["depth"] or 0), bool(m["similar"])))
    seen: set[tuple[str, int]] = set()
    while frontier:
        synset, depth, similar = frontier.pop()
        if (synset.pos, synset.offset) in seen:
            continue
        seen.add((synset.pos, synset.offset))
        out.update(synset.lemmas)
        for symbol, pos, offset in synset.pointers:
            if symbol == _HYPONYM and depth > 0:
                frontier.append((wn.synset(pos, offset), depth - 1, False))
            elif (symbol == _SIMILAR and similar) or (
                symbol in (_DERIVED, _PERTAINYM) and pos in derived
            ):
                out.update(wn.synset(pos, offset).lemmas)
    excluded = set(spec.get("exclude", []))
    return {lemma for lemma in out if lemma not in excluded}


def yaml_words(paths: Iterable[Path]) -> set[str]:
    """Every single word in the other lexicon files (their forms are derived here too)."""
    words: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, str):
            words.update(w for w in node.lower().split() if w.isalpha())
        elif isinstance(node, list):
            for item in node:
                walk(item)
        elif isinstance(node, dict):
            for value in node.values():
                walk(value)

    for path in paths:
        walk(yaml.safe_load(path.read_text("utf-8")))
    return words


def inflections(vocabulary: set[str]) -> tuple[dict[str, str], str]:
    """Inflected form -> lemma for every word of `vocabulary`, from simplemma's English
    dictionary (its form -> lemma table, inverted); and the simplemma version used."""
    import simplemma
    from simplemma.strategies.dictionaries.dictionary_factory import DefaultDictionaryFactory

    table = DefaultDictionaryFactory().get_dictionary("en")
    forms: dict[str, str] = {}
    for form, lemma in table.items():
        low = form.lower()
        if lemma in vocabulary and low != lemma and low.replace("-", "").isalpha():
            forms.setdefault(low, lemma)
    return dict(sorted(forms.items())), str(simplemma.__version__)


def frame_slots(
    classes: dict[str, Any], forms: dict[str, str], dictionary: frozenset[str] = frozenset()
) -> dict[str, list[str]]:
    """Every token of each frame slot (`frames.yaml`): its words and its WordNet classes'
    lemmas, with their inflected forms; computed here so a scan only reads the result. A slot
    with `dictionary_words_of: X` holds the words of slot X that are WordNet nouns or verbs
    (`dictionary`): command names that are also English words."""
    by_lemma: dict[str, set[str]] = {}
    for form, lemma in forms.items():
        by_lemma.setdefault(lemma, set()).add(form)
    doc = yaml.safe_load((LEXICON / "frames.yaml").read_text("utf-8"))
    out: dict[str, list[str]] = {}
    for name, body in sorted(doc["slots"].items()):
        lemmas = {str(w).lower() for w in body.get("words", [])}
        source = body.get("dictionary_words_of")
        if source is not None:
            lemmas |= {str(w).lower() for w in doc["slots"][source].get("words", [])} & dictionary
        for cls in body.get("wordnet", []):
            lemmas |= set(classes[cls]["words"])
        tokens = set(lemmas)
        for lemma in lemmas:
            tokens |= by_lemma.get(lemma, set())
        out[name] = sorted(tokens)
    return out


def build(root: Path) -> str:
    seeds = yaml.safe_load(SEEDS.read_text("utf-8"))
    wn = WordNet(root)
    classes: dict[str, Any] = {}
    vocabulary: set[str] = set()
    for name, spec in sorted(seeds["classes"].items()):
        lemmas = expand(wn, spec)
        words = sorted(lemma for lemma in lemmas if "_" not in lemma)
        phrases = sorted(lemma.split("_") for lemma in lemmas if "_" in lemma)
        classes[name] = {"pos": spec["pos"], "seeds": spec["seeds"], "words": words}
        if phrases:
            classes[name]["phrases"] = phrases
        vocabulary.update(words)
        vocabulary.update(w for p in phrases for w in p)
    others = sorted(p for p in LEXICON.glob("*.yaml") if p.name not in SEED_FILES)
    vocabulary |= yaml_words(others)
    forms, version = inflections(vocabulary)
    dictionary = frozenset(wn.lemmas("n")) | frozenset(wn.lemmas("v"))
    slots = frame_slots(classes, forms, dictionary)
    # Every one-word verb of WordNet, in its base form: a clause opening with one of these
    # before an object ("close them", "finish the download") is an imperative
    # (checks/text/language.py), whichever verb a writer chose.
    verbs = sorted(w for w in wn.lemmas("v") if w.isascii() and w.isalpha() and w.islower())
    doc = {
        "schema": SCHEMA,
        "source": "WordNet 3.0, Copyright 2006 by Princeton University (see WORDNET-LICENSE)",
        "lemmatiser": f"simplemma {version} (English dictionary, inverted)",
        "generator": "scripts/build_lexicon.py from wordnet-seeds.yaml",
        "classes": classes,
        "forms": forms,
        "slots": slots,
        "verb_lemmas": " ".join(verbs),
    }
    return json.dumps(doc, indent=1, sort_keys=True, ensure_ascii=True) + "\n"


def show(wn: WordNet, query: str) -> None:
    lemma, _, pos = query.partition(".")
    for key, synset in wn.senses(lemma, pos or "v"):
        print(f"{key}  {', '.join(synset.lemmas)}  -- {synset.gloss[:110]}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the shipped file")
    parser.add_argument("--show", metavar="LEMMA.POS", help="list a word's senses and stop")
    parser.add_argument("--wordnet", type=Path, default=Path(os.environ.get("WORDNET_DIR", "")
                        or "/usr/share/wordnet"))  # fmt: skip
    args = parser.parse_args(argv)
    if args.show:
        show(WordNet(args.wordnet), args.show)
        return 0
    text = build(args.wordnet)
    if args.check:
        same = OUTPUT.exists() and OUTPUT.read_text("utf-8") == text
        print("up to date" if same else f"{OUTPUT} is stale: run scripts/build_lexicon.py")
        return 0 if same else 1
    OUTPUT.write_text(text, "utf-8")
    print(f"wrote {OUTPUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
