"""GitHub code scanning's documented SARIF ingestion rules, as a checker for tests.

Source: GitHub Docs, "SARIF support for code scanning" (required properties, reportingDescriptor
and result fields, physicalLocation, limits table) and "SARIF results exceed limits"; upload
failures reported against github/codeql-action ("expected at least one location", "expected a
physical location", "unrecognized SARIF location URI scheme"). Returns every violation found, so a
failing test names them all.
"""

from __future__ import annotations

import gzip
import json
import re
from typing import Any

MAX_RUNS = 20
MAX_RESULTS_PER_RUN = 25_000
MAX_RULES_PER_RUN = 25_000
MAX_LOCATIONS_PER_RESULT = 10  # "up to a maximum of 10"; the hard limit is 1,000
MAX_TAGS_PER_RULE = 20
MAX_RULE_NAME = 255
MAX_DESCRIPTION = 1024
MAX_GZIP_BYTES = 10 * 1024 * 1024
LEVELS = {"note", "warning", "error"}
PRECISIONS = {"very-high", "high", "medium", "low"}
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def _text(value: Any) -> bool:
    return isinstance(value, str) and value != ""  # "The empty string is not supported"


def _uri_problems(where: str, artifact: Any, bases: dict[str, Any]) -> list[str]:
    out = []
    if not isinstance(artifact, dict) or not _text(artifact.get("uri")):
        return [f"{where}: artifactLocation.uri is required"]
    uri = artifact["uri"]
    if _SCHEME.match(uri) or uri.startswith("/") or "\\" in uri:
        out.append(f"{where}: uri {uri!r} is not a relative path")
    if any(part in ("..", ".") for part in uri.split("/")):
        out.append(f"{where}: uri {uri!r} leaves or names its base")
    base = artifact.get("uriBaseId")
    if base is None or base not in bases:
        out.append(f"{where}: uriBaseId {base!r} is not declared in originalUriBaseIds")
    return out


def _region_problems(where: str, region: Any) -> list[str]:
    if not isinstance(region, dict) or not isinstance(region.get("startLine"), int):
        return [f"{where}: region.startLine is required"]
    out = []
    start, column = region["startLine"], region.get("startColumn", 1)
    end_line, end_column = region.get("endLine", start), region.get("endColumn")
    if start < 1 or column < 1:
        out.append(f"{where}: lines and columns start at 1")
    if end_line < start or (end_line == start and end_column is not None and end_column < column):
        out.append(f"{where}: region ends before it starts")
    return out


def _rule_problems(i: int, rule: Any) -> list[str]:
    where = f"rules[{i}]"
    out = []
    if not _text(rule.get("id")):
        out.append(f"{where}: id is required")
    for key in ("shortDescription", "fullDescription", "help"):
        text = (rule.get(key) or {}).get("text")
        if not _text(text):
            out.append(f"{where}: {key}.text is required")
        elif key != "help" and len(text) > MAX_DESCRIPTION:
            out.append(f"{where}: {key}.text over {MAX_DESCRIPTION} characters")
    if len(rule.get("name", "")) > MAX_RULE_NAME:
        out.append(f"{where}: name over {MAX_RULE_NAME} characters")
    level = (rule.get("defaultConfiguration") or {}).get("level", "warning")
    if level not in LEVELS:
        out.append(f"{where}: defaultConfiguration.level {level!r}")
    props = rule.get("properties") or {}
    tags = props.get("tags", [])
    if len(tags) > MAX_TAGS_PER_RULE or not all(_text(t) for t in tags):
        out.append(f"{where}: tags must be at most {MAX_TAGS_PER_RULE} non-empty strings")
    if "precision" in props and props["precision"] not in PRECISIONS:
        out.append(f"{where}: precision {props['precision']!r}")
    if "security-severity" in props:
        try:
            score = float(props["security-severity"])
        except (TypeError, ValueError):
            score = -1.0
        if not isinstance(props["security-severity"], str) or not 0.0 < score <= 10.0:
            out.append(f"{where}: security-severity must be a string in (0.0, 10.0]")
    return out


def _result_problems(i: int, result: Any, rules: list[Any], bases: dict[str, Any]) -> list[str]:
    where = f"results[{i}]"
    out = []
    ids = [r.get("id") for r in rules]
    if result.get("ruleId") not in ids:
        out.append(f"{where}: ruleId {result.get('ruleId')!r} has no rule in rules[]")
    if "ruleIndex" in result and (
        not 0 <= result["ruleIndex"] < len(ids) or ids[result["ruleIndex"]] != result["ruleId"]
    ):
        out.append(f"{where}: ruleIndex does not name the ruleId's rule")
    if result.get("level", "warning") not in LEVELS:
        out.append(f"{where}: level {result.get('level')!r}")
    if not _text((result.get("message") or {}).get("text")):
        out.append(f"{where}: message.text is required")
    fingerprints = result.get("partialFingerprints")
    if not isinstance(fingerprints, dict) or not all(_text(v) for v in fingerprints.values()):
        out.append(f"{where}: partialFingerprints is required")
    elif not _text(fingerprints.get("primaryLocationLineHash")):
        out.append(f"{where}: code scanning only uses partialFingerprints.primaryLocationLineHash")
    locations = result.get("locations") or []
    if not 1 <= len(locations) <= MAX_LOCATIONS_PER_RESULT:
        out.append(f"{where}: needs 1 to {MAX_LOCATIONS_PER_RESULT} locations")
    for j, location in enumerate(locations):
        physical = location.get("physicalLocation")
        at = f"{where}.locations[{j}]"
        if not isinstance(physical, dict):
            out.append(f"{at}: physicalLocation is required (GitHub rejects the whole file)")
            continue
        out += _uri_problems(at, physical.get("artifactLocation"), bases)
        out += _region_problems(at, physical.get("region"))
    return out


def github_problems(text: str) -> list[str]:
    """Every way `text` (a SARIF file) breaks GitHub's documented ingestion rules."""
    doc = json.loads(text)
    out = []
    if not _text(doc.get("$schema")) or doc.get("version") != "2.1.0":
        out.append("$schema and version 2.1.0 are required")
    runs = doc.get("runs")
    if not isinstance(runs, list) or not 1 <= len(runs) <= MAX_RUNS:
        return [*out, f"runs[] must hold 1 to {MAX_RUNS} runs"]
    if len(gzip.compress(text.encode("utf-8"))) > MAX_GZIP_BYTES:
        out.append("over 10 MB gzip-compressed")
    for run in runs:
        driver = (run.get("tool") or {}).get("driver") or {}
        if not _text(driver.get("name")):
            out.append("tool.driver.name is required")
        rules = driver.get("rules")
        if not isinstance(rules, list) or len(rules) > MAX_RULES_PER_RUN:
            out.append("tool.driver.rules[] is required (at most 25,000)")
            rules = []
        for i, rule in enumerate(rules):
            out += _rule_problems(i, rule)
        results = run.get("results")
        if not isinstance(results, list) or len(results) > MAX_RESULTS_PER_RUN:
            out.append("results[] is required (at most 25,000 a run)")
            results = []
        bases = run.get("originalUriBaseIds") or {}
        for i, result in enumerate(results):
            out += _result_problems(i, result, rules, bases)
    return out
