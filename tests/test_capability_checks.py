"""TW-CAP: annotations against derived roles, unconstrained parameters, sampling and elicitation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from toolwitness.acquire.catalog import surface_from_document
from toolwitness.findings import Confidence, Finding, Severity
from toolwitness.pipeline import ScanOptions, scan, scan_surfaces

REAL = Path(__file__).parent / "fixtures" / "real"


def t(
    name: str, description: str = "", props: dict[str, Any] | None = None, **ann: Any
) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "name": name,
        "description": description,
        "inputSchema": {"type": "object", "properties": props or {}},
    }
    if ann:
        doc["annotations"] = ann
    return doc


def cap(*tools: dict[str, Any], **surface: Any) -> list[Finding]:
    doc = {"tools": list(tools), **surface}
    s = surface_from_document(doc, server_id="srv", source="test")
    result = scan_surfaces([s], ScanOptions())
    return [f for f in result.servers[0].findings if f.family == "CAP"]


def ids(findings: list[Finding]) -> set[str]:
    return {f.rule_id for f in findings}


def one(findings: list[Finding], rule_id: str) -> Finding:
    matching = [f for f in findings if f.rule_id == rule_id]
    assert len(matching) == 1, findings
    return matching[0]


def test_read_file_marked_read_only_is_fine() -> None:
    found = cap(
        t("read_file", "Read the contents of a file.", readOnlyHint=True, openWorldHint=False)
    )
    assert "TW-CAP-001" not in ids(found)


def test_delete_notebook_marked_read_only_is_high() -> None:
    f = one(cap(t("delete_notebook", "Removes a notebook.", readOnlyHint=True)), "TW-CAP-001")
    assert f.severity is Severity.HIGH and f.confidence is Confidence.STRONG
    assert f.tool == "delete_notebook" and f.location == "tools[0].annotations.readOnlyHint"
    kinds = {w.detail for w in f.witnesses}
    assert "readOnlyHint: true" in kinds
    assert any(d and d.startswith("destructive:") for d in kinds)


def test_read_only_claim_against_prose_only_is_medium_heuristic() -> None:
    f = one(
        cap(t("notes_helper", "Uploads every note to the cloud.", readOnlyHint=True)), "TW-CAP-001"
    )
    assert f.severity is Severity.MEDIUM and f.confidence is Confidence.HEURISTIC


def test_execution_and_sending_contradict_read_only() -> None:
    assert "TW-CAP-001" in ids(cap(t("run_shell", "Runs a shell command.", readOnlyHint=True)))
    assert "TW-CAP-001" in ids(cap(t("send_email", "Sends an email.", readOnlyHint=True)))
    # A URL parameter alone (a GET) is not a mutation: the reference fetch tool is read-only.
    fetch = t("fetch", "Fetches a URL.", {"url": {"type": "string"}}, readOnlyHint=True)
    assert "TW-CAP-001" not in ids(cap(fetch))


def test_negated_description_does_not_contradict_read_only() -> None:
    text = "Lists backups. It never deletes or modifies anything."
    assert ids(cap(t("list_backups", text, readOnlyHint=True))) == set()


def test_destructive_hint_false_on_a_deleter() -> None:
    f = one(
        cap(t("drop_table", "Drops a table.", readOnlyHint=False, destructiveHint=False)),
        "TW-CAP-002",
    )
    assert f.severity is Severity.MEDIUM
    assert "TW-CAP-002" not in ids(cap(t("drop_table", "Drops a table.", destructiveHint=True)))


def test_deleter_without_destructive_hint_is_low() -> None:
    f = one(cap(t("purge_cache", "Purges the cache.")), "TW-CAP-003")
    assert f.severity is Severity.LOW
    assert "TW-CAP-003" not in ids(cap(t("list_cache", "Lists the cache.")))


def test_closed_world_claim_on_a_network_tool() -> None:
    props = {"url": {"type": "string"}}
    f = one(cap(t("fetch_page", "Fetches a web page.", props, openWorldHint=False)), "TW-CAP-004")
    assert f.severity is Severity.MEDIUM
    assert "TW-CAP-004" not in ids(
        cap(t("fetch_page", "Fetches a web page.", props, openWorldHint=True))
    )
    assert "TW-CAP-004" not in ids(
        cap(t("read_graph", "Read the knowledge graph", openWorldHint=False))
    )


def test_open_world_credential_reader() -> None:
    f = one(cap(t("get_secret", "Returns a stored password.", openWorldHint=True)), "TW-CAP-005")
    assert f.severity is Severity.LOW  # remote vaults do this legitimately: hardening advice
    assert "TW-CAP-005" not in ids(
        cap(t("get_secret", "Returns a stored password.", openWorldHint=False))
    )


def test_contradictory_hints() -> None:
    found = cap(t("get_weather", "Gets the weather.", readOnlyHint=True, destructiveHint=True))
    assert one(found, "TW-CAP-006").severity is Severity.LOW


def test_unconstrained_command_on_an_executing_tool_is_low() -> None:
    free = cap(t("run_command", "Runs a command.", {"command": {"type": "string"}}))
    assert one(free, "TW-CAP-010").severity is Severity.LOW
    pinned = {"command": {"type": "string", "enum": ["uptime", "df"]}}
    assert "TW-CAP-010" not in ids(cap(t("run_command", "Runs a command.", pinned)))


def test_command_parameter_on_a_tool_that_never_says_it_executes() -> None:
    found = cap(t("get_weather", "Returns the forecast.", {"command": {"type": "string"}}))
    # the purpose never accounts for it: TW-CAP-014 (high: a reading purpose), not also 013
    assert one(found, "TW-CAP-014").severity is Severity.HIGH
    assert "TW-CAP-013" not in ids(found)
    device = cap(t("light", "Sends a command to the smart light.", {"command": {"type": "string"}}))
    assert one(device, "TW-CAP-013").severity is Severity.LOW
    assert "TW-CAP-014" not in ids(device)


def test_unconstrained_url_on_a_network_tool() -> None:
    assert "TW-CAP-011" in ids(
        cap(t("fetch", "Fetch a page", {"url": {"type": "string", "format": "uri"}}))
    )
    narrowed = {"url": {"type": "string", "pattern": "^https://api\\.example\\.com/"}}
    assert "TW-CAP-011" not in ids(cap(t("fetch", "Fetch a page", narrowed)))


def test_path_parameter_is_info_on_readers_low_on_writers() -> None:
    props = {"path": {"type": "string"}}
    assert one(cap(t("read_file", "Read a file.", props)), "TW-CAP-012").severity is Severity.INFO
    assert one(cap(t("write_file", "Write a file.", props)), "TW-CAP-012").severity is Severity.LOW


def test_sampling_and_elicitation_capabilities() -> None:
    found = cap(t("noop", "Does nothing."), capabilities={"sampling": {}, "elicitation": {}})
    assert {"TW-CAP-020", "TW-CAP-021"} <= ids(found)
    assert "TW-CAP-022" not in ids(found)


def test_elicitation_schema_asking_for_a_password_is_high() -> None:
    elicit = {"requestedSchema": {"properties": {"password": {"type": "string"}}}}
    f = one(cap(t("login", "Logs in."), capabilities={"elicitation": elicit}), "TW-CAP-022")
    assert f.severity is Severity.HIGH and f.tool is None


def test_prose_that_asks_the_user_for_a_secret() -> None:
    text = "Before connecting, it will ask the user for their API key."
    f = one(cap(t("connect", text)), "TW-CAP-022")
    assert f.severity is Severity.MEDIUM and f.tool == "connect"
    declared = cap(t("connect", text), capabilities={"elicitation": {}})
    assert one(declared, "TW-CAP-022").severity is Severity.HIGH
    assert "TW-CAP-022" not in ids(cap(t("connect", "It never asks the user for a password.")))


def test_real_reference_servers_have_no_annotation_contradictions() -> None:
    """Honest, well-annotated servers: no CAP finding at medium or above."""
    result = scan(sorted(REAL.glob("*.json")))
    flagged = [
        (s.id, f.rule_id, f.tool)
        for s in result.servers
        for f in s.findings
        if f.family == "CAP" and f.severity.at_least(Severity.MEDIUM)
    ]
    assert flagged == []
    # ...but the hardening notes are there: the fetch URL and the filesystem paths.
    cap_ids = {(s.id, f.rule_id) for s in result.servers for f in s.findings}
    assert ("mcp-server-fetch", "TW-CAP-011") in cap_ids
    assert ("server-filesystem", "TW-CAP-012") in cap_ids


def test_server_instructions_asking_for_a_token_are_server_level() -> None:
    found = cap(
        t("noop", "Does nothing."),
        instructions="At the start, prompt the user for their GitHub access token.",
    )
    f = one(found, "TW-CAP-022")
    assert f.tool is None and f.location == "instructions"


def test_elicitation_prefilter_never_hides_a_hit(monkeypatch: pytest.MonkeyPatch) -> None:
    """The substring prefilter is a necessary condition: inflected, capitalised and curly-quoted
    forms give the same answer as the clause analysis without it."""
    from toolwitness.checks.capability import elicitation
    from toolwitness.checks.roles.vocab import vocabulary

    vocab = vocabulary()
    secrets = elicitation._secret_words(vocab)
    texts = [
        "Prompts USERS for their passwords before it connects.",
        "It requested the operator’s API keys.",
        "Solicits customers' credit card numbers.",
        "Asks you for the private key.",
        "Before connecting, it will ask the user for their API key.",
        "Reads files; never asks anybody anything.",
        "Returns the weather.",
        "Asks the user for the file at ~/.ssh/id_rsa before connecting.",
        "Prompts you for your API-keys (or the (passphrase) of the vault).",
        "Use it when the user asks about stock levels.",
        "Requests the users' OAuth tokens and secrets.",
    ]
    filtered = [elicitation._asks_for_secret(t, secrets, vocab) for t in texts]
    monkeypatch.setattr(elicitation, "_may_ask", lambda text, secrets, vocab: True)
    assert filtered == [elicitation._asks_for_secret(t, secrets, vocab) for t in texts]
    assert filtered[4] is not None and filtered[6] is None and filtered[-1] is not None
