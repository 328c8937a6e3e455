"""Fetch a source distribution from the PyPI JSON API without building it.

`pip download` of an sdist prepares its metadata, which runs the project's build backend
(its code). For analysis we only want the archive, so it is fetched directly and checked
against the sha256 PyPI publishes for it.
"""

from __future__ import annotations

import hashlib
import os
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

from toolwitness.acquire.hostile_json import parse_json_bytes
from toolwitness.acquire.limits import InputLimits
from toolwitness.errors import IncompleteScanError, InputError

_DEFAULT_INDEX = "https://pypi.org/pypi"
_MAX_JSON = 32 * 1024 * 1024
_MAX_SDIST = 100 * 1024 * 1024
_SDIST_SUFFIXES = (".tar.gz", ".tgz", ".zip", ".tar")


def _index() -> str:
    return os.environ.get("TOOLWITNESS_PYPI_JSON_URL", _DEFAULT_INDEX).rstrip("/")


def _get(url: str, timeout: float, spec: str) -> Any:
    if not url.startswith("https://"):
        raise InputError(f"refusing a non-https download URL {url!r}", source=spec)
    request = urllib.request.Request(url, headers={"User-Agent": "toolwitness"})  # noqa: S310
    try:
        return urllib.request.urlopen(request, timeout=timeout)  # noqa: S310 - https only
    except urllib.error.HTTPError as exc:
        if exc.code == 404:
            raise InputError("no such project or version on PyPI", source=spec) from None
        raise IncompleteScanError(f"{spec}: PyPI answered HTTP {exc.code}") from None
    except (urllib.error.URLError, TimeoutError, OSError) as exc:
        raise IncompleteScanError(f"{spec}: cannot reach PyPI ({exc})") from None


def _release_files(name: str, version: str, timeout: float, spec: str) -> list[Any]:
    # The project document (`/pypi/NAME/json`) lists every release's files; the per-version
    # endpoint is not served by every mirror, the project one is.
    with _get(f"{_index()}/{urllib.parse.quote(name)}/json", timeout, spec) as response:
        body = response.read(_MAX_JSON + 1)
    if len(body) > _MAX_JSON:
        raise IncompleteScanError(f"{spec}: PyPI metadata over {_MAX_JSON} bytes")
    doc = parse_json_bytes(body, f"{spec} (PyPI JSON)", InputLimits(max_file_bytes=_MAX_JSON))
    releases = doc.get("releases") if isinstance(doc, dict) else None
    if not isinstance(releases, dict) or version not in releases:
        raise InputError("no such version on PyPI", source=spec)
    files = releases[version]
    return files if isinstance(files, list) else []


def download_sdist(name: str, version: str, dest: Path, timeout: float) -> tuple[Path, str]:
    """Download the release's sdist into `dest`; returns (path, published sha256)."""
    spec = f"pypi:{name}=={version}"
    for item in _release_files(name, version, timeout, spec):
        if not isinstance(item, dict) or item.get("packagetype") != "sdist":
            continue
        filename, url = item.get("filename"), item.get("url")
        digests = item.get("digests") if isinstance(item.get("digests"), dict) else {}
        published = digests.get("sha256") if digests else None
        if not (isinstance(filename, str) and isinstance(url, str) and isinstance(published, str)):
            continue
        if "/" in filename or "\\" in filename or not filename.endswith(_SDIST_SUFFIXES):
            raise InputError(f"PyPI lists an unusable sdist file name {filename!r}", source=spec)
        url = urllib.parse.urljoin(f"{_index()}/{urllib.parse.quote(name)}/json", url)
        path = dest / filename
        digest = hashlib.sha256()
        total = 0
        with _get(url, timeout, spec) as response, path.open("wb") as out:
            while chunk := response.read(1 << 20):
                total += len(chunk)
                if total > _MAX_SDIST:
                    raise InputError(f"sdist over {_MAX_SDIST} bytes", source=spec)
                digest.update(chunk)
                out.write(chunk)
        if digest.hexdigest() != published.lower():
            raise InputError("the sdist does not match the sha256 PyPI published", source=spec)
        return path, published.lower()
    raise InputError("no wheel for this platform and no sdist on PyPI", source=spec)
