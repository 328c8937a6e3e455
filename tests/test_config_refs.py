"""References in config values: parsed as written, read with their defaults where that matters,
never expanded from the environment; and what the posture checks make of them."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toolwitness.acquire.config_entry import EntryContext, spec_from_entry
from toolwitness.acquire.config_refs import (
    MAX_NESTING,
    MAX_REFERENCES,
    PLACEHOLDER,
    defaults,
    references,
    rewrite_defaults,
    with_defaults,
)
from toolwitness.acquire.targets import static_surfaces
from toolwitness.checks.interface import CheckContext
from toolwitness.checks.posture import transport_posture
from toolwitness.commands.discover_view import shown_args, shown_url, shown_value
from toolwitness.errors import InputError
from toolwitness.rules import load_registry

TOKEN = "ghp_" + "Qw8Er4Ty6Ui2Op0As9Df" * 2


@pytest.mark.parametrize(
    ("value", "kind", "name", "default"),
    [
        (
            "${API_BASE_URL:-https://api.example.com}/mcp",
            "var",
            "API_BASE_URL",
            "https://api.example.com",
        ),
        ("${VAR-fallback}", "var", "VAR", "fallback"),
        ("${env:GITHUB_TOKEN}", "env", "GITHUB_TOKEN", None),
        ("${input:perplexity-key}", "input", "perplexity-key", None),
        ("{env:OPENCODE_KEY}", "env", "OPENCODE_KEY", None),
        ("$GH_PAT", "shell", "GH_PAT", None),
        ("$(op read op://vault/key)", "command", "op read op://vault/key", None),
        ("%APPDATA%\\npm\\x.cmd", "windows", "APPDATA", None),
        ("${__dirname}/server/index.js", "var", "__dirname", None),
        ("${user_config.api_key}", "var", "user_config.api_key", None),
        ("${A:-${B:-c}}", "var", "A", "${B:-c}"),
    ],
)
def test_reference_forms(value: str, kind: str, name: str, default: str | None) -> None:
    (ref,) = references(value)
    assert (ref.kind, ref.name, ref.default) == (kind, name, default)


def test_what_is_not_a_reference() -> None:
    assert references("https://h.example/a%E2%80%AE") == []  # percent-encoding, not %VAR%
    assert references("${unterminated") == [] and references("price $5") == []
    assert with_defaults("${A:-${B:-c}}d") == ("cd", False)
    assert with_defaults("${HOME}/bin/x") == (f"{PLACEHOLDER}/bin/x", True)
    assert defaults("Bearer ${T:-abc} ${U}") == ["abc"]
    assert rewrite_defaults("${T:-secret}/${U}", lambda _: "<r>") == "${T:-<r>}/${U}"


def test_nesting_and_count_are_bounded() -> None:
    deep = "${A:-" * 50 + "x" + "}" * 50
    (ref,) = references(deep)  # the outer levels are too deep and read as text; an inner one
    assert ref.default is not None and ref.default.count("${") < MAX_NESTING
    many = "${A}" * (MAX_REFERENCES * 3)
    assert len(references(many)) == MAX_REFERENCES


@given(st.text(alphabet="${}:-%()ab_/ ", max_size=200))
def test_any_text_parses_without_error_and_keeps_its_order(value: str) -> None:
    refs = references(value)
    for a, b in itertools.pairwise(refs):
        assert a.end <= b.start
    assert all(value[r.start : r.end] == r.text(value) for r in refs)
    assert rewrite_defaults(value, lambda d: d) == value  # identity rewrite keeps the text


def _spec(entry: dict[str, object]):  # type: ignore[no-untyped-def]
    return spec_from_entry("s", entry, EntryContext("claude-code", ".mcp.json"), "mcpServers.s")


@pytest.mark.parametrize(
    "url",
    [
        "${API_BASE_URL:-https://api.example.com}/mcp",
        "${MCP_URL}",
        "https://${HOST}/mcp",
        "https://h.example:${PORT}/mcp",
        "${env:BASE}/mcp",
    ],
)
def test_urls_made_of_references_are_accepted_as_written(url: str) -> None:
    assert _spec({"type": "http", "url": url}).transport.url == url


@pytest.mark.parametrize("url", ["${X:-ftp://h}/mcp", "${X:-not a url}", "https://h:99999/mcp"])
def test_a_default_that_is_not_an_http_url_is_refused(url: str) -> None:
    with pytest.raises(InputError, match="not a well-formed http"):
        _spec({"url": url})


def _rules(entry: dict[str, object]) -> dict[str, str]:
    (surface,) = static_surfaces([_spec(entry)])
    ctx = CheckContext(rules=load_registry([]))
    return {f.rule_id: f.message for f in transport_posture(surface, ctx)}


def test_posture_reads_a_url_with_its_defaults() -> None:
    assert "TW-NET-003" not in _rules({"url": "${BASE:-https://api.example.com}/mcp"})
    plain = _rules({"url": "${BASE:-http://10.1.2.3:8080}/mcp"})
    assert "default the config writes" in plain["TW-NET-003"]
    assert "TW-NET-005" in _rules({"url": "${BASE:-http://127.0.0.1:3000}/mcp"})
    assert _rules({"url": "${MCP_URL}"}) == {}  # nothing to judge: the client fills it in


def test_a_literal_secret_written_as_a_default_is_a_literal_secret() -> None:
    found = _rules(
        {"command": "npx", "args": ["-y", "x@1.0.0"], "env": {"T": "${T:-" + TOKEN + "}"}}
    )
    assert "TW-NET-006" in found and TOKEN[4:] not in found["TW-NET-006"]
    assert "TW-NET-006" not in _rules({"command": "npx", "args": ["x@1"], "env": {"T": "${T}"}})


def test_displayed_values_mask_defaults_and_secrets() -> None:
    assert shown_value("${env:X}") == "${env:X}"
    assert shown_value("Bearer ${TOKEN}") == "Bearer ${TOKEN}"
    assert shown_value("${TOKEN:-" + TOKEN + "}") == "${TOKEN:-<redacted>}"
    assert shown_value("plain-value") == "<redacted>"
    assert shown_args(("--token", "${T:-" + TOKEN + "}", "--root", "${PWD:-.}")) == [
        "--token", "<redacted>", "--root", "${PWD:-.}",
    ]  # fmt: skip
    assert (
        shown_url("${BASE:-https://api.example.com}/mcp") == "${BASE:-https://api.example.com}/mcp"
    )
    masked = shown_url("${BASE:-https://u:" + TOKEN + "@h.example}/mcp?key=" + TOKEN)
    assert TOKEN[4:] not in masked and masked.startswith("${BASE:-https://u:<redacted>@h.example}")
