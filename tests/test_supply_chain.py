"""Supply chain (TW-SUP): pinning, the typosquat family, version order, registry metadata."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolwitness.checks.supply_chain import pin_problem
from toolwitness.findings import Finding
from toolwitness.model import Coverage, PackageRef, ServerSurface, Transport
from toolwitness.pipeline import ScanOptions, scan
from toolwitness.supply.advisories import advisories, matching_advisories
from toolwitness.supply.names import judge_name, protected
from toolwitness.supply.registry import npm_metadata, pypi_metadata
from toolwitness.supply.versions import in_range, is_exact_version, parse_semver, version_key


def _findings(
    ecosystem: str, name: str, version: str | None, *, online: bool = False
) -> list[Finding]:
    spec = name if version is None else f"{name}@{version}"
    surface = ServerSurface(
        id="s",
        transport=Transport(kind="stdio", command="npx", args=("-y", spec)),
        package=PackageRef(ecosystem=ecosystem, name=name, version=version, spec=spec),
        coverage=(Coverage.CONFIG,),
    )
    options = ScanOptions(check_options={"online": online})
    return list(scan([surface], options).servers[0].findings)


def _sup(ecosystem: str, name: str, version: str | None) -> set[str]:
    return {
        f.rule_id for f in _findings(ecosystem, name, version) if f.rule_id.startswith("TW-SUP")
    }


# --- the acceptance pair ----------------------------------------------------------------------


def test_official_pinned_filesystem_is_clean() -> None:
    assert _sup("npm", "@modelcontextprotocol/server-filesystem", "2026.8.31") == set()


def test_misspelt_filesystem_is_flagged() -> None:
    found = [
        f
        for f in _findings("npm", "@modelcontextprotocol/server-filesytem", "2026.8.31")
        if f.rule_id == "TW-SUP-002"
    ]
    assert len(found) == 1
    assert "@modelcontextprotocol/server-filesystem" in found[0].message


# --- pinning -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ecosystem", "name", "version", "spec"),
    [
        ("npm", "pkg", None, "pkg"),
        ("npm", "pkg", "latest", "pkg@latest"),
        ("npm", "pkg", "next", "pkg@next"),
        ("npm", "pkg", "^1.2.0", "pkg@^1.2.0"),
        ("npm", "pkg", "1.x", "pkg@1.x"),
        ("npm", "github:u/r", None, "github:u/r"),
        ("pypi", "pkg", None, "pkg"),
        ("pypi", "pkg", None, "pkg>=1.0"),
        ("docker", "mcp/time", None, "mcp/time"),
        ("docker", "mcp/time", "latest", "mcp/time:latest"),
        ("docker", "mcp/time", "1.0", "mcp/time:1.0"),
    ],
)
def test_unpinned_specs(ecosystem: str, name: str, version: str | None, spec: str) -> None:
    assert (
        pin_problem(PackageRef(ecosystem=ecosystem, name=name, version=version, spec=spec))
        is not None
    )


@pytest.mark.parametrize(
    ("ecosystem", "version"),
    [
        ("npm", "1.2.3"),
        ("npm", "2026.8.31"),
        ("npm", "1.0.0-rc.1"),
        ("pypi", "1.0"),
        ("pypi", "2025.7.1.post1"),
        ("docker", "sha256:abc"),
    ],
)
def test_pinned_specs(ecosystem: str, version: str) -> None:
    assert pin_problem(PackageRef(ecosystem=ecosystem, name="p", version=version, spec="p")) is None


def test_docker_tag_is_low_latest_is_medium() -> None:
    tag = [f for f in _findings("docker", "mcp/time", "1.0") if f.rule_id == "TW-SUP-001"]
    latest = [f for f in _findings("docker", "mcp/time", "latest") if f.rule_id == "TW-SUP-001"]
    assert tag[0].severity.value == "low" and latest[0].severity.value == "medium"


# --- typosquats ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ecosystem", "name", "kind", "target"),
    [
        (
            "npm",
            "@modelcontextprotocol/server-filesytem",
            "near-miss",
            "@modelcontextprotocol/server-filesystem",
        ),
        (
            "npm",
            "@modelcontextprotocol/server-memroy",
            "near-miss",
            "@modelcontextprotocol/server-memory",
        ),
        ("npm", "mcp-remotes", "near-miss", "mcp-remote"),
        ("npm", "@modelcontextprotoco1/server-filesystem", "fake-scope", "@modelcontextprotocol"),
        ("npm", "@modelcontextprotocols/server-memory", "fake-scope", "@modelcontextprotocol"),
        ("npm", "@modeicontextprotocol/sdk", "fake-scope", "@modelcontextprotocol"),
        ("npm", "server-filesystem", "shadow", "@modelcontextprotocol/server-filesystem"),
        (
            "npm",
            "server-sequential-thinking",
            "shadow",
            "@modelcontextprotocol/server-sequential-thinking",
        ),
        ("npm", "mcp-rernote", "confusable", "mcp-remote"),
        (
            "npm",
            "@modelcontextprotocol/server-filesystem-mcp",
            "combosquat",
            "@modelcontextprotocol/server-filesystem",
        ),
        (
            "npm",
            "server-filesystem-official",
            "combosquat",
            "@modelcontextprotocol/server-filesystem",
        ),
        ("npm", "mcp-remote-secure", "combosquat", "mcp-remote"),
        ("pypi", "mcp-server-gitt", "near-miss", "mcp-server-git"),
        ("pypi", "mcp-server-tirne", "confusable", "mcp-server-time"),
        ("pypi", "mcp-server-fetch-official", "combosquat", "mcp-server-fetch"),
        ("docker", "mcp/filesytem", "near-miss", "mcp/filesystem"),
    ],
)
def test_imitations(ecosystem: str, name: str, kind: str, target: str) -> None:
    verdict = judge_name(ecosystem, name)
    assert verdict is not None, name
    assert (verdict.kind, verdict.target) == (kind, target)


@pytest.mark.parametrize(
    ("ecosystem", "name"),
    [
        ("npm", "@modelcontextprotocol/server-filesystem"),
        ("npm", "@playwright/mcp"),
        ("npm", "express"),
        ("npm", "@myorg/internal-tools"),
        ("npm", "left-pad"),
        ("pypi", "mcp_server_git"),  # PEP 503: the same project as mcp-server-git
        ("pypi", "MCP-Server-Time"),
        ("pypi", "requests"),
        ("pypi", "awslabs.aws-documentation-mcp-server"),
        ("docker", "ghcr.io/github/github-mcp-server"),
    ],
)
def test_legitimate_names_pass(ecosystem: str, name: str) -> None:
    assert judge_name(ecosystem, name) is None


def test_every_rule_of_the_family_reaches_a_finding() -> None:
    assert "TW-SUP-005" in _sup("npm", "@modelcontextprotoco1/server-filesystem", "1.0.0")
    assert "TW-SUP-006" in _sup("npm", "server-filesystem", "1.0.0")
    assert "TW-SUP-003" in _sup("npm", "mcp-rernote", "1.0.0")
    assert "TW-SUP-004" in _sup("npm", "mcp-remote-secure", "1.0.0")


def test_protected_names_never_flag_each_other() -> None:
    table = protected()
    for ecosystem, names in table.names.items():
        for name in names:
            assert judge_name(ecosystem, name) is None


@settings(deadline=None)
@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-_./@", max_size=60))
def test_judge_name_never_crashes(name: str) -> None:
    for ecosystem in ("npm", "pypi", "docker"):
        judge_name(ecosystem, name)


# --- version order ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lower", "higher"),
    [
        ("0.1.9", "0.1.16"),  # numeric, not string order
        ("2025.7.1", "2025.12.18"),
        ("1.0.0-alpha", "1.0.0-alpha.1"),
        ("1.0.0-alpha.1", "1.0.0-alpha.beta"),
        ("1.0.0-alpha.beta", "1.0.0-beta"),
        ("1.0.0-beta.2", "1.0.0-beta.11"),
        ("1.0.0-rc.1", "1.0.0"),
        ("1.0.0", "1.0.1"),
    ],
)
def test_semver_order(lower: str, higher: str) -> None:
    assert version_key("npm", lower) < version_key("npm", higher)


def test_semver_build_metadata_is_ignored_and_garbage_is_none() -> None:
    assert version_key("npm", "1.0.0+build.5") == version_key("npm", "1.0.0")
    for bad in ("1.0", "^1.0.0", "latest", "01.0.0", "1.0.0-", "x" * 200):
        assert parse_semver(bad) is None


@pytest.mark.parametrize(
    ("lower", "higher"),
    [
        ("1.0rc1", "1.0"),
        ("1.0", "1.0.post1"),
        ("1.0.dev1", "1.0a1"),
        ("2025.9.24", "2025.9.25"),
        ("1!0.1", "1!0.2"),
        ("0.9", "1!0.1"),
    ],
)
def test_pep440_order(lower: str, higher: str) -> None:
    assert version_key("pypi", lower) < version_key("pypi", higher)


def test_pep440_normalises_equivalent_spellings() -> None:
    assert version_key("pypi", "1.0.0") == version_key("pypi", "1.0")
    assert version_key("pypi", "1.0-RC1") == version_key("pypi", "1.0rc1")
    assert is_exact_version("pypi", "1.0") and not is_exact_version("pypi", "1.*")


def test_range_bounds() -> None:
    assert in_range("npm", "0.1.15", "0.0.5", "0.1.16") is True
    assert in_range("npm", "0.1.16", "0.0.5", "0.1.16") is False
    assert in_range("npm", "0.0.4", "0.0.5", "0.1.16") is False
    assert in_range("npm", "0.0.0", "0", "0.1.0") is True
    assert in_range("npm", "banana", "0", "1.0.0") is None
    assert in_range("pypi", "2025.12.17", "0", "2025.12.18") is True


def test_advisory_table_loads_and_every_range_parses() -> None:
    table = advisories()
    ids = {a.id for a in table}
    assert {"CVE-2025-6514", "CVE-2025-49596", "CVE-2025-53109", "CVE-2025-53110"} <= ids
    assert matching_advisories("pypi", "MCP_Server_Git", "2025.1.14")  # PEP 503 name match


# --- --online: real registries (npm through npm, PyPI through pip) -----------------------------


@pytest.mark.slow
@pytest.mark.requires_tools("npm")
def test_online_npm_metadata_for_real_packages() -> None:
    good = npm_metadata("@modelcontextprotocol/server-filesystem", "2026.8.31")
    assert good.error is None and good.exists and good.version_exists
    assert good.repository and good.license and good.published is not None
    missing = npm_metadata("@modelcontextprotocol/server-filesytem", None)
    assert missing.error is None and not missing.exists
    no_version = npm_metadata("@modelcontextprotocol/server-filesystem", "9.9.9")
    assert no_version.exists and no_version.version_exists is False


@pytest.mark.slow
@pytest.mark.requires_tools("npm")
def test_online_scan_flags_a_name_the_registry_does_not_know() -> None:
    ids = {
        f.rule_id
        for f in _findings(
            "npm", "@modelcontextprotocol/server-filesytem", "2026.8.31", online=True
        )
    }
    assert "TW-SUP-008" in ids and "TW-SUP-002" in ids
    clean = {
        f.rule_id
        for f in _findings(
            "npm", "@modelcontextprotocol/server-filesystem", "2026.8.31", online=True
        )
    }
    assert not clean & {"TW-SUP-008", "TW-SUP-007", "TW-META-005"}


@pytest.mark.slow
def test_online_pypi_metadata_through_pip() -> None:
    meta = pypi_metadata("mcp-server-time", "2026.7.10")
    assert meta.error is None and meta.exists and meta.version_exists
    assert meta.builds_from_source is False  # a wheel exists
    assert any("publish age" in s for s in meta.skipped)
    assert pypi_metadata("mcp-server-time", "0.0.0.1").version_exists is False


def test_static_surfaces_say_which_registry_checks_were_skipped() -> None:
    from toolwitness.acquire.targets import static_surfaces
    from toolwitness.model import ServerSpec

    def spec(ecosystem: str) -> ServerSpec:
        return ServerSpec(
            name=ecosystem,
            transport=Transport(kind="stdio", command="x"),
            package=PackageRef(ecosystem=ecosystem, name="p", version="1.0.0"),
        )

    offline = static_surfaces([spec("npm")], online=False)[0].notes
    assert any("registry checks skipped" in n for n in offline)
    online = {
        s.id: s.notes
        for s in static_surfaces([spec(e) for e in ("npm", "pypi", "docker")], online=True)
    }
    assert not any("skipped" in n or "not checked" in n for n in online["npm"])
    assert any("publish age not checked" in n for n in online["pypi"])
    assert any("npm and PyPI only" in n for n in online["docker"])


@pytest.mark.parametrize(
    ("name", "version"),
    [
        ("--registry=http://127.0.0.1:9/", None),
        ("-x", None),
        ("pkg", "1.0.0 --foo"),
        ("a b", None),
        ("pkg", "^1.0.0"),
    ],
)
def test_option_shaped_names_never_reach_a_registry_client(name: str, version: str | None) -> None:
    assert not npm_metadata(name, version).queried
    assert not pypi_metadata(name, version).queried
