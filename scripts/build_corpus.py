"""Render the hand-written corpus sources (corpus/sources/*.yaml) into catalogs and a manifest.

Each source file is one server: `server`, optional `instructions`, and `tools`, each with
n (name), l (b/m: benign/malicious), f (family, malicious only), bl (borderline kind, benign
only), d (description), p (parameter name -> description), a (annotations), and optionally
`hidden` text that is smuggled into the description with Unicode Tags (default) or variation
selectors (`hidden_channel: selectors`).

The split is fixed by hashing the tool id, so it never depends on results:
sha256("<server>::<tool>") mod 100 < 30 -> holdout. Run: python scripts/build_corpus.py
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent / "corpus"
HOLDOUT_PERCENT = 30


def split_of(tool_id: str) -> str:
    digest = hashlib.sha256(tool_id.encode("utf-8")).hexdigest()
    return "holdout" if int(digest[:8], 16) % 100 < HOLDOUT_PERCENT else "dev"


def tags(text: str) -> str:
    return "".join(chr(0xE0000 + ord(c)) for c in text if ord(c) < 0x80)


def selectors(text: str) -> str:
    out = []
    for byte in text.encode("utf-8"):
        out.append(chr(0xFE00 + byte) if byte < 16 else chr(0xE0100 + byte - 16))
    return "".join(out)


def render_tool(raw: dict[str, Any]) -> dict[str, Any]:
    description = raw["d"]
    if "hidden" in raw:
        channel = raw.get("hidden_channel", "tags")
        hidden = tags(raw["hidden"]) if channel == "tags" else selectors(raw["hidden"])
        # Selectors ride on the last visible character; tags simply follow the text.
        description = description + hidden
    props = {
        name: {"type": "string", "description": desc} for name, desc in (raw.get("p") or {}).items()
    }
    tool: dict[str, Any] = {
        "name": raw["n"],
        "description": description,
        "inputSchema": {"type": "object", "properties": props, "required": sorted(props)[:1]},
    }
    if raw.get("a"):
        tool["annotations"] = raw["a"]
    return tool


def main() -> int:
    manifest: dict[str, Any] = {
        "schema": "toolwitness.corpus/1",
        "description": "Hand-written labelled MCP tools: malicious (by family) and benign.",
        "holdout_rule": f"sha256('<catalog>::<tool>') mod 100 < {HOLDOUT_PERCENT}",
        "catalogs": {},
        "tools": {},
    }
    (ROOT / "catalogs").mkdir(exist_ok=True)
    for source in sorted((ROOT / "sources").glob("*.yaml")):
        doc = yaml.safe_load(source.read_text("utf-8"))
        server = doc["server"]
        catalog: dict[str, Any] = {"tools": [render_tool(t) for t in doc["tools"]]}
        if doc.get("instructions"):
            catalog["instructions"] = doc["instructions"]
        rel = f"catalogs/{server}.json"
        (ROOT / rel).write_text(json.dumps(catalog, indent=2, ensure_ascii=True) + "\n", "utf-8")
        manifest["catalogs"][server] = rel
        for raw in doc["tools"]:
            tool_id = f"{server}::{raw['n']}"
            entry: dict[str, Any] = {"label": "malicious" if raw["l"] == "m" else "benign"}
            if raw["l"] == "m":
                entry["family"] = raw["f"]
            elif raw.get("bl"):
                entry["borderline"] = raw["bl"]
            entry["split"] = split_of(tool_id)
            manifest["tools"][tool_id] = entry
    (ROOT / "manifest.json").write_text(
        json.dumps(manifest, indent=1, sort_keys=True, ensure_ascii=True) + "\n", "utf-8"
    )
    counts: dict[str, int] = {}
    for entry in manifest["tools"].values():
        key = f"{entry['split']}/{entry['label']}"
        counts[key] = counts.get(key, 0) + 1
    print(json.dumps(counts, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
