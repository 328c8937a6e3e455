"""Speed work must not change a byte: every report format of the corpus, the real servers' tool
lists, the examples and two generated benchmark catalogs, `code` on the real server-filesystem
package, and the accuracy figures of `toolwitness evaluate` hash to the digests recorded before
the change (tests/golden/report-digests.json; the version string is masked).

A change that is meant to alter output (a new rule, a new message) updates the digests, and its
commit says why:

    UPDATE_GOLDEN=1 .venv/bin/pytest -q tests/test_report_digests.py
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

import pytest

from conftest import NPM_MODULES, ROOT, require_path
from toolwitness._version import __version__
from toolwitness.cli import main

sys.path.insert(0, str(ROOT / "benchmarks"))
from catalogs import write_catalog

GOLDEN = ROOT / "tests" / "golden" / "report-digests.json"
FORMATS = ("json", "sarif", "csv", "markdown", "html", "terminal")
TARGETS = {  # relative to the repository root, so `source` fields do not depend on the checkout
    "corpus": "corpus/catalogs",
    "real": "tests/fixtures/real",
    "examples": "examples/catalogs",
}
FILESYSTEM = NPM_MODULES / "@modelcontextprotocol" / "server-filesystem"


def _digest(path: Path) -> str:
    text = path.read_bytes().replace(__version__.encode(), b"VERSION")
    return hashlib.sha256(text).hexdigest()


def _recorded() -> dict[str, str]:
    return json.loads(GOLDEN.read_text("utf-8")) if GOLDEN.exists() else {}


def _check(key: str, got: str) -> None:
    if os.environ.get("UPDATE_GOLDEN") == "1":
        recorded = _recorded()
        recorded[key] = got
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        GOLDEN.write_text(json.dumps(dict(sorted(recorded.items())), indent=1) + "\n", "utf-8")
        return
    assert key in _recorded(), f"no digest for {key}: run UPDATE_GOLDEN=1 pytest {__file__}"
    assert got == _recorded()[key], f"{key} changed (a speed change must keep it byte-identical)"


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("bench-catalogs")
    write_catalog(300, "benign", folder)
    write_catalog(300, "poisoned", folder)
    return folder


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("target", [*TARGETS, "generated"])
def test_scan_reports_are_unchanged(
    target: str, fmt: str, generated: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT if target != "generated" else generated)
    monkeypatch.setenv("COLUMNS", "120")
    out = tmp_path / f"report.{fmt}"
    code = main(["scan", TARGETS.get(target, "."), "-f", fmt, "-o", str(out)])
    assert code in (0, 1)
    _check(f"scan {target} {fmt}", _digest(out))


@pytest.mark.parametrize("fmt", ["json", "sarif"])
def test_code_report_is_unchanged(fmt: str, tmp_path: Path) -> None:
    require_path(FILESYSTEM, "the installed server-filesystem package (make servers)")
    out = tmp_path / f"code.{fmt}"
    assert main(["code", str(FILESYSTEM), "-f", fmt, "-o", str(out)]) in (0, 1)
    text = out.read_text("utf-8").replace(str(FILESYSTEM), "PACKAGE")
    (tmp_path / "masked").write_text(text, "utf-8")
    _check(f"code server-filesystem {fmt}", _digest(tmp_path / "masked"))


def test_accuracy_figures_are_unchanged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(ROOT)
    code = main(["evaluate", "corpus/manifest.json", "--split", "all", "--format", "json"])
    assert code == 0
    (tmp_path / "evaluate.json").write_text(capsys.readouterr().out, "utf-8")
    _check("evaluate corpus all json", _digest(tmp_path / "evaluate.json"))
