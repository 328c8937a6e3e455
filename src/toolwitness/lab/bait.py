"""Bait: files planted after tools/list that match what the tools' descriptions talk about.

A cache cleaner finds nothing to delete in an empty lab, so the lab reads the descriptions of
the tools it will call: a glob (`*.tmp`, `*.log`) plants two matching files, a noun with a bait
entry in `data/lab.yaml` (cache, temp, logs, lockfile, backup…) plants its files; in the working
directory, the notes folder, HOME and TMPDIR. A base folder a description names ("relative to
~/notes") gets a copy of the planted note. Names come from the run's seed; the control run plants
the same bait at the same moment, so its own reaction to the bait is subtracted too.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterable

from toolwitness.lab.sandbox import Lab
from toolwitness.lab.vocab import vocabulary, words

_GLOB = re.compile(r"\*\.([A-Za-z0-9]{1,10})\b")
_MAX_BAIT = 64


def _places(lab: Lab) -> list[str]:
    return ["$WORK", lab.notes, "~", "$TMPDIR"]


def bait_names(lab: Lab, texts: Iterable[str]) -> list[str]:
    """Labelled paths of the bait to plant for these descriptions (deterministic per seed)."""
    vocab = vocabulary()
    patterns: list[str] = []
    for text in texts:
        patterns += [f"{{n}}.{ext.lower()}" for ext in _GLOB.findall(text)]
        for word in words(text):
            patterns += list(vocab.bait_nouns.get(word, ()))
    out: list[str] = []
    for index, pattern in enumerate(dict.fromkeys(patterns)):
        for place in _places(lab):
            for copy in range(2 if pattern.startswith("{n}.") else 1):
                noun = lab.names.nonce(10_000 + index * 10 + copy)
                out.append(f"{place}/{pattern.replace('{n}', noun)}")
    return list(dict.fromkeys(out))[:_MAX_BAIT]


def plant_bait(lab: Lab, texts: Iterable[str]) -> list[str]:
    planted = []
    for labelled in bait_names(lab, texts):
        target = lab.host(labelled)
        if target.exists():
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(f"{lab.names.project} {target.name}\n", encoding="utf-8")
        planted.append(labelled)
    return planted


class LabPlanter:
    """`ArgumentSource.plant`: a planted subject under a base folder a description names."""

    def __init__(self, lab: Lab) -> None:
        self.lab = lab
        self.planted: list[str] = []

    def __call__(self, kind: str, base: str) -> str:
        labelled = self.lab.label(base)
        if labelled == base:  # outside the lab: nothing can be planted there
            return f"{base}/{self.lab.names.note}"
        folder = self.lab.host(labelled)
        folder.mkdir(parents=True, exist_ok=True)
        if kind in ("dir", "repo"):
            return base
        target = folder / self.lab.names.note
        if not target.exists():
            shutil.copyfile(self.lab.host(self.lab.note), target)
            self.planted.append(f"{labelled}/{self.lab.names.note}")
        return f"{base}/{self.lab.names.note}"
