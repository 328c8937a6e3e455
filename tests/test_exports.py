"""The public API is what `__all__` says, and every name in it exists."""

import toolwitness


def test_all_names_exist_and_are_sorted() -> None:
    for name in toolwitness.__all__:
        assert hasattr(toolwitness, name), name
    assert toolwitness.__all__ == sorted(toolwitness.__all__)


def test_private_modules_not_exported() -> None:
    assert not any(name.startswith("_") and name != "__version__" for name in toolwitness.__all__)


def test_lazy_exports_cover_all() -> None:
    assert sorted([*toolwitness._EXPORTS, "__version__"]) == toolwitness.__all__


def test_light_import_does_not_load_the_sdk() -> None:
    import subprocess
    import sys

    code = "import sys, toolwitness.integrity.gateway; print('mcp' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_a_catalog_scan_does_not_load_the_sdk_or_the_lab(tmp_path: object) -> None:
    """A catalog scan connects to nothing: the CLI must not pay the MCP SDK's import (≈1.5 s)."""
    import subprocess
    import sys
    from pathlib import Path

    catalog = Path(__file__).resolve().parent.parent / "examples" / "catalogs" / "weather.json"
    code = (
        "import sys\n"
        "from toolwitness.cli import main\n"
        f"rc = main(['scan', {str(catalog)!r}, '-f', 'json', '-o', {str(tmp_path)!r} + '/r.json'])\n"
        "heavy = ('mcp.', 'toolwitness.lab', 'toolwitness.acquire.live')\n"
        "loaded = sorted(m for m in sys.modules if (m == 'mcp' or m.startswith(heavy))"
        " and m != 'toolwitness.acquire.live_options')\n"
        "print(rc, loaded)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "0 []", out.stdout + out.stderr
