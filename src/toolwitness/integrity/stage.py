"""The lockfile as a pipeline stage: TW-PIN findings and each server's pin state."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from toolwitness.acquire.limits import InputLimits
from toolwitness.integrity.policy import LockSettings
from toolwitness.integrity.verify import verify_lock
from toolwitness.model import ServerSurface
from toolwitness.result import PinResult, ServerResult
from toolwitness.rules import RuleRegistry
from toolwitness.stage import Contribution


class PinStage:
    name = "pin"

    def __init__(
        self, lock: Path, limits: InputLimits, settings: LockSettings | None = None
    ) -> None:
        self.lock = lock
        self.limits = limits
        self.settings = settings or LockSettings()

    def contribute(
        self, surfaces: Sequence[ServerSurface], rules: RuleRegistry
    ) -> dict[str, Contribution]:
        pins = verify_lock(surfaces, self.lock, self.limits, rules, self.settings)
        return {
            server_id: Contribution(tuple(found), attach=_PinAttach(pin))
            for server_id, (pin, found) in pins.items()
        }


class _PinAttach:
    def __init__(self, pin: PinResult) -> None:
        self.pin = pin

    def __call__(self, result: ServerResult) -> ServerResult:
        return result.model_copy(update={"pin": self.pin})
