"""What a tool says of itself in a language the role reader does not read: a claim to only read
("Aperçu en lecture seule", "Только чтение", "Hanya membaca stok"), or to change nothing
("ničesar ne spreminja", "tidak mengubah apa pun"), and a switch named for deleting
("supprimer_apres", "hapus_produk_kosong").

The classes (`read`, `only`, `change`, `delete`, `negator`) are WordNet senses taken into other
languages through the dictionaries (`scripts/build_multilingual.py`). A claim is two of them in
one language within two words of each other in one sentence: "read" beside "only", or a
negator beside "change". Switch names are matched word by word, also with their accents
dropped, since identifiers are often written in ASCII ("izbrisi" for "izbriši").
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from toolwitness.checks.roles.text import name_tokens
from toolwitness.checks.text.english import in_another_language
from toolwitness.checks.text.multilingual import classes_of, multilingual_classes, words_of
from toolwitness.lazyre import lazy_compile

_SENTENCE = lazy_compile(r"[^.!?;:\n\u037e\u3002]+")
_PAIR_REACH = 2  # "lecture seule", "только чтение", "ne modifie rien", "ничего не изменяет"
_MAX_CHARS = 4000  # the opening of a description: where a tool says what it is


def _near(found: dict[str, list[int]], a: str, b: str) -> bool:
    return any(abs(i - j) <= _PAIR_REACH for i in found.get(a, ()) for j in found.get(b, ()))


def claims_read_only(text: str | None) -> bool:
    """The text, in another language, says the tool only reads or changes nothing."""
    if not text or not in_another_language(text):
        return False
    for m in _SENTENCE.finditer(text[:_MAX_CHARS]):
        words = words_of(m.group())
        if len(words) < 2:
            continue
        for found in classes_of(words).values():
            # a word of `only` that is also a negator is the negator ("ne … que", "no … más
            # que" translate "only"): "no lee" does not read, it claims nothing
            negators = set(found.get("negator", ()))
            only = [i for i in found.get("only", ()) if i not in negators]
            if _near({**found, "only": only}, "read", "only") or _near(found, "negator", "change"):
                return True
    return False


def _fold(word: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c))


@lru_cache(maxsize=1)
def _deleting_words() -> frozenset[str]:
    """The forms of the `delete` class in every language, as written and without accents."""
    forms = {w for w, senses in multilingual_classes().items()
             if any(name == "delete" for _, name in senses)}  # fmt: skip
    return frozenset(forms | {_fold(w) for w in forms})


def deleting_word(name: str) -> str | None:
    """The word of a parameter's name that means deleting in another language, if any."""
    words = _deleting_words()
    return next((t for t in name_tokens(name) if len(t) > 3 and t in words), None)
