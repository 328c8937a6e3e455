"""The data folder read without importlib.resources at start (`datafiles.py`): the same bytes as
importlib.resources gives, and importlib.resources when the package is not on disk."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest

from toolwitness import datafiles


@pytest.mark.parametrize("parts", [("roles.yaml",), ("lexicon", "wordnet.json"), ("tlds.txt",)])
def test_the_folder_on_disk_reads_what_importlib_resources_reads(parts: tuple[str, ...]) -> None:
    ours = datafiles.data_files().joinpath(*parts).read_text("utf-8")
    theirs = resources.files("toolwitness.data").joinpath(*parts).read_text("utf-8")
    assert ours == theirs


def test_a_package_not_on_disk_goes_through_importlib_resources(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    fake = tmp_path / "toolwitness" / "datafiles.py"  # a module file with no data folder beside it
    monkeypatch.setattr(datafiles, "__file__", str(fake))
    datafiles.data_files.cache_clear()
    try:
        folder = datafiles.data_files()
        assert not isinstance(folder, Path) or folder != fake.parent / "data"
        assert folder.joinpath("roles.yaml").read_text("utf-8").startswith("#")
    finally:
        datafiles.data_files.cache_clear()
