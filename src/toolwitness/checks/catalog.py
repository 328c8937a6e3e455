"""Imports every check module so each registers itself. Add new check modules here."""

from toolwitness.checks import meta  # noqa: F401
from toolwitness.checks import unicode  # noqa: F401
from toolwitness.checks import injection  # noqa: F401
from toolwitness.checks import posture  # noqa: F401
from toolwitness.checks import supply_chain  # noqa: F401
from toolwitness.checks import capability  # noqa: F401
from toolwitness.checks import elicitation  # noqa: F401
from toolwitness.checks import flow  # noqa: F401
from toolwitness.checks import collisions  # noqa: F401
