"""The advisory table (data/advisories.yaml): which pinned package versions are known-vulnerable."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from toolwitness.datafiles import data_files
from toolwitness.errors import InternalError
from toolwitness.findings import Severity
from toolwitness.supply.names import normalise_name
from toolwitness.supply.versions import in_range, version_key
from toolwitness.yamlload import load_yaml

SCHEMA = "toolwitness.advisories/1"


@dataclass(frozen=True)
class Advisory:
    id: str
    aliases: tuple[str, ...]
    ecosystem: str
    package: str
    severity: Severity
    summary: str
    ranges: tuple[tuple[str, str | None], ...]
    references: tuple[str, ...]

    def fixed_versions(self) -> list[str]:
        return [fixed for _, fixed in self.ranges if fixed]


@lru_cache(maxsize=1)
def advisories() -> tuple[Advisory, ...]:
    text = data_files().joinpath("advisories.yaml").read_text("utf-8")
    doc = load_yaml(text)
    if not isinstance(doc, dict) or doc.get("schema") != SCHEMA:
        raise InternalError("data/advisories.yaml: missing or wrong schema marker")
    out: list[Advisory] = []
    for raw in doc.get("advisories", []):
        try:
            ecosystem = raw["ecosystem"]
            ranges = tuple((str(r["introduced"]), r.get("fixed")) for r in raw["ranges"])
            for low, high in ranges:
                if version_key(ecosystem, low) is None or (
                    high is not None and version_key(ecosystem, str(high)) is None
                ):
                    raise ValueError(f"unparseable range {low!r}..{high!r}")
            out.append(
                Advisory(
                    id=str(raw["id"]),
                    aliases=tuple(raw.get("aliases", ())),
                    ecosystem=ecosystem,
                    package=str(raw["package"]),
                    severity=Severity(raw["severity"]),
                    summary=" ".join(str(raw["summary"]).split()),
                    ranges=tuple((low, None if h is None else str(h)) for low, h in ranges),
                    references=tuple(raw.get("references", ())),
                )
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise InternalError(f"data/advisories.yaml: bad entry {raw!r}: {exc}") from None
    return tuple(out)


def matching_advisories(ecosystem: str, name: str, version: str) -> list[Advisory]:
    """Advisories whose affected range holds this exact version (sorted by id)."""
    key = normalise_name(ecosystem, name)
    found = []
    for advisory in advisories():
        if advisory.ecosystem != ecosystem or normalise_name(ecosystem, advisory.package) != key:
            continue
        if any(in_range(ecosystem, version, low, high) for low, high in advisory.ranges):
            found.append(advisory)
    return sorted(found, key=lambda a: a.id)
