"""What the gate tests of the performance passes share (tests/test_perf26_gate_order.py,
test_perf27_precedence_gate.py, test_perf27_conceal_gate.py): the texts a gate is checked on,
detection compared with a gate forced open, and the quiet shortcut's agreement with the gates."""

from __future__ import annotations

import copy
import sys
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager
from pathlib import Path

from json_strings import corpus_strings, json_strings
from toolwitness.checks.injection import detect, quiet
from toolwitness.checks.injection.model import FieldContext
from toolwitness.checks.text.language import split_identifier
from toolwitness.checks.text.lexicon import Lexicon, lexicon

ROOT = Path(__file__).resolve().parent.parent

sys.path.insert(0, str(ROOT / "benchmarks"))
from catalogs import catalog  # noqa: E402

OpenGate = Callable[[], AbstractContextManager[None]]


def generated_headers(kind: str) -> list[str]:
    """The generated catalog's tools' joined headers, as `QuietTools.header` joins them."""
    out = []
    for tool in catalog(400, kind)["tools"]:
        texts = [t for t in (tool.get("title"), tool.get("description")) if isinstance(t, str)]
        props = tool.get("inputSchema", {}).get("properties", {})
        texts += [p["description"] for p in props.values() if isinstance(p.get("description"), str)]
        out.append("\n".join([" ".join(split_identifier(tool["name"])), *texts]))
    return out


def gate_texts(extra: Iterable[str]) -> set[str]:
    """Every corpus string (but the withheld blind sets': `WITHHELD`), the generated catalogs'
    strings and headers, and the test's own sentences."""
    texts = set(corpus_strings(ROOT))
    for kind in ("benign", "poisoned"):
        texts.update(json_strings(catalog(400, kind)))
        texts.update(generated_headers(kind))
    return texts | set(extra)


def own_lexicon() -> Lexicon:
    """A lexicon object other than the shared one: `detect` computes its gates afresh."""
    lex = copy.copy(lexicon())
    assert lex is not lexicon()
    return lex


def same_detection(
    text: str, lex: Lexicon, contexts: Iterable[FieldContext], open_gate: OpenGate
) -> None:
    """`detect` gives the same signals with the gate as with it forced open, in every context."""
    for ctx in contexts:
        gated = detect.detect(text, ctx, lex)
        with open_gate():
            full = detect.detect(text, ctx, lex)
        assert gated == full, (text, ctx)


def quiet_agrees(raw: str, open_gate: OpenGate) -> int:
    """The quiet shortcut decides as it did with the condition forced open wherever that
    decided; where only the condition decides, it decides as the gates and the context-free
    detectors do (`gated_words`). How many texts only the condition decided."""
    if detect.WORDLIKE.fullmatch(raw) or not raw:
        return 0
    tables = quiet.gate_tables()
    fast = quiet.closed_words(raw, False)
    with open_gate():
        before = quiet.closed_words(raw, False)
        joined_before = quiet.text_gates_closed(raw, tables)
    assert quiet.text_gates_closed(raw, tables, shared=True) == quiet.text_gates_closed(
        raw, tables
    ), raw
    if joined_before is not None:
        assert quiet.text_gates_closed(raw, tables) == joined_before, raw
    if before is not None:
        assert fast == before, raw
        return 0
    if fast is not None:
        assert fast == quiet.gated_words(raw, detect.DETECTORS), raw
        return 1
    return 0
