"""Shared test fixtures: paths to the real servers installed by scripts/install-test-servers.sh."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
SERVERS = ROOT / ".cache" / "test-servers"
NPM_BIN = SERVERS / "npm" / "node_modules" / ".bin"
NPM_MODULES = SERVERS / "npm" / "node_modules"
VENVS = SERVERS / "venvs"
FIXTURES = ROOT / "tests" / "fixtures"


def npm_server_entry(package: str) -> Path:
    """The compiled entry point of an installed npm server (its `bin`)."""
    manifest = json.loads((NPM_MODULES / package / "package.json").read_text())
    binary = manifest["bin"]
    rel = binary if isinstance(binary, str) else next(iter(binary.values()))
    return (NPM_MODULES / package / rel).resolve()


def pypi_server_bin(name: str) -> Path:
    return VENVS / name / "bin" / name


def require_tools(*names: str) -> None:
    """Skip when a system tool (bwrap, strace, node…) is missing — but fail under CI=true,
    where a green run must mean every part ran."""
    import os
    import shutil

    missing = [n for n in names if shutil.which(n) is None]
    if not missing:
        return
    message = f"needs {', '.join(missing)} (Debian: apt-get install bubblewrap strace nodejs)"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"CI=true and this test {message}")
    pytest.skip(message)


@pytest.fixture
def write_json(tmp_path: Path) -> Any:
    def write(name: str, doc: Any) -> Path:
        path = tmp_path / name
        path.write_text(json.dumps(doc), encoding="utf-8")
        return path

    return write


CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def browser() -> Any:
    """Headless Chromium (Debian's package, installed by .ci/run) driven by Playwright."""
    import shutil

    if shutil.which("chromium") is None:
        pytest.fail("Debian's chromium is missing: .ci/run installs it (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        instance = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield instance
        instance.close()
