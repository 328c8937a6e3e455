"""The nineteenth pass's report writing: the same bytes with less memory held at once.

- `dumps_indented` writes the shallow containers (a report, its servers, their findings and
  tools lists) piece by piece into one list joined once, instead of joining every container:
  the same text as `json.dumps(indent=2, ensure_ascii=True)` (tests/test_json_text.py holds the
  property; here documents of a report's depth and deeper), and while it writes, the memory it
  holds beyond the text is counted (tracemalloc), not timed.
- `emit` writes a long ASCII text a slice at a time, so a text stream never encodes the whole
  report at once; the bytes written are the same, and other text is written whole.
"""

from __future__ import annotations

import io
import json
import tracemalloc
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from toolwitness import cli_support
from toolwitness.report.json_text import dumps_indented

_scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8)
_nested = st.recursive(
    _scalars,
    lambda children: (
        st.lists(children, max_size=4)
        | st.lists(children, max_size=3).map(tuple)
        | st.dictionaries(st.text(max_size=4) | st.integers() | st.booleans(), children, max_size=4)
    ),
    max_leaves=60,
)


@settings(max_examples=400, deadline=None)
@given(_nested)
def test_deep_and_shallow_documents_equal_json_dumps(value: Any) -> None:
    assert dumps_indented(value) == json.dumps(value, indent=2, ensure_ascii=True)
    assert dumps_indented(value, "\n") == json.dumps(value, indent=2, ensure_ascii=True) + "\n"


def _report(n: int) -> dict[str, Any]:
    finding = {
        "rule_id": "TW-INJ-001", "title": "Instruction to the model", "severity": "high",
        "confidence": "strong", "tool": "t", "location": "tools[1].description",
        "message": "m" * 200, "evidence": "e\u202e" * 150, "witnesses": [{"kind": "field"}],
    }  # fmt: skip
    return {
        "schema": "toolwitness.report/1",
        "servers": [
            {
                "id": "a",
                "tools": [
                    {"name": f"t{i}", "roles": ["network"], "witnesses": {}} for i in range(n)
                ],
                "findings": [dict(finding, tool=f"t{i}") for i in range(n)],
                "suppressed": [],
            }
        ],
        "summary": {"tools": n, "findings": {"high": n}},
    }


def test_a_report_is_written_with_one_join() -> None:
    doc = _report(3000)
    assert dumps_indented(doc, "\n") == json.dumps(doc, indent=2, ensure_ascii=True) + "\n"
    tracemalloc.start()
    try:
        start = tracemalloc.get_traced_memory()[0]
        text = dumps_indented(doc, "\n")
        held = tracemalloc.get_traced_memory()[1] - start
    finally:
        tracemalloc.stop()
    # The members' texts and the joined text: about twice the text. Joining at every level
    # held three times it on this document (five times on a real 5,000-tool report).
    assert held < 2.5 * len(text)


class _Recorder(io.StringIO):
    def __init__(self) -> None:
        super().__init__()
        self.sizes: list[int] = []

    def write(self, s: str) -> int:
        self.sizes.append(len(s))
        return super().write(s)


def test_long_ascii_text_is_written_in_slices(monkeypatch: Any) -> None:
    text = "".join(f'{{"n": {i}}},\n' for i in range(300_000))
    assert len(text) > 2 * cli_support._EMIT_SLICE
    stream = _Recorder()
    monkeypatch.setattr(cli_support.sys, "stdout", stream)
    cli_support.emit(text, None)
    assert stream.getvalue() == text
    assert max(stream.sizes) == cli_support._EMIT_SLICE
    assert len(stream.sizes) == -(-len(text) // cli_support._EMIT_SLICE)


def test_other_text_is_written_whole(monkeypatch: Any, tmp_path: Path) -> None:
    for text in ("short", "é" * (cli_support._EMIT_SLICE + 5)):
        stream = _Recorder()
        monkeypatch.setattr(cli_support.sys, "stdout", stream)
        cli_support.emit(text, None)
        assert stream.sizes == [len(text)]
    text = "x" * (3 * cli_support._EMIT_SLICE + 7) + "\n"
    out = tmp_path / "report.json"
    cli_support.emit(text, out)
    assert out.read_bytes() == text.encode("utf-8")
    cli_support.emit("é\n", out)
    assert out.read_bytes() == "é\n".encode()
