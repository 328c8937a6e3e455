"""Shared test fixtures: paths to the real servers installed by scripts/install-test-servers.sh."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any, NoReturn

import pytest
from hypothesis import settings

# Hypothesis's default 200 ms deadline per example is a wall-clock assertion: on a loaded
# machine it fails tests that do no wrong. Every property test runs without it.
settings.register_profile("toolwitness", deadline=None)
settings.load_profile("toolwitness")

ROOT = Path(__file__).resolve().parent.parent
SERVERS = ROOT / ".cache" / "test-servers"
NPM_BIN = SERVERS / "npm" / "node_modules" / ".bin"
NPM_MODULES = SERVERS / "npm" / "node_modules"
VENVS = SERVERS / "venvs"
FIXTURES = ROOT / "tests" / "fixtures"

# In CI a green run must mean every part ran: a test whose tool or real server is missing fails
# there, and skips (saying how to install it) only on a developer's machine.
IN_CI = os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")
INSTALL_HINT = {
    "bwrap": "apt-get install bubblewrap",
    "strace": "apt-get install strace",
    "chromium": "apt-get install chromium",
    "node": "apt-get install nodejs npm",
    "npm": "apt-get install nodejs npm",
}


def missing_part(reason: str) -> NoReturn:
    """Fail under CI=true, skip elsewhere."""
    if IN_CI:
        pytest.fail(f"{reason} (CI=true: a missing part fails the run instead of skipping)")
    pytest.skip(reason)


def require_tools(*names: str) -> None:
    for name in names:
        if shutil.which(name) is None:
            hint = INSTALL_HINT.get(name, "make test installs it")
            missing_part(f"{name} is not installed ({hint}; `make test` sets it up)")


def require_path(path: Path, what: str | None = None) -> Path:
    """A real server or artifact installed by scripts/install-test-servers.sh."""
    if not path.exists():
        missing_part(f"{what or path} is not installed (bash scripts/install-test-servers.sh)")
    return path


def pytest_runtest_setup(item: pytest.Item) -> None:
    for mark in item.iter_markers(name="requires_tools"):
        require_tools(*mark.args)


def npm_server_entry(package: str) -> Path:
    """The compiled entry point of an installed npm server (its `bin`)."""
    found = require_path(NPM_MODULES / package / "package.json", f"the npm server {package}")
    manifest = json.loads(found.read_text())
    binary = manifest["bin"]
    rel = binary if isinstance(binary, str) else next(iter(binary.values()))
    return (NPM_MODULES / package / rel).resolve()


def pypi_server_bin(name: str) -> Path:
    return VENVS / name / "bin" / name


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
    """Headless Chromium (Debian's package, installed by `make test`) driven by Playwright."""
    require_tools("chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        instance = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield instance
        instance.close()


def best_cpu_seconds(func: Any, repeats: int) -> float:
    """The least CPU time of `repeats` runs: interference from other processes only adds time,
    so the minimum is the closest to the work itself. The garbage collector is off while timing:
    a full collection walks the whole test process's heap, a cost unrelated to the input that
    lands on whichever run happens to trigger it. Every run starts with the package's per-text
    memos dropped (`release_memos`, untimed): a repeated input answered from a cache times the
    lookup, not the work, and a small size cached against a large one computed once measured
    24.5x for 8x the input."""
    import gc
    import time

    from toolwitness.memo import release_memos

    best = float("inf")
    enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        for _ in range(repeats):
            release_memos()
            start = time.process_time()
            func()
            best = min(best, time.process_time() - start)
    finally:
        if enabled:
            gc.enable()
    return best


def assert_linear_cost(
    run: Any, small: Any, large: Any, growth: float, *, repeats: int = 5, floor: float = 0.005
) -> None:
    """`run(large)` costs at most a wide multiple of `run(small)`, both measured here, now.

    `growth` is how much larger the large input is. Linear work costs ~growth x; the bound is
    3 x growth, and a quadratic path costs growth^2 (16 x for 4 x the input, 64 x for 8 x), so
    the test tells the two apart on a loaded machine without any absolute threshold. Tiny
    small-input times are raised to `floor` so timer resolution cannot fail the test.
    """
    small_cost = max(best_cpu_seconds(lambda: run(small), repeats), floor)
    large_cost = best_cpu_seconds(lambda: run(large), max(3, repeats // 2))
    bound = 3 * growth * small_cost
    assert large_cost <= bound, (
        f"{growth:g}x the input cost {large_cost / small_cost:.1f}x the work "
        f"({small_cost * 1000:.1f} ms -> {large_cost * 1000:.1f} ms); linear is ~{growth:g}x"
    )
