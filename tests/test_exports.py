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
