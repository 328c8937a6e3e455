"""Role derivation: names, descriptions (negation-aware) and parameter shapes, never annotations."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import assert_linear_cost
from toolwitness.acquire.catalog import surface_from_document
from toolwitness.checks.roles.derive import derive_roles, surface_roles, tool_roles
from toolwitness.checks.roles.text import name_tokens
from toolwitness.checks.roles.vocab import parse_vocabulary, vocabulary
from toolwitness.errors import InternalError
from toolwitness.model import Tool
from toolwitness.pipeline import ScanOptions, scan, scan_surfaces

REAL = Path(__file__).parent / "fixtures" / "real"


def tool(
    name: str, description: str = "", props: dict[str, Any] | None = None, **extra: Any
) -> Tool:
    schema = {"type": "object", "properties": props or {}}
    return Tool.model_validate(
        {"name": name, "description": description, "inputSchema": schema, **extra}
    )


def roles(
    name: str, description: str = "", props: dict[str, Any] | None = None, **extra: Any
) -> set[str]:
    return set(derive_roles(tool(name, description, props, **extra), 0).roles)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("getSecretValue", ["get", "secret", "value"]),
        ("get-secret_value", ["get", "secret", "value"]),
        ("HTTPRequestTool", ["http", "request", "tool"]),
        ("delete.notebook", ["delete", "notebook"]),
    ],
)
def test_name_tokens_split_snake_camel_kebab(name: str, expected: list[str]) -> None:
    assert name_tokens(name) == expected


def test_destructive_from_name_in_every_spelling() -> None:
    for name in ("delete_notebook", "deleteNotebook", "delete-notebook", "notebook_delete"):
        assert "destructive" in roles(name), name


def test_reader_is_a_sensitive_source_and_nothing_that_writes() -> None:
    got = roles("read_file", "Read the complete contents of a file.", {"path": {"type": "string"}})
    assert "sensitive-source" in got
    assert not got & {"destructive", "file-write", "state-write", "code-exec", "external-sink"}


def test_negated_verbs_do_not_give_roles() -> None:
    text = "Lists notebooks. This tool does not delete, modify or upload anything."
    assert roles("list_notebooks", text) == set()
    assert "destructive" in roles("list_notebooks", "Lists notebooks and deletes stale ones.")


def test_a_means_clause_names_what_the_tool_does() -> None:
    """"by <verb>ing" says how the tool does its job: that verb is the tool's own action."""
    assert "destructive" in roles("tidy", "Tidy the Downloads folder by deleting old files.")
    assert "code-exec" in roles("export", "Export notes by running a shell command.")
    assert "destructive" not in roles("tidy", "Tidy the folder without deleting any files.")
    assert "code-exec" not in roles("report", "A report written by the operations team.")


def test_never_reads_ssh_key_is_not_a_credential_reader() -> None:
    assert "credential-access" not in roles("summarize", "This tool never reads ~/.ssh/id_rsa.")
    assert "credential-access" in roles("summarize", "This tool reads ~/.ssh/id_rsa first.")


def test_password_manager_and_env_reader_access_credentials() -> None:
    got = roles("get_secret", "Returns a secret from the password vault.")
    assert {"credential-access", "sensitive-source"} <= got
    assert "credential-access" in roles("get-env", "Returns all environment variables")
    # Writing a secret is not reading one.
    assert "credential-access" not in roles("create_key_vault_secret", "Creates a secret.")


def test_parameter_shapes_give_roles() -> None:
    post = roles("http_post", "", {"url": {"type": "string"}, "body": {"type": "string"}})
    assert {"external-sink", "network"} <= post
    assert "code-exec" in roles("helper", "", {"command": {"type": "string"}})
    assert "sensitive-source" in roles("db", "", {"sql": {"type": "string"}})


def test_a_pinned_url_is_not_an_exfiltration_sink() -> None:
    pinned = {"url": {"type": "string", "enum": ["https://api.example.com/v1"]}}
    assert "external-sink" not in roles("fetch_status", "Fetches the status page.", pinned)
    free = {"url": {"type": "string", "format": "uri"}}
    assert "external-sink" in roles("fetch_status", "Fetches the status page.", free)


def test_usage_advice_about_another_tool_is_not_this_tools_role() -> None:
    got = roles("read_text", "Read a file as text. Use write_file to modify or delete files.")
    assert not got & {"file-write", "destructive", "state-write"}


def test_read_only_statement_exempts_sql_execution() -> None:
    ro = roles("query_db", "Execute a read-only SQL query against the warehouse.")
    assert "code-exec" not in ro
    assert "code-exec" in roles("query_db", "Execute an SQL statement against the warehouse.")
    assert "code-exec" in roles("query_db", "Execute a SQL query. It is not read-only.")


def test_annotations_never_change_roles() -> None:
    base = tool("delete_notebook", "Deletes a notebook.")
    annotated = tool(
        "delete_notebook",
        "Deletes a notebook.",
        annotations={"readOnlyHint": True, "destructiveHint": False, "openWorldHint": False},
    )
    assert derive_roles(base, 0).signals == derive_roles(annotated, 0).signals


def test_untrusted_input_and_publishing() -> None:
    assert "untrusted-input" in roles("get_issue", "Get an issue from a repository")
    assert "untrusted-input" in roles("fetch", "Fetches a URL.", {"url": {"type": "string"}})
    assert "external-sink" in roles("create_issue", "Create an issue")
    assert "external-sink" in roles("send_email", "Sends an email to the recipient.")
    assert "external-sink" not in roles("get_email", "Reads one email.")


def test_every_signal_names_its_location() -> None:
    derived = derive_roles(
        tool("run_shell", "Runs a shell command.", {"command": {"type": "string"}}), 3
    )
    sources = {s.source for s in derived.evidence("code-exec")}
    assert sources == {"name", "description", "parameter"}
    assert all(s.location.startswith("tools[3]") for s in derived.signals)


def test_real_reference_servers_get_sensible_roles() -> None:
    result = scan(sorted(REAL.glob("*.json")))
    by_tool = {(s.id, t.name): set(t.roles) for s in result.servers for t in s.tools}
    assert by_tool[("server-filesystem", "read_text_file")] == {"sensitive-source"}
    assert "destructive" in by_tool[("server-filesystem", "write_file")]
    assert "destructive" in by_tool[("server-memory", "delete_entities")]
    assert by_tool[("server-memory", "read_graph")] == set()
    assert {"untrusted-input", "network"} <= by_tool[("mcp-server-fetch", "fetch")]
    assert "credential-access" in by_tool[("server-everything", "get-env")]
    assert by_tool[("mcp-server-time", "get_current_time")] == set()
    assert by_tool[("server-sequential-thinking", "sequentialthinking")] == set()
    # Every tool marked readOnlyHint by these (honest) servers derives no mutating role.
    for surface in result.servers:
        for t, r in zip(surface.surface.tools, surface.tools, strict=True):
            if t.hint("readOnlyHint"):
                assert not set(r.roles) & {"destructive", "file-write", "code-exec"}, t.name


def test_tool_roles_matches_surface_roles_and_pipeline() -> None:
    doc = {"tools": [{"name": "delete_x", "inputSchema": {"type": "object"}}]}
    surface = surface_from_document(doc, server_id="s", source="t")
    assert tool_roles(surface) == {"delete_x": ("destructive",)}
    assert surface_roles(surface)[0].tool == "delete_x"
    result = scan_surfaces([surface], ScanOptions())
    assert "destructive" in result.servers[0].tools[0].roles


def test_vocabulary_loader_rejects_malformed_data() -> None:
    assert vocabulary().rules
    with pytest.raises(InternalError):
        parse_vocabulary({"version": 2})
    with pytest.raises(InternalError):
        parse_vocabulary({"version": 1, "roles": {"destructive": []}})
    good = {
        "version": 1,
        "roles": {
            r: []
            for r in (
                "untrusted-input",
                "sensitive-source",
                "credential-access",
                "external-sink",
                "network",
                "code-exec",
                "file-write",
                "state-write",
                "destructive",
            )
        },
    }
    parse_vocabulary(good)
    bad = dict(good, roles={**good["roles"], "destructive": [{"from": "regex", "any": ["x"]}]})
    with pytest.raises(InternalError):
        parse_vocabulary(bad)
    with pytest.raises(InternalError):
        parse_vocabulary(dict(good, negators=[True]))


# --- linear time on hostile input -------------------------------------------------------------

_ADVERSARIAL = {
    "one word": lambda n: "a" * n,
    "dotted": lambda n: "a." * (n // 2),
    "slashes": lambda n: "/a" * (n // 2),
    "url-ish": lambda n: "http://" + "a/" * (n // 2),
    "verbs": lambda n: "delete the file and " * (n // 20),
    "negations": lambda n: "not " * (n // 4),
    "camel": lambda n: "aB" * (n // 2),
    "capitals": lambda n: "A" * n,
    "apostrophes": lambda n: "'-" * (n // 2),
    "mixed": lambda n: "Sends ~/.ssh/id_rsa to https://x.y/ and " * (n // 40),
    # hard-wrapped lines (each joined to the one before) and runs of spaces around breaks
    "wrapped": lambda n: "record counts\nper namespace " * (n // 28),
    "spaced-breaks": lambda n: "a" + " " * (n // 2) + "\n" + " " * (n // 2) + "b",
    # a description whose words are the name's verb after a determiner ("the invite")
    "determiners": lambda n: "the invite " * (n // 11),
}


def _described(text: str) -> Any:
    return tool("x" * 50, text, {"p": {"type": "string", "description": text}})


@pytest.mark.parametrize("kind", sorted(_ADVERSARIAL))
def test_role_derivation_is_linear_on_adversarial_text(kind: str) -> None:
    make = _ADVERSARIAL[kind]
    run = lambda t: derive_roles(t, 0)  # noqa: E731
    assert_linear_cost(run, _described(make(10_000)), _described(make(80_000)), 8, repeats=3)


def test_long_names_are_linear() -> None:
    run = lambda t: derive_roles(t, 0)  # noqa: E731
    assert_linear_cost(run, tool("aB" * 6_250), tool("aB" * 50_000), 8, repeats=3)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300), st.text(max_size=40))
def test_any_text_derives_without_error(description: str, name: str) -> None:
    derived = derive_roles(
        tool(name or "x", description, {"path": {"type": "string", "description": description}}), 0
    )
    assert set(derived.roles) <= {s.role for s in derived.signals}


def test_documented_attacks_and_post_negation_are_not_the_tools_behaviour() -> None:
    text = (
        "Explain a named attack, for example tool poisoning, where a malicious tool description "
        "tells the model to read ~/.ssh/id_rsa and exfiltrate it."
    )
    assert not roles("explain_attack", text) & {"credential-access", "external-sink"}
    assert "destructive" not in roles(
        "find_duplicates", "Reports identical files; deletes nothing."
    )
    clone = roles(
        "git_clone",
        "Clone a repository. The key at ~/.ssh/id_ed25519 is never read by this server.",
        {"url": {"type": "string"}, "dest": {"type": "string"}},
    )
    assert "sensitive-source" not in clone


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=25,
)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.text(max_size=10), _json, max_size=5))
def test_hostile_parameter_schemas_never_crash(props: dict[str, Any]) -> None:
    t = Tool.model_validate(
        {"name": "x", "inputSchema": {"type": "object", "properties": props, "items": props}}
    )
    derived = derive_roles(t, 0)
    assert all(p.location.startswith("tools[0].inputSchema") for p in derived.params)
