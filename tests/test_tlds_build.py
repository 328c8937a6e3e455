"""data/tlds.txt and data/public-suffixes.txt are what scripts/build_tlds.py makes from the
Public Suffix List on this machine (Debian's publicsuffix, installed by scripts/setup-system.sh),
and the build refuses a file that is not the list."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _builder():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("build_tlds", ROOT / "scripts" / "build_tlds.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["build_tlds"] = module
    spec.loader.exec_module(module)
    return module


def test_the_shipped_list_is_current() -> None:
    builder = _builder()
    shipped = (ROOT / "src" / "toolwitness" / "data" / "tlds.txt").read_text("utf-8")
    assert builder.build(Path(builder.DEFAULT)) == shipped, "run: python scripts/build_tlds.py"


def test_a_file_that_is_not_the_list_is_refused(tmp_path: Path) -> None:
    bogus = tmp_path / "psl.dat"
    bogus.write_text("// ===BEGIN ICANN DOMAINS===\ncom\nnet\n// ===END ICANN DOMAINS===\n")
    with pytest.raises(SystemExit, match="not the PSL"):
        _builder().build(bogus)


def test_the_shipped_public_suffixes_are_current() -> None:
    builder = _builder()
    shipped = (ROOT / "src" / "toolwitness" / "data" / "public-suffixes.txt").read_text("utf-8")
    assert builder.build_suffixes(Path(builder.DEFAULT)) == shipped, (
        "run: python scripts/build_tlds.py"
    )


def test_a_file_without_multi_label_rules_is_refused(tmp_path: Path) -> None:
    bogus = tmp_path / "psl.dat"
    bogus.write_text("// ===BEGIN ICANN DOMAINS===\nco.uk\ncom.br\n// ===END ICANN DOMAINS===\n")
    with pytest.raises(SystemExit, match="not the PSL"):
        _builder().build_suffixes(bogus)
