"""Registry metadata for `--online`: npm through `npm view --json`, PyPI through pip.

Only the two registries, only through their own clients (so the user's registry configuration,
proxies and mirrors apply), each call bounded in time and output. Nothing is installed or run:
`pip download --only-binary :all:` fetches a wheel into a temporary directory and only its
METADATA is read. What a registry cannot answer is reported as skipped, never as clean.
"""

from __future__ import annotations

import email.parser
import re
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

from toolwitness.acquire.hostile_json import parse_json_text
from toolwitness.acquire.limits import MIB, InputLimits
from toolwitness.supply.versions import is_exact_version

TIMEOUT_SECONDS = 60
MAX_OUTPUT = 8 * MIB
INSTALL_SCRIPTS = ("preinstall", "install", "postinstall")  # `prepare` runs only for git installs


@dataclass(frozen=True)
class PackageMetadata:
    exists: bool
    version_exists: bool | None = None
    version: str | None = None  # the version the metadata describes
    install_scripts: tuple[str, ...] = ()
    builds_from_source: bool | None = None  # PyPI: no wheel, so the sdist's build runs
    repository: str | None = None
    license: str | None = None
    published: datetime | None = None
    skipped: tuple[str, ...] = ()  # checks this registry could not answer
    error: str | None = None  # the registry could not be asked (timeout, client missing)
    queried: bool = True  # False: the spec is not a registry name (URL, path, git), not asked


# Only well-formed registry names and exact versions reach a registry client's command line, so
# a config cannot smuggle options (`--registry=…`) into npm or pip.
_NPM_NAME = re.compile(
    r"(@[a-z0-9][a-z0-9._~-]{0,100}/)?[a-z0-9][a-z0-9._~-]{0,213}", re.IGNORECASE
)
_PYPI_NAME = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9._-]{0,200}[A-Za-z0-9])?")
NOT_A_REGISTRY_NAME = PackageMetadata(exists=False, queried=False)


def _run(argv: list[str], cwd: str | None = None) -> tuple[int, str, str]:
    try:
        proc = subprocess.run(
            argv,
            capture_output=True,
            timeout=TIMEOUT_SECONDS,
            check=False,
            stdin=subprocess.DEVNULL,
            cwd=cwd,
        )
    except FileNotFoundError:
        return 127, "", f"{argv[0]} is not installed"
    except subprocess.TimeoutExpired:
        return 124, "", f"{argv[0]} did not answer within {TIMEOUT_SECONDS}s"
    out = proc.stdout[:MAX_OUTPUT].decode("utf-8", "replace")
    err = proc.stderr[:MAX_OUTPUT].decode("utf-8", "replace")
    return proc.returncode, out, err


@lru_cache(maxsize=256)
def npm_metadata(name: str, version: str | None) -> PackageMetadata:
    if not _NPM_NAME.fullmatch(name) or (version and not is_exact_version("npm", version)):
        return NOT_A_REGISTRY_NAME
    spec = f"{name}@{version}" if version else name
    with tempfile.TemporaryDirectory(prefix="toolwitness-npm-") as tmp:
        # An empty working directory: a scanned project's own .npmrc must not pick the registry.
        code, out, err = _run(["npm", "view", "--json", spec], cwd=tmp)
    if code in (124, 127):
        return PackageMetadata(exists=False, error=err)
    doc: Any = None
    if out.strip():
        try:
            doc = parse_json_text(out, f"npm view {spec}", InputLimits(max_file_bytes=MAX_OUTPUT))
        except Exception:
            return PackageMetadata(exists=False, error="npm view printed unreadable JSON")
    if code != 0 or doc is None:
        text = (err + out).lower()
        if "no match found for version" in text:
            return PackageMetadata(exists=True, version_exists=False, version=version)
        if "e404" in text or "not found" in text:
            return PackageMetadata(exists=False, version_exists=False)
        return PackageMetadata(exists=False, error=f"npm view failed (exit {code})")
    if isinstance(doc, list):  # a range matched several versions: the last is the newest
        doc = doc[-1] if doc else {}
    if not isinstance(doc, dict):
        return PackageMetadata(exists=False, error="npm view printed an unexpected document")
    scripts: dict[str, Any] = doc["scripts"] if isinstance(doc.get("scripts"), dict) else {}
    resolved = doc.get("version") if isinstance(doc.get("version"), str) else None
    times: dict[str, Any] = doc["time"] if isinstance(doc.get("time"), dict) else {}
    return PackageMetadata(
        exists=True,
        version_exists=True,
        version=resolved,
        install_scripts=tuple(s for s in INSTALL_SCRIPTS if s in scripts),
        repository=_npm_repository(doc.get("repository")),
        license=_text_field(doc.get("license")),
        published=_parse_time(times.get(resolved)) if resolved else None,
    )


def _npm_repository(value: Any) -> str | None:
    if isinstance(value, dict):
        value = value.get("url")
    return value if isinstance(value, str) and value.strip() else None


def _text_field(value: Any) -> str | None:
    if isinstance(value, dict):
        value = value.get("type")
    return value if isinstance(value, str) and value.strip() else None


def _parse_time(value: Any) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


@lru_cache(maxsize=256)
def pypi_metadata(name: str, version: str | None) -> PackageMetadata:
    if not _PYPI_NAME.fullmatch(name) or (version and not is_exact_version("pypi", version)):
        return NOT_A_REGISTRY_NAME
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input"]
    code, out, err = _run([*pip, "index", "versions", name])
    if code in (124, 127):
        return PackageMetadata(exists=False, error=err)
    if code != 0:
        if "no matching distribution" in (err + out).lower():
            return PackageMetadata(exists=False, version_exists=False)
        return PackageMetadata(exists=False, error=f"pip index versions failed (exit {code})")
    versions = _available_versions(out)
    target = version or (versions[0] if versions else None)
    if target is None:
        return PackageMetadata(exists=True, version_exists=False)
    if version is not None and version not in versions:
        return PackageMetadata(exists=True, version_exists=False, version=version)
    skipped = ("publish age (pip does not report upload times)",)
    with tempfile.TemporaryDirectory(prefix="toolwitness-pypi-") as tmp:
        code, out, err = _run(
            [*pip, "download", "--no-deps", "--only-binary", ":all:", "--dest", tmp,
             "--quiet", f"{name}=={target}"],
            cwd=tmp,
        )  # fmt: skip
        wheels = sorted(Path(tmp).glob("*.whl"))
        if code != 0 or not wheels:
            return PackageMetadata(
                exists=True, version_exists=True, version=target, builds_from_source=True,
                skipped=(*skipped, "repository and licence (no wheel to read METADATA from)"),
            )  # fmt: skip
        repository, licence = _wheel_metadata(wheels[0])
    return PackageMetadata(
        exists=True,
        version_exists=True,
        version=target,
        builds_from_source=False,
        repository=repository,
        license=licence,
        skipped=skipped,
    )


def _available_versions(output: str) -> list[str]:
    for line in output.splitlines():
        if line.lower().startswith("available versions:"):
            return [v.strip() for v in line.split(":", 1)[1].split(",") if v.strip()]
    return []


def _wheel_metadata(wheel: Path) -> tuple[str | None, str | None]:
    """Source URL and licence from the wheel's METADATA (read from the zip, never imported)."""
    with zipfile.ZipFile(wheel) as archive:
        names = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        if not names or archive.getinfo(names[0]).file_size > MIB:
            return None, None
        text = archive.read(names[0]).decode("utf-8", "replace")
    meta = email.parser.Parser().parsestr(text, headersonly=True)
    licence = meta.get("License-Expression") or meta.get("License")
    classifiers = [c for c in meta.get_all("Classifier") or [] if c.startswith("License ::")]
    if not licence and classifiers:
        licence = classifiers[0].rsplit("::", 1)[-1].strip()
    repository = None
    for url in meta.get_all("Project-URL") or []:
        label, _, link = url.partition(",")
        if label.strip().lower() in ("source", "repository", "source code", "code", "github"):
            repository = link.strip()
            break
    repository = repository or meta.get("Home-page")
    return repository, (licence.strip() if licence and licence.strip() else None)
