"""`toolwitness evaluate MANIFEST...` and `toolwitness compare-experiments A B`.

evaluate: detection quality on labelled sets, with Wilson intervals, a per-family table, optional
ablations (`--ablate FAMILY|RULE`) and runs kept as JSON (`--runs-dir`). compare-experiments: the
deltas between two kept runs, refused when they do not measure the same corpus, labels, split and
threshold.
"""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from toolwitness.errors import EXIT_INTERNAL, UsageError
from toolwitness.evaluate import evaluate, load_labelled_set
from toolwitness.evaluate_runs import compare, load_run, run_document, save_run
from toolwitness.findings import Severity
from toolwitness.textnorm import escape_display


class Split(StrEnum):
    DEV = "dev"
    HOLDOUT = "holdout"
    ALL = "all"


class EvalFormat(StrEnum):
    TEXT = "text"
    JSON = "json"


def _rate(metric: dict[str, Any]) -> str:
    if metric["value"] is None:
        return "n/a"
    lo, hi = metric["ci95"]
    return f"{metric['value']:.3f} [{lo:.3f}, {hi:.3f}]"


def _signed(value: float | None) -> str:
    return "n/a" if value is None else f"{value:+.3f}"


def _family_table(doc: dict[str, Any]) -> list[str]:
    source = {"manifest": "the manifest", "meta.json": "meta.json", "labels": "the labels"}
    lines = [
        f"per family (families from {source[doc['family_source']]}):",
        f"  {'family':<22} {'caught':>8}  recall [95% CI]",
    ]
    for name, m in doc["families"].items():
        caught = f"{m['tp']}/{m['tp'] + m['fn']}"
        lines.append(f"  {escape_display(name):<22} {caught:>8}  {_rate(m['recall'])}")
    if doc["borderline"]:
        lines += ["", f"  {'benign kind':<22} {'flagged':>8}  false-positive rate [95% CI]"]
        for name, m in doc["borderline"].items():
            count = f"{m['fp']}/{m['fp'] + m['tn']}"
            lines.append(
                f"  {escape_display(name):<22} {count:>8}  {_rate(m['false_positive_rate'])}"
            )
    return lines


def _ablation_table(doc: dict[str, Any]) -> list[str]:
    if not doc["ablations"]:
        return []
    lines = [
        "",
        "ablation (what each removed family or rule contributes; delta = without - with):",
        f"  {'removed':<14} {'recall':>22} {'d recall':>9} {'FPR':>22} {'d FPR':>8}  lost/cleared",
    ]
    for a in doc["ablations"]:
        o, d = a["overall"], a["delta"]
        lines.append(
            f"  {a['remove']:<14} {_rate(o['recall']):>22} {_signed(d['recall']):>9} "
            f"{_rate(o['false_positive_rate']):>22} {_signed(d['false_positive_rate']):>8}  "
            f"{len(a['lost'])}/{len(a['cleared'])}"
        )
    return lines


def render_text(doc: dict[str, Any]) -> str:
    o = doc["overall"]
    lines = [
        f"manifest: {escape_display(doc['manifest'])}   split: {doc['split']}   "
        f"flagged at: {doc['threshold']} or above",
        f"TP {o['tp']}  FP {o['fp']}  TN {o['tn']}  FN {o['fn']}",
        f"precision            {_rate(o['precision'])}",
        f"recall               {_rate(o['recall'])}",
        f"F1                   {'n/a' if o['f1'] is None else format(o['f1'], '.3f')}",
        f"false-positive rate  {_rate(o['false_positive_rate'])}",
        "(values with Wilson 95% intervals)",
        "",
        *_family_table(doc),
        *_ablation_table(doc),
    ]
    for title, key in (
        ("missed (false negatives)", "false_negatives"),
        ("false positives", "false_positives"),
    ):
        if doc[key]:
            lines += ["", f"{title}:", *(f"  {escape_display(k)}" for k in doc[key])]
    if doc["incomplete"]:
        lines += [
            "",
            "INCOMPLETE scans (a check failed):",
            *(f"  {escape_display(k)}" for k in doc["incomplete"]),
        ]
    return "\n".join(lines) + "\n"


def evaluate_command(
    manifests: Annotated[
        list[Path], typer.Argument(help="Corpus manifests or flat labels.json files.")
    ],
    split: Annotated[Split, typer.Option("--split", help="Which part of the corpus.")] = Split.ALL,
    fmt: Annotated[
        EvalFormat, typer.Option("--format", "-f", help="Output format (json: one manifest).")
    ] = EvalFormat.TEXT,
    threshold: Annotated[
        Severity, typer.Option("--threshold", help="A tool is flagged at this severity or above.")
    ] = Severity.MEDIUM,
    ablate: Annotated[
        list[str] | None,
        typer.Option(
            "--ablate",
            metavar="FAMILY|RULE",
            help="Also measure without a rule family (CAP) or a rule (TW-CAP-014). Repeatable.",
        ),
    ] = None,
    runs_dir: Annotated[
        Path | None,
        typer.Option("--runs-dir", help="Keep each run here as <experiment id>.json."),
    ] = None,
) -> None:
    """Scan labelled corpora: TP/FP/TN/FN, precision, recall, F1 and FPR with Wilson intervals,
    per family; with --ablate, what a family or rule contributes."""
    from toolwitness.cli_support import emit as _emit
    from toolwitness.cli_support import guard as _guard

    with _guard():
        if fmt is EvalFormat.JSON and len(manifests) != 1:
            raise UsageError("--format json takes one manifest")
        texts, incomplete = [], False
        for manifest in manifests:
            labelled = load_labelled_set(manifest)
            result = evaluate(
                labelled, split.value, threshold=threshold, ablate=tuple(ablate or ())
            )
            doc = result.to_json()
            if fmt is EvalFormat.JSON:
                texts.append(json.dumps(doc, indent=2, ensure_ascii=True) + "\n")
            else:
                texts.append(render_text(doc))
            if runs_dir is not None:
                path = save_run(run_document(labelled, result), runs_dir)
                if fmt is EvalFormat.TEXT:
                    texts.append(f"run kept: {escape_display(str(path))}\n")
            incomplete = incomplete or bool(result.incomplete)
        _emit(("\n" + "=" * 72 + "\n\n").join(texts) if fmt is EvalFormat.TEXT else texts[0], None)
        if incomplete:
            raise typer.Exit(EXIT_INTERNAL)


def render_comparison(doc: dict[str, Any]) -> str:
    lines = [f"A: {doc['a']}", f"B: {doc['b']}", "(deltas are B - A)", ""]
    counts = doc["counts"]
    lines.append("  ".join(f"{k.upper()} {v[0]} -> {v[1]}" for k, v in counts.items()))
    for key, label in (
        ("precision", "precision"),
        ("recall", "recall"),
        ("false_positive_rate", "false-positive rate"),
        ("f1", "F1"),
    ):
        pair = doc["overall"][key]
        a = "n/a" if pair["a"] is None else f"{pair['a']:.3f}"
        b = "n/a" if pair["b"] is None else f"{pair['b']:.3f}"
        lines.append(f"{label:<20} {a} -> {b}  ({_signed(pair['delta'])})")
    if doc["family_recall"]:
        lines += ["", "recall per family:"]
        for name, pair in doc["family_recall"].items():
            a = "n/a" if pair["a"] is None else f"{pair['a']:.3f}"
            b = "n/a" if pair["b"] is None else f"{pair['b']:.3f}"
            lines.append(f"  {escape_display(name):<22} {a} -> {b}  ({_signed(pair['delta'])})")
    for key, title in (
        ("newly_caught", "newly caught"),
        ("newly_missed", "newly missed"),
        ("new_false_positives", "new false positives"),
        ("cleared_false_positives", "false positives cleared"),
    ):
        if doc[key]:
            lines += ["", f"{title}:", *(f"  {escape_display(k)}" for k in doc[key])]
    return "\n".join(lines) + "\n"


def compare_command(
    a: Annotated[Path, typer.Argument(help="A run kept by evaluate --runs-dir.")],
    b: Annotated[Path, typer.Argument(help="Another run (deltas are B - A).")],
    fmt: Annotated[
        EvalFormat, typer.Option("--format", "-f", help="Output format.")
    ] = EvalFormat.TEXT,
) -> None:
    """Deltas between two evaluation runs; refused unless corpus, labels, split and threshold
    match."""
    from toolwitness.cli_support import emit as _emit
    from toolwitness.cli_support import guard as _guard

    with _guard():
        doc = compare(load_run(a), load_run(b))
        text = (
            json.dumps(doc, indent=2, ensure_ascii=True) + "\n"
            if fmt is EvalFormat.JSON
            else render_comparison(doc)
        )
        _emit(text, None)


def register(app: typer.Typer) -> None:
    app.command("evaluate")(evaluate_command)
    app.command("compare-experiments")(compare_command)
