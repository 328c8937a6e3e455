"""`toolwitness evaluate MANIFEST`: detection quality on a labelled set, with Wilson intervals."""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from toolwitness.errors import EXIT_INTERNAL
from toolwitness.evaluate import evaluate, load_labelled_set
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


def render_text(doc: dict[str, Any]) -> str:
    o = doc["overall"]
    lines = [
        f"manifest: {escape_display(doc['manifest'])}   split: {doc['split']}",
        f"TP {o['tp']}  FP {o['fp']}  TN {o['tn']}  FN {o['fn']}",
        f"precision            {_rate(o['precision'])}",
        f"recall               {_rate(o['recall'])}",
        f"F1                   {'n/a' if o['f1'] is None else format(o['f1'], '.3f')}",
        f"false-positive rate  {_rate(o['false_positive_rate'])}",
        "(values with Wilson 95% intervals)",
        "",
        "recall per malicious family:",
    ]
    for name, m in doc["families"].items():
        lines.append(
            f"  {escape_display(name):<18} {m['tp']:>3}/{m['tp'] + m['fn']:<3} {_rate(m['recall'])}"
        )
    if doc["borderline"]:
        lines += ["", "false positives per borderline benign kind:"]
        for name, m in doc["borderline"].items():
            count = f"{m['fp']:>3}/{m['fp'] + m['tn']:<3}"
            lines.append(f"  {escape_display(name):<18} {count} {_rate(m['false_positive_rate'])}")
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
    manifest: Annotated[Path, typer.Argument(help="Corpus manifest or a flat labels.json.")],
    split: Annotated[Split, typer.Option("--split", help="Which part of the corpus.")] = Split.ALL,
    fmt: Annotated[
        EvalFormat, typer.Option("--format", "-f", help="Output format.")
    ] = EvalFormat.TEXT,
) -> None:
    """Scan a labelled corpus and print TP/FP/TN/FN, precision, recall, F1 and FPR."""
    from toolwitness.cli_support import emit as _emit
    from toolwitness.cli_support import guard as _guard

    with _guard():
        result = evaluate(load_labelled_set(manifest), split.value)
        doc = result.to_json()
        text = (
            json.dumps(doc, indent=2, ensure_ascii=True) + "\n"
            if fmt is EvalFormat.JSON
            else render_text(doc)
        )
        _emit(text, None)
        if result.incomplete:
            raise typer.Exit(EXIT_INTERNAL)


def register(app: typer.Typer) -> None:
    app.command("evaluate")(evaluate_command)
