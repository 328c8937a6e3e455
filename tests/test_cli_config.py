"""Defaults from .toolwitness.toml / [tool.toolwitness]: found upward, strict, never runs servers."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from conftest import ROOT
from toolwitness.cli import main

POISONED = str(ROOT / "examples" / "catalogs" / "notes-poisoned.json")
CODE_FIXTURE = str(ROOT / "tests" / "fixtures" / "code" / "py-fastmcp")


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project folder with a subfolder we run from (the config is searched upward)."""
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    return tmp_path


def _error(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    capsys.readouterr()
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.count("\n") == 1, err
    return err


def test_defaults_are_found_upward_and_flags_win(project: Path) -> None:
    assert main(["scan", POISONED, "-q"]) == 0
    (project / ".toolwitness.toml").write_text('fail-on = "high"\n')
    assert main(["scan", POISONED, "-q"]) == 1
    assert main(["scan", POISONED, "-q", "--fail-on", "critical"]) == 1  # 4 critical
    assert main(["scan", str(ROOT / "examples/catalogs/weather.json"), "-q"]) == 0
    assert main(["--no-config", "scan", POISONED, "-q"]) == 0


def test_pyproject_table_and_the_nearest_file_wins(project: Path) -> None:
    (project / ".toolwitness.toml").write_text('fail-on = "critical"\n')
    sub = project / "sub"
    (sub / "pyproject.toml").write_text('[project]\nname = "x"\n')  # not ours: search goes on
    assert main(["scan", POISONED, "-q"]) == 1
    (sub / "pyproject.toml").write_text('[project]\nname = "x"\n[tool.toolwitness]\nredact = true\n')
    assert main(["scan", POISONED, "-q"]) == 0  # the nearer pyproject wins; no fail-on there
    (sub / "pyproject.toml").write_text("this is [[[ not toml")  # an unrelated broken file
    assert main(["scan", POISONED, "-q"]) == 1


def test_relative_paths_are_relative_to_the_config_file(project: Path) -> None:
    (project / "accepted.yaml").write_text(
        "suppressions:\n  - rule: TW-INJ-001\n    justification: reviewed\n"
    )
    (project / ".toolwitness.toml").write_text('suppressions = "accepted.yaml"\nformat = "json"\n')
    out = project / "sub" / "r.txt"
    assert main(["scan", POISONED, "-o", str(out)]) == 0
    assert not out.read_text().startswith("{")  # -o's extension wins over the config's format
    assert main(["scan", POISONED, "-o", str(out.with_suffix(""))]) == 0
    doc = json.loads(out.with_suffix("").read_text())  # no extension: the config's format
    suppressed = {s["finding"]["rule_id"] for s in doc["servers"][0]["suppressed"]}
    assert suppressed == {"TW-INJ-001"}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('fial-on = "high"\n', "unknown key 'fial-on'"),
        ('fail-on = "hihg"\n', "'fail-on'"),
        ('rules = "x.yaml"\n', "'rules' must be a list"),
        ('redact = "yes"\n', "'redact' must be true or false"),
        ("max-tools = [1]\n", "'max-tools' must be a string or a number"),
        ("[lab]\nx = 1\n", "unknown table 'lab'"),
        ("x = 1\nx = 2\n", "not valid TOML"),
        ("max-tools = 1" + "0" * 5000 + "\n", "integer outside"),
        ("a = " + "[" * 3000 + "]" * 3000 + "\n", "nesting"),
    ],
)
def test_bad_config_is_exit_2_naming_the_key(
    project: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    (project / ".toolwitness.toml").write_text(text)
    err = _error(capsys, ["scan", POISONED])
    assert message in err and ".toolwitness.toml" in err


@pytest.mark.parametrize(
    "text",
    ['stdio = ["sh -c id"]\n', "live = true\n", "lab = true\n", 'allow-command = ["sh"]\n',
     'bearer = "t"\n', "sandbox = true\n"],
)  # fmt: skip
def test_a_config_never_starts_or_connects(
    project: Path, capsys: pytest.CaptureFixture[str], text: str
) -> None:
    (project / ".toolwitness.toml").write_text(text)
    assert "cannot be set in a config file" in _error(capsys, ["scan", POISONED])


def test_pyproject_keys_are_named_with_their_table(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "pyproject.toml").write_text("[tool.toolwitness.code]\nbogus = 1\n")
    err = _error(capsys, ["code", CODE_FIXTURE])
    assert "unknown key 'tool.toolwitness.code.bogus'" in err


def test_code_section(project: Path) -> None:
    assert main(["code", CODE_FIXTURE, "-o", str(project / "a.json")]) == 0
    (project / ".toolwitness.toml").write_text('[code]\nfail-on = "high"\n')
    assert main(["code", CODE_FIXTURE, "-o", str(project / "b.json")]) == 1
    # the scan table is not the code table
    assert main(["scan", POISONED, "-q"]) == 0


def test_hostile_config_files(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = project / ".toolwitness.toml"
    os.mkfifo(config)
    assert "FIFO" in _error(capsys, ["scan", POISONED])
    config.unlink()
    config.write_text("# " + "x" * (2 * 1024 * 1024) + "\n")
    assert "bytes" in _error(capsys, ["scan", POISONED])
    config.write_text('fail-on = "high"\n')
    assert "exclude each other" in _error(
        capsys, ["--config", str(config), "--no-config", "scan", POISONED]
    )


def test_explicit_config_file(project: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "ci.toml"
    elsewhere.write_text('fail-on = "high"\n')
    assert main(["scan", POISONED, "-q"]) == 0
    assert main(["--config", str(elsewhere), "scan", POISONED, "-q"]) == 1
