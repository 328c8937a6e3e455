"""Imports every check module so each registers itself. Add new check modules here."""

from toolwitness.checks import (
    capability,  # noqa: F401
    collisions,  # noqa: F401
    elicitation,  # noqa: F401
    flow,  # noqa: F401
    injection,  # noqa: F401
    meta,  # noqa: F401
    posture,  # noqa: F401
    supply_chain,  # noqa: F401
    unicode,  # noqa: F401
)
