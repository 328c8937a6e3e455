"""Pause Python's cyclic garbage collector around a bulk analysis.

Scans and code analyses allocate many small, mostly acyclic objects; the cyclic collector would
rescan the growing heap over and over (a third of a large scan's time). Reference counting still
frees them; the collector is restored, and run by Python as usual, afterwards.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused() -> Iterator[None]:
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
