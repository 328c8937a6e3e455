"""The package's data folder (`toolwitness/data`), without importing `importlib.resources` at
start: that import brings 27 modules (zipfile, tempfile, shutil, threading, bz2, lzma …) and about
7 ms to every run. On disk the folder is a plain `Path` next to this module, which has the
`Traversable` API the readers use (`joinpath`, `read_text`, `iterdir`, `is_file`, `name`);
only a package that is not on disk (in a zip) goes through `importlib.resources`."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable


@lru_cache(maxsize=1)
def data_files() -> Traversable:
    folder = Path(__file__).parent / "data"
    if (folder / "__init__.py").is_file():
        return folder
    from importlib import resources  # a zipped package: the loader knows where its data is

    return resources.files("toolwitness.data")
