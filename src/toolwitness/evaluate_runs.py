"""Evaluation runs kept as JSON (`evaluate --runs-dir`) and compared (`compare-experiments`).

A run is named by its *experiment id*: the SHA-256 of the canonical JSON (RFC 8785) of what
decides its figures -- the corpus (every file's bytes: manifest, meta.json, catalogs), the labels
(key, label, families, split), the rule packs (every packaged data file: rules, vocabularies,
lexicons, and any extra pack), the toolwitness version and the configuration (split, threshold,
ablations). The same experiment run twice gets the same id; changing any of these gets a new one.

Two runs are compared only when corpus, labels, split and threshold match: otherwise a delta
would mix a change of the data with a change of the detector, so the comparison is refused with
the reason (an `InputError`, exit 2).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import jsonschema
import rfc8785

from toolwitness._version import __version__
from toolwitness.errors import InputError
from toolwitness.evaluate import Evaluation
from toolwitness.evaluate_sets import LabelledSet, read_json
from toolwitness.files import read_regular

RUN_SCHEMA = "toolwitness.evaluation-run/1"
COMPARISON_SCHEMA = "toolwitness.evaluation-comparison/1"
_MAX_CORPUS_FILE = 64 * 1024 * 1024
_MAX_DATA_FILES = 2000


def _sha256(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def corpus_digest(labelled: LabelledSet) -> str:
    """Every file of the set, by its path relative to the manifest's folder and its bytes."""
    base = Path(labelled.source).parent
    digest = hashlib.sha256()
    for path in sorted(set(labelled.files)):
        try:
            name = path.relative_to(base).as_posix()
        except ValueError:
            name = path.as_posix()
        data = read_regular(path, _MAX_CORPUS_FILE, what="corpus file")
        digest.update(f"{name}\0{len(data)}\0".encode())
        digest.update(data)
    return "sha256:" + digest.hexdigest()


def labels_digest(labelled: LabelledSet) -> str:
    rows: list[Any] = sorted(
        ([t.key, t.malicious, list(t.categories), t.split] for t in labelled.tools),
        key=lambda row: str(row[0]),
    )
    return _sha256(rfc8785.dumps(rows))


def _data_files(node: Traversable, prefix: str, out: list[tuple[str, bytes]]) -> None:
    for child in sorted(node.iterdir(), key=lambda c: c.name):
        if len(out) >= _MAX_DATA_FILES:
            return
        name = f"{prefix}{child.name}"
        if child.is_dir():
            _data_files(child, f"{name}/", out)
        elif child.is_file() and not child.name.endswith((".py", ".pyc")):
            out.append((name, child.read_bytes()))


@lru_cache(maxsize=1)
def _packaged_data_digest() -> str:
    files: list[tuple[str, bytes]] = []
    _data_files(resources.files("toolwitness.data"), "", files)
    digest = hashlib.sha256()
    for name, data in files:
        digest.update(f"{name}\0{len(data)}\0".encode())
        digest.update(data)
    return "sha256:" + digest.hexdigest()


def rule_pack_digest(extra_packs: tuple[Path, ...] = ()) -> str:
    """The packaged data (rules, vocabularies, lexicons) and any extra rule pack."""
    digest = hashlib.sha256(_packaged_data_digest().encode())
    for pack in extra_packs:
        digest.update(read_regular(pack, _MAX_CORPUS_FILE, what="rule pack"))
    return "sha256:" + digest.hexdigest()


@dataclass(frozen=True)
class RunIdentity:
    corpus: str
    labels: str
    rule_pack: str
    split: str
    threshold: str
    ablate: tuple[str, ...]

    def experiment_id(self) -> str:
        doc: dict[str, Any] = {
            "corpus": self.corpus,
            "labels": self.labels,
            "rule_pack": self.rule_pack,
            "toolwitness_version": __version__,
            "configuration": {
                "split": self.split,
                "threshold": self.threshold,
                "ablate": list(self.ablate),
            },
        }
        return "exp-" + hashlib.sha256(rfc8785.dumps(doc)).hexdigest()[:24]


def run_document(
    labelled: LabelledSet, result: Evaluation, extra_packs: tuple[Path, ...] = ()
) -> dict[str, Any]:
    identity = RunIdentity(
        corpus=corpus_digest(labelled),
        labels=labels_digest(labelled),
        rule_pack=rule_pack_digest(extra_packs),
        split=result.split,
        threshold=result.threshold,
        ablate=tuple(a.remove for a in result.ablations),
    )
    return {
        "schema": RUN_SCHEMA,
        "experiment_id": identity.experiment_id(),
        "toolwitness_version": __version__,
        "corpus": {
            "manifest": labelled.source,
            "digest": identity.corpus,
            "labels_digest": identity.labels,
            "tools": len(labelled.tools),
        },
        "split": identity.split,
        "threshold": identity.threshold,
        "rule_pack": {"digest": identity.rule_pack, "extra": [str(p) for p in extra_packs]},
        "configuration": {"ablate": list(identity.ablate)},
        "report": result.to_json(),
    }


def save_run(doc: dict[str, Any], runs_dir: Path) -> Path:
    """Write the run as `<experiment id>.json` in `runs_dir` (created if missing)."""
    if runs_dir.exists() and not runs_dir.is_dir():
        raise InputError(f"--runs-dir {runs_dir} is not a directory")
    runs_dir.mkdir(parents=True, exist_ok=True)
    path = runs_dir / f"{doc['experiment_id']}.json"
    path.write_text(json.dumps(doc, indent=2, ensure_ascii=True, sort_keys=True) + "\n", "utf-8")
    return path


@lru_cache(maxsize=1)
def _schema() -> dict[str, Any]:
    text = resources.files("toolwitness.data").joinpath("evaluation.schema.json").read_text("utf-8")
    doc: dict[str, Any] = json.loads(text)
    return doc


def validate_document(doc: Any, source: str) -> None:
    try:
        jsonschema.validate(doc, _schema())
    except jsonschema.ValidationError as exc:
        where = "$" + "".join(f"[{p!r}]" for p in exc.absolute_path)
        raise InputError(
            f"not an evaluation run: {exc.message[:200]}", source=source, path=where
        ) from exc


def load_run(path: Path) -> dict[str, Any]:
    doc = read_json(path)
    validate_document(doc, str(path))
    if not isinstance(doc, dict) or doc.get("schema") != RUN_SCHEMA:
        raise InputError(
            "not an evaluation run (schema toolwitness.evaluation-run/1)", source=str(path)
        )
    return doc


def _identity(doc: dict[str, Any]) -> dict[str, str]:
    """What two runs must share to be compared."""
    return {
        "corpus": str(doc["corpus"]["digest"]),
        "labels": str(doc["corpus"]["labels_digest"]),
        "split": str(doc["split"]),
        "threshold": str(doc["threshold"]),
    }


def comparable(a: dict[str, Any], b: dict[str, Any]) -> str | None:
    """None when the two runs measure the same thing, else why they do not."""
    ia, ib = _identity(a), _identity(b)
    for what in ia:
        if ia[what] != ib[what]:
            return f"the {what} differs ({ia[what]} vs {ib[what]})"
    return None


def _value(metrics: dict[str, Any], key: str) -> float | None:
    found = metrics[key] if key == "f1" else metrics[key]["value"]
    return None if found is None else float(found)


def compare(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """B minus A: overall rates, per family recall, and the tools whose verdict changed."""
    reason = comparable(a, b)
    if reason is not None:
        raise InputError(f"refusing to compare these runs: {reason}")
    ra, rb = a["report"], b["report"]
    keys = ("precision", "recall", "false_positive_rate", "f1")
    overall = {k: _diff(_value(ra["overall"], k), _value(rb["overall"], k)) for k in keys}
    families = {
        name: _diff(
            ra["families"].get(name, {}).get("recall", {}).get("value"),
            rb["families"].get(name, {}).get("recall", {}).get("value"),
        )
        for name in sorted(set(ra["families"]) | set(rb["families"]))
    }
    fn_a, fn_b = set(ra["false_negatives"]), set(rb["false_negatives"])
    fp_a, fp_b = set(ra["false_positives"]), set(rb["false_positives"])
    return {
        "schema": COMPARISON_SCHEMA,
        "a": a["experiment_id"],
        "b": b["experiment_id"],
        "counts": {k: [ra["overall"][k], rb["overall"][k]] for k in ("tp", "fp", "tn", "fn")},
        "overall": overall,
        "family_recall": families,
        "newly_caught": sorted(fn_a - fn_b),
        "newly_missed": sorted(fn_b - fn_a),
        "new_false_positives": sorted(fp_b - fp_a),
        "cleared_false_positives": sorted(fp_a - fp_b),
    }


def _diff(a: float | None, b: float | None) -> dict[str, float | None]:
    return {"a": a, "b": b, "delta": None if a is None or b is None else round(b - a, 4)}
