"""What a check is, and the registry that loads them.

A check is a small object with a name, the rule ids it may emit, and `run`. A check that names a
rule the rule registry does not hold refuses to load (a check without a rule is not a check).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Protocol

from toolwitness.findings import Finding
from toolwitness.model import ServerSurface
from toolwitness.plainclass import field, plainclass
from toolwitness.rules import RuleRegistry


@plainclass(frozen=True)
class CheckContext:
    rules: RuleRegistry
    options: dict[str, object] = field(default_factory=dict)


class ServerCheck(Protocol):
    """Looks at one server's surface."""

    @property
    def name(self) -> str: ...
    @property
    def rule_ids(self) -> frozenset[str]: ...

    def run(self, surface: ServerSurface, ctx: CheckContext) -> Iterable[Finding]: ...


class FleetCheck(Protocol):
    """Looks at every scanned server at once (cross-server flows, name collisions)."""

    @property
    def name(self) -> str: ...
    @property
    def rule_ids(self) -> frozenset[str]: ...

    def run_all(
        self, surfaces: Sequence[ServerSurface], ctx: CheckContext
    ) -> dict[str, list[Finding]]: ...


@plainclass(frozen=True)
class FunctionCheck:
    """A server check written as a plain function."""

    name: str
    rule_ids: frozenset[str]
    func: Callable[[ServerSurface, CheckContext], Iterable[Finding]]

    def run(self, surface: ServerSurface, ctx: CheckContext) -> Iterable[Finding]:
        return self.func(surface, ctx)


_SERVER_CHECKS: list[ServerCheck] = []
_FLEET_CHECKS: list[FleetCheck] = []


def server_check(
    name: str, rule_ids: Iterable[str]
) -> Callable[
    [Callable[[ServerSurface, CheckContext], Iterable[Finding]]],
    Callable[[ServerSurface, CheckContext], Iterable[Finding]],
]:
    """Decorator: register a function as a server check emitting `rule_ids`."""

    def wrap(
        func: Callable[[ServerSurface, CheckContext], Iterable[Finding]],
    ) -> Callable[[ServerSurface, CheckContext], Iterable[Finding]]:
        _SERVER_CHECKS.append(FunctionCheck(name=name, rule_ids=frozenset(rule_ids), func=func))
        return func

    return wrap


def register_fleet_check(check: FleetCheck) -> FleetCheck:
    _FLEET_CHECKS.append(check)
    return check


def loaded_checks(rules: RuleRegistry) -> tuple[list[ServerCheck], list[FleetCheck]]:
    """Every registered check whose rule ids are all known; raises on one that is not."""
    from toolwitness.checks import catalog  # noqa: F401  (imports register the checks)

    every: list[ServerCheck | FleetCheck] = [*_SERVER_CHECKS, *_FLEET_CHECKS]
    for check in every:
        missing = sorted(r for r in check.rule_ids if r not in rules)
        if missing or not check.rule_ids:
            raise ValueError(f"check {check.name} names rules not in the registry: {missing}")
    return list(_SERVER_CHECKS), list(_FLEET_CHECKS)
