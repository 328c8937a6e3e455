"""What a change to a pinned surface may do: the reviewed matrix, and two stricter policies.

The default (`reviewed`) follows the acceptance matrix: a changed description or schema, an added
or removed tool, are facts to report (the pin state is `changed`, a warning); a tool that moves
itself to a more trusted tier (a gating hint widened, see `drift.classify_hint`) is blocked
whatever the posture; narrowing is reported and allowed. A change that brings a high or critical
metadata finding is blocked too (`recheck`), under every policy.

Stricter, named policies for those who want them:

- `block-new-read-only`: a tool added to a pinned server that claims `readOnlyHint: true` is
  blocked (it would enter the auto-approved tier unreviewed);
- `block-any-change`: every difference from the pin is blocked, server-level ones included.
"""

from __future__ import annotations

from enum import StrEnum

from toolwitness.plainclass import plainclass

WIDENING_BLOCK = "widening"
POLICY_BLOCK = "policy"
RECHECK_FAILED = "recheck-failed"


class PinPolicy(StrEnum):
    REVIEWED = "reviewed"
    BLOCK_NEW_READ_ONLY = "block-new-read-only"
    BLOCK_ANY_CHANGE = "block-any-change"


@plainclass(frozen=True)
class LockSettings:
    """How `scan --lock` compares: the policy, and the lock key of the one server scanned.
    Here, beside the policy, so a scan without a lockfile never loads the lockfile machinery."""

    policy: PinPolicy = PinPolicy.REVIEWED
    server_id: str | None = None  # --server-id: the lock key of the one server scanned


POLICY_HELP = (
    "What a change to a pinned server may do. reviewed (default): changes warn, a tool granting"
    " itself privilege or a change bringing a high/critical finding is blocked;"
    " block-new-read-only: also block added tools that claim readOnlyHint;"
    " block-any-change: block every change."
)


def policy_blocks(
    policy: PinPolicy, *, change: str, widening: bool, added_read_only: bool
) -> tuple[str, ...]:
    """Why one tool's change is blocked before any re-check (empty: it is not)."""
    found: list[str] = []
    if widening:
        found.append(WIDENING_BLOCK)
    if policy is PinPolicy.BLOCK_ANY_CHANGE or (
        policy is PinPolicy.BLOCK_NEW_READ_ONLY and change == "added" and added_read_only
    ):
        found.append(POLICY_BLOCK)
    return tuple(found)


def server_level_blocked(policy: PinPolicy, server_fields: tuple[str, ...]) -> bool:
    return policy is PinPolicy.BLOCK_ANY_CHANGE and bool(server_fields)
