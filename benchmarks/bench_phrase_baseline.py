"""Detection quality of a naive phrase-list scanner on the same labelled sets, for comparison.

The baseline flags a tool when any of its text fields contains one of the phrases below
(case-insensitive substring) — the approach of deterministic phrase-list scanners. The list is
ours, written to be typical, not tuned. Run from the repository root:

    .venv/bin/python benchmarks/bench_phrase_baseline.py corpus/manifest.json [--split holdout]
"""

from __future__ import annotations

import argparse
import json

from toolwitness.acquire.catalog import load_catalog_file
from toolwitness.evaluate import Confusion, load_labelled_set
from toolwitness.model import tool_text_fields
from toolwitness.textnorm import nfc

PHRASES = (
    "ignore previous instructions", "ignore all previous", "disregard", "system prompt",
    "do not tell the user", "don't tell the user", "do not mention", "without telling",
    "<important>", "before using any other tool", "~/.ssh", "id_rsa", ".env", "credentials",
    "api key", "password", "secret", "token", "exfiltrate", "send to", "curl", "bash",
    "base64", "webhook", "conversation history", "chat history", "bcc", "always use this tool",
    "malicious", "steal",
)  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("manifest")
    parser.add_argument("--split", default="all")
    args = parser.parse_args()
    labelled = load_labelled_set(__import__("pathlib").Path(args.manifest))
    chosen = [t for t in labelled.tools if args.split in ("all", t.split)]
    flagged: dict[str, set[str]] = {}
    for name in sorted({t.catalog for t in chosen}):
        surface = load_catalog_file(labelled.catalogs[name], server_id=name)
        hits = set()
        for i, tool in enumerate(surface.tools):
            text = " ".join(nfc(f.text).lower() for f in tool_text_fields(tool, i))
            if any(p in text for p in PHRASES):
                hits.add(tool.name)
        flagged[name] = hits
    confusion = Confusion()
    for tool in chosen:
        confusion.add(tool.malicious, tool.tool in flagged[tool.catalog])
    m = confusion.metrics()
    print(json.dumps({"manifest": args.manifest, "split": args.split, **{k: m[k] for k in ("tp", "fp", "tn", "fn")},
                      "recall": m["recall"], "false_positive_rate": m["false_positive_rate"],
                      "precision": m["precision"]}, indent=1))  # fmt: skip


if __name__ == "__main__":
    main()
