"""Supply chain (TW-SUP): what package does the config run, and can it be trusted to stay put?

Offline (default): pinning and name imitation against data/protected-packages.yaml. With the
`online` check option: registry metadata (supply/registry.py) for install scripts, existence,
publish age, repository and licence.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from toolwitness.checks.interface import CheckContext, server_check
from toolwitness.findings import Finding, Severity, Witness
from toolwitness.model import PackageRef, ServerSurface
from toolwitness.supply.versions import is_exact_version
from toolwitness.textnorm import excerpt

if TYPE_CHECKING:  # the name tables (rapidfuzz) and registry clients load for a package only
    from datetime import datetime

    from toolwitness.supply.registry import PackageMetadata

RECENT_DAYS = 7
_NAME_RULES = {
    "near-miss": ("TW-SUP-002", "the package name is {distance} edit(s) away from {target}"),
    "confusable": ("TW-SUP-003", "the package name reads like {target} once look-alikes fold"),
    "combosquat": ("TW-SUP-004", "the package name wraps the protected name {target}"),
    "fake-scope": ("TW-SUP-005", "the scope imitates the protected scope {target}"),
    "shadow": ("TW-SUP-006", "the unscoped name shadows the scoped package {target}"),
}


def _witness(surface: ServerSurface, package: PackageRef, detail: str | None = None) -> Witness:
    return Witness(kind="config", file=surface.source, symbol=package.name, detail=detail)


def pin_problem(package: PackageRef) -> tuple[str, Severity] | None:
    """Why the spec is not pinned (and how bad), or None when it is."""
    version = package.version
    if package.ecosystem == "docker":
        if version and version.startswith("sha256:"):
            return None
        if version in (None, "latest"):
            return "the image has no tag or uses :latest", Severity.MEDIUM
        return "the image tag can be moved; only a digest (@sha256:…) pins it", Severity.LOW
    if version is None:
        if package.spec and package.spec != package.name:
            return "the spec is a URL, path or git reference, not a registry version", (
                Severity.MEDIUM
            )
        return "no version is given: every start runs the newest release", Severity.MEDIUM
    if version.lower() in ("latest", "next", "beta", "canary", "alpha"):
        return f"the version is the moving tag '{version.lower()}'", Severity.MEDIUM
    if not is_exact_version(package.ecosystem, version):
        return "the version is a range or tag, not one exact release", Severity.MEDIUM
    return None


@server_check(
    "supply.spec",
    ["TW-SUP-001", "TW-SUP-002", "TW-SUP-003", "TW-SUP-004", "TW-SUP-005", "TW-SUP-006"],
)
def package_spec(surface: ServerSurface, ctx: CheckContext) -> Iterator[Finding]:
    package = surface.package
    if package is None:
        return
    # a catalog's own statement (packageMeta) says what the server is, not how it is launched:
    # no spec, nothing to pin
    problem = pin_problem(package) if package.spec is not None else None
    if problem is not None:
        message, severity = problem
        yield ctx.rules.finding(
            "TW-SUP-001",
            tool=None,
            location="package",
            message=message,
            evidence=excerpt(package.spec or package.name, 200),
            witnesses=(_witness(surface, package),),
            severity=severity,
        )
    from toolwitness.supply.names import judge_name

    verdict = judge_name(package.ecosystem, package.name)
    if verdict is not None:
        rule_id, template = _NAME_RULES[verdict.kind]
        yield ctx.rules.finding(
            rule_id,
            tool=None,
            location="package.name",
            message=template.format(target=verdict.target, distance=verdict.distance),
            evidence=excerpt(package.name, 200),
            witnesses=(_witness(surface, package, f"imitates {verdict.target}"),),
        )
    for k, dependency in enumerate(package.dependencies or ()):
        verdict = judge_name(package.ecosystem, dependency)
        if verdict is None:
            continue
        rule_id, template = _NAME_RULES[verdict.kind]
        yield ctx.rules.finding(
            rule_id,
            tool=None,
            location=f"package.dependencies[{k}]",
            message="a dependency: " + template.format(target=verdict.target,
                                                       distance=verdict.distance),
            evidence=excerpt(dependency, 200),
            witnesses=(_witness(surface, package, f"depends on {dependency}, imitating "
                                f"{verdict.target}"),),
        )  # fmt: skip


@server_check("supply.registry", ["TW-SUP-007", "TW-SUP-008", "TW-SUP-009", "TW-SUP-010"])
def registry_metadata(surface: ServerSurface, ctx: CheckContext) -> Iterator[Finding]:
    package = surface.package
    if not ctx.options.get("online") or package is None:
        return
    from toolwitness.supply.registry import npm_metadata, pypi_metadata

    exact = package.version if is_exact_version(package.ecosystem, package.version) else None
    if package.ecosystem == "npm":
        meta = npm_metadata(package.name, exact)
    elif package.ecosystem == "pypi":
        meta = pypi_metadata(package.name, exact)
    else:
        return  # docker images: registry checks cover npm and PyPI only (documented)
    if not meta.queried:
        return  # a URL, path or git spec: no registry to ask (TW-SUP-001 already says so)
    if meta.error is not None:
        raise RuntimeError(f"registry lookup failed: {meta.error}")  # fail closed: META-005
    yield from _metadata_findings(surface, package, meta, ctx)


def _metadata_findings(
    surface: ServerSurface, package: PackageRef, meta: PackageMetadata, ctx: CheckContext
) -> Iterator[Finding]:
    w = (_witness(surface, package, "registry metadata"),)
    spec = excerpt(package.spec or package.name, 200)
    if not meta.exists or meta.version_exists is False:
        what = "the package" if not meta.exists else "the pinned version"
        yield ctx.rules.finding(
            "TW-SUP-008", tool=None, location="package", witnesses=w, evidence=spec,
            message=f"the {package.ecosystem} registry does not know {what}",
        )  # fmt: skip
        return
    if meta.install_scripts or meta.builds_from_source:
        what = (
            f"install scripts: {', '.join(meta.install_scripts)}"
            if meta.install_scripts
            else "no wheel for this version, so its build script runs at install"
        )
        yield ctx.rules.finding(
            "TW-SUP-007", tool=None, location="package", witnesses=w, evidence=spec,
            message=f"the package runs code when installed ({what})",
        )  # fmt: skip
    if meta.published is not None and _published_recently(meta.published):
        yield ctx.rules.finding(
            "TW-SUP-009", tool=None, location="package", witnesses=w, evidence=spec,
            message=f"version {meta.version} was published less than {RECENT_DAYS} days ago",
        )  # fmt: skip
    missing = [
        label
        for label, value, skipped in (
            ("repository", meta.repository, any("repository" in s for s in meta.skipped)),
            ("licence", meta.license, any("licence" in s for s in meta.skipped)),
        )
        if value is None and not skipped
    ]
    if missing:
        yield ctx.rules.finding(
            "TW-SUP-010", tool=None, location="package", witnesses=w, evidence=spec,
            message=f"the registry metadata names no {' and no '.join(missing)}",
        )  # fmt: skip


def _published_recently(published: datetime) -> bool:
    from datetime import UTC, datetime, timedelta  # here: only a looked-up package has a date

    return datetime.now(UTC) - published < timedelta(days=RECENT_DAYS)
