"""Download a published package artifact — never install it, never run it — and unpack it safely.

- `npm:NAME@VERSION` → `npm pack NAME@VERSION --pack-destination DIR --ignore-scripts --json`
  in an empty working directory; the tarball's sha512 must equal the integrity npm reports.
- `pypi:NAME==VERSION` → `pip download --no-deps --only-binary=:all:` (a wheel: static files,
  no build step). When no wheel exists, the sdist is fetched from the PyPI JSON API and checked
  against its published sha256 — `pip download` of an sdist would run its build backend.

Every artifact records the sha256 of the file. Errors: a spec that cannot be parsed, an unknown
package or version, or a checksum mismatch is an InputError (exit 2); a registry that cannot be
reached or a tool that is missing or times out is an IncompleteScanError (exit 3).
"""

from __future__ import annotations

import base64
import re
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from toolwitness.acquire.archive import ArchiveLimits, unpack_archive
from toolwitness.acquire.hostile_json import parse_json_text
from toolwitness.acquire.limits import InputLimits
from toolwitness.acquire.registry_io import RegistryFailure, run_tool
from toolwitness.errors import IncompleteScanError, InputError

_NPM_NAME = re.compile(r"^(@[a-z0-9][a-z0-9._~-]*/)?[a-z0-9][a-z0-9._~-]*$")
_NPM_VERSION = re.compile(r"^[0-9A-Za-z][0-9A-Za-z.+_-]*$")  # an exact version or a dist-tag
_PYPI_NAME = re.compile(r"^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$")
_PYPI_VERSION = re.compile(r"^[0-9A-Za-z][0-9A-Za-z.+!_-]*$")
_MAX_NAME = 214  # npm's own limit on package names
DEFAULT_TIMEOUT = 120.0


@dataclass(frozen=True)
class PackageSpec:
    ecosystem: str  # npm | pypi
    name: str
    version: str

    def __str__(self) -> str:
        sep = "@" if self.ecosystem == "npm" else "=="
        return f"{self.ecosystem}:{self.name}{sep}{self.version}"

    @property
    def requirement(self) -> str:
        return (
            f"{self.name}@{self.version}"
            if self.ecosystem == "npm"
            else f"{self.name}=={self.version}"
        )


@dataclass(frozen=True)
class PackageArtifact:
    spec: PackageSpec
    path: Path
    sha256: str  # hex digest of the downloaded file
    kind: str  # npm-tarball | wheel | sdist
    registry_integrity: str | None  # what the registry published for it, when known


def parse_package_spec(text: str) -> PackageSpec:
    """`npm:NAME@VERSION` or `pypi:NAME==VERSION`; the version is required (no ranges)."""
    spec = text.strip()
    if len(spec) > 300:
        raise InputError("package spec longer than 300 characters", source="package spec")
    if spec.startswith("npm:"):
        body = spec[4:]
        at = body.rfind("@")
        name, version = (body[:at], body[at + 1 :]) if at > 0 else (body, "")
        if not version:
            raise InputError(
                f"{spec!r}: give an exact version, npm:NAME@VERSION", source="package spec"
            )
        if len(name) > _MAX_NAME or not _NPM_NAME.fullmatch(name):
            raise InputError(f"{spec!r}: not a valid npm package name", source="package spec")
        if not _NPM_VERSION.fullmatch(version):
            raise InputError(
                f"{spec!r}: not an exact npm version or dist-tag", source="package spec"
            )
        return PackageSpec("npm", name, version)
    if spec.startswith("pypi:"):
        name, sep, version = spec[5:].partition("==")
        if not sep or not version:
            raise InputError(
                f"{spec!r}: give an exact version, pypi:NAME==VERSION", source="package spec"
            )
        if not _PYPI_NAME.fullmatch(name):
            raise InputError(f"{spec!r}: not a valid PyPI project name", source="package spec")
        if not _PYPI_VERSION.fullmatch(version):
            raise InputError(f"{spec!r}: not an exact PyPI version", source="package spec")
        return PackageSpec("pypi", name, version)
    raise InputError(
        f"{spec!r}: expected npm:NAME@VERSION or pypi:NAME==VERSION", source="package spec"
    )


def _sha256(path: Path) -> str:
    import hashlib  # here: only a downloaded package is hashed (OpenSSL loads with hashlib)

    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def _sri_sha512(path: Path) -> str:
    import hashlib

    digest = hashlib.sha512()
    with path.open("rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    return "sha512-" + base64.b64encode(digest.digest()).decode("ascii")


def _fetch_npm(spec: PackageSpec, dest: Path, timeout: float) -> PackageArtifact:
    # Beside `dest`, in the caller's folder: an analysis child killed mid-download (a limit)
    # runs no cleanup, and the parent that owns that folder removes it.
    with tempfile.TemporaryDirectory(prefix="toolwitness-npm-", dir=dest.parent) as workdir:
        # An empty cwd: no project package.json or .npmrc of the caller's directory applies.
        argv = ["npm", "pack", spec.requirement, "--pack-destination", str(dest),
                "--ignore-scripts", "--json"]  # fmt: skip
        try:
            out = run_tool(argv, cwd=Path(workdir), timeout=timeout, spec=str(spec))
        except RegistryFailure as failure:
            raise failure.as_error() from None
    doc = parse_json_text(out, f"npm pack {spec.requirement}", InputLimits(max_file_bytes=32 << 20))
    if not isinstance(doc, list) or len(doc) != 1 or not isinstance(doc[0], dict):
        raise IncompleteScanError(f"{spec}: npm pack printed an unexpected JSON shape")
    info = doc[0]
    filename = info.get("filename")
    if not isinstance(filename, str) or "/" in filename or not filename.endswith(".tgz"):
        raise IncompleteScanError(f"{spec}: npm pack did not name a tarball")
    if info.get("name") != spec.name:
        raise InputError(
            f"npm returned {info.get('name')!r}, not the package asked for", source=str(spec)
        )
    path = dest / filename
    integrity = info.get("integrity") if isinstance(info.get("integrity"), str) else None
    if integrity and integrity.startswith("sha512-") and _sri_sha512(path) != integrity:
        raise InputError("the tarball does not match the integrity npm reported", source=str(spec))
    resolved = PackageSpec("npm", spec.name, str(info.get("version") or spec.version))
    return PackageArtifact(resolved, path, _sha256(path), "npm-tarball", integrity)


def _fetch_pypi(spec: PackageSpec, dest: Path, timeout: float) -> PackageArtifact:
    argv = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
            "--no-input", "--disable-pip-version-check", "--quiet", "-d", str(dest),
            spec.requirement]  # fmt: skip
    try:
        run_tool(argv, cwd=dest, timeout=timeout, spec=str(spec))
    except RegistryFailure as failure:
        if not failure.no_match:
            raise failure.as_error() from None
        # No wheel for this platform (or none at all): the sdist, never built.
        from toolwitness.acquire.pypi_sdist import download_sdist  # urllib: only here

        path, published = download_sdist(spec.name, spec.version, dest, timeout)
        return PackageArtifact(spec, path, _sha256(path), "sdist", f"sha256-{published}")
    files = [p for p in dest.iterdir() if p.is_file()]
    if len(files) != 1 or not files[0].name.endswith(".whl"):
        raise IncompleteScanError(
            f"{spec}: pip download left {len(files)} files, expected one wheel"
        )
    return PackageArtifact(spec, files[0], _sha256(files[0]), "wheel", None)


def fetch_package_artifact(
    spec: str | PackageSpec, dest: Path, timeout: float = DEFAULT_TIMEOUT
) -> PackageArtifact:
    """Download the artifact into `dest` (created; must be empty) and record its sha256."""
    parsed = spec if isinstance(spec, PackageSpec) else parse_package_spec(spec)
    dest.mkdir(parents=True, exist_ok=True)
    if any(dest.iterdir()):
        raise InputError("download directory is not empty", source=str(dest))
    if parsed.ecosystem == "npm":
        return _fetch_npm(parsed, dest, timeout)
    return _fetch_pypi(parsed, dest, timeout)


def fetch_package(spec: str | PackageSpec, dest: Path, timeout: float = DEFAULT_TIMEOUT) -> Path:
    return fetch_package_artifact(spec, dest, timeout).path


@dataclass(frozen=True)
class UnpackedPackage:
    artifact: PackageArtifact
    root: Path  # the package root: npm's `package/`, an sdist's top directory, a wheel's root


def package_root(tree: Path) -> Path:
    """A single top-level directory is the root (npm `package/`, sdist `name-1.0/`)."""
    children = list(tree.iterdir())
    if len(children) == 1 and children[0].is_dir():
        return children[0]
    return tree


def fetch_and_unpack_package(
    spec: str | PackageSpec,
    dest: Path,
    limits: ArchiveLimits | None = None,
    timeout: float = DEFAULT_TIMEOUT,
) -> UnpackedPackage:
    """Download into `dest/artifact`, unpack into `dest/tree`; returns the root and provenance."""
    artifact = fetch_package_artifact(spec, dest / "artifact", timeout)
    tree = unpack_archive(artifact.path, dest / "tree", limits or ArchiveLimits())
    return UnpackedPackage(artifact, package_root(tree))


def fetch_and_unpack(
    spec: str | PackageSpec, dest: Path, limits: ArchiveLimits | None = None
) -> Path:
    """The unpacked package root (for npm, its `package/` directory)."""
    return fetch_and_unpack_package(spec, dest, limits).root
