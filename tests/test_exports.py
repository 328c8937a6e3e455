"""The public API is what `__all__` says, and every name in it exists."""

import toolwitness


def test_all_names_exist_and_are_sorted() -> None:
    for name in toolwitness.__all__:
        assert hasattr(toolwitness, name), name
    assert toolwitness.__all__ == sorted(toolwitness.__all__)


def test_private_modules_not_exported() -> None:
    assert not any(name.startswith("_") and name != "__version__" for name in toolwitness.__all__)
