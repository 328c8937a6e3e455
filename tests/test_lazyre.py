"""`lazy_compile` answers as `re.compile` does, compiles nothing at import and once at first use
(issue 17: module-level patterns a scan never searches with cost start-up time)."""

from __future__ import annotations

import re

import pytest

from toolwitness import lazyre
from toolwitness.lazyre import lazy_compile

_PATTERNS = [
    (r"[A-Za-z]{4,}", 0),
    (r"\b(?:read[- ]?only|view[- ]only)\b", re.IGNORECASE),
    (r"(\w+)@(\w+)\.com", 0),
    (r"^[ \t]*([^=\n]{1,200}?)[ \t]*=", re.MULTILINE),
    ("[\u3040-\u30ff\u3400-\u4dbf]", 0),
    (r"", 0),
]
_TEXTS = ["", "Read-only view of ann@example.com and bob@test.com", "key = 1\n  other=2",
          "日本語のテキスト", "a b c d", "READ ONLY"]  # fmt: skip


@pytest.mark.parametrize(("pattern", "flags"), _PATTERNS)
def test_every_method_answers_as_the_compiled_pattern(pattern: str, flags: int) -> None:
    compiled = re.compile(pattern, flags)

    def spans(m: re.Match[str] | None) -> object:
        return None if m is None else (m.span(), m.groups())

    for text in _TEXTS:
        for pos, endpos in ((0, len(text)), (1, len(text)), (0, max(len(text) - 2, 0))):
            for method in ("search", "match", "fullmatch"):
                got = getattr(lazy_compile(pattern, flags), method)(text, pos, endpos)
                assert spans(got) == spans(getattr(compiled, method)(text, pos, endpos))
            got_all = lazy_compile(pattern, flags).findall(text, pos, endpos)
            assert got_all == compiled.findall(text, pos, endpos)
            got_iter = lazy_compile(pattern, flags).finditer(text, pos, endpos)
            assert [spans(m) for m in got_iter] == [
                spans(m) for m in compiled.finditer(text, pos, endpos)
            ]
        assert lazy_compile(pattern, flags).sub("<\\g<0>>", text) == compiled.sub("<\\g<0>>", text)
        assert lazy_compile(pattern, flags).sub(lambda m: m.group().upper(), text, 1) == (
            compiled.sub(lambda m: m.group().upper(), text, 1)
        )
        assert lazy_compile(pattern, flags).subn("-", text) == compiled.subn("-", text)
        assert lazy_compile(pattern, flags).split(text, 2) == compiled.split(text, 2)
        lazy = lazy_compile(pattern, flags)
        lazy.search(text)  # compiled now: later calls run the pattern's own methods
        assert lazy.findall(text) == compiled.findall(text)
        assert lazy.split(text) == compiled.split(text)
    assert lazy_compile(pattern, flags).pattern == pattern


def test_compiled_at_first_use_only_and_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    real = re.compile

    def counting(pattern: str, flags: int = 0) -> re.Pattern[str]:
        calls.append(pattern)
        return real(pattern, flags)

    monkeypatch.setattr(lazyre.re, "compile", counting)
    lazy = lazy_compile(r"x+y")
    assert calls == []
    assert lazy.search("axxy") is not None
    assert calls == [r"x+y"]
    assert lazy.match("xy") is not None and lazy.sub("", "xyz") == "z"
    assert lazy.findall("xy xxy") == ["xy", "xxy"]
    assert calls == [r"x+y"]
    # the compiled pattern's bound methods now stand on the instance
    assert vars(lazy)["search"].__self__.pattern == r"x+y"


def test_invalid_pattern_raises_at_first_use() -> None:
    lazy = lazy_compile(r"(unclosed")
    with pytest.raises(re.error):
        lazy.search("text")


def test_a_method_bound_before_first_use_compiles_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    real = re.compile
    monkeypatch.setattr(lazyre.re, "compile", lambda p, f=0: calls.append(p) or real(p, f))
    fullmatch = lazy_compile(r"[a-z]+").fullmatch  # as `inert = INERT.fullmatch` does
    assert [bool(fullmatch(t)) for t in ("abc", "ab1", "z")] == [True, False, True]
    assert calls == [r"[a-z]+"]
