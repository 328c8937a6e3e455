"""Imports every check module so each registers itself. Add new check modules here."""

from toolwitness.checks import meta, posture, supply_chain  # noqa: F401
from toolwitness.checks.capability import (  # noqa: F401
    annotations,
    elicitation,
    mismatch,
    schemas,
    steered,
)
from toolwitness.checks.crosstool import check as crosstool_check  # noqa: F401
from toolwitness.checks.crosstool import places as crosstool_places  # noqa: F401
from toolwitness.checks.flow import collisions, toxic, with_builtins  # noqa: F401
from toolwitness.checks.injection import check as injection_check  # noqa: F401
from toolwitness.checks.unicode import check as unicode_check  # noqa: F401
