"""Argument rules: narrow a sink's leaves from a literal argument.

A sink's `leaves` in the catalog are what the call can reach whatever its arguments (sound when
the argument is not a literal). When the argument is a literal, its rule narrows them:

- `open-mode`: Python `open`/Node `fs.open` mode or flags (`r`, `rb`, `w`, `a+`, `wx`, `rs+`…);
- `sql-text`: the SQL text of a query call (see `sqltext.classify_sql`);
- `shell-option`: `spawn(cmd, args, {shell: true})`, `subprocess.run(..., shell=True)`.
"""

from __future__ import annotations

from toolwitness.code.sqltext import BOTH as SQL_BOTH
from toolwitness.code.sqltext import classify_sql

READ_FS = "READ_FS"
WRITE_FS = "WRITE_FS"
EXEC_PROCESS = "EXEC_PROCESS"
EXEC_SHELL = "EXEC_SHELL"
_FS_BOTH = frozenset({READ_FS, WRITE_FS})
_EXEC_BOTH = frozenset({EXEC_PROCESS, EXEC_SHELL})
_MODE_CHARS = frozenset("rwax+btUs")

# The leaves each rule decides; a sink's other leaves are kept as they are.
RULE_DOMAIN: dict[str, frozenset[str]] = {
    "open-mode": _FS_BOTH,
    "sql-text": SQL_BOTH,
    "shell-option": _EXEC_BOTH,
}


def classify_open_mode(mode: str | None) -> frozenset[str]:
    """Leaves of an open mode; None (no mode given) is the default read mode."""
    if mode is None:
        return frozenset({READ_FS})
    if not mode or len(mode) > 8 or not set(mode) <= _MODE_CHARS:
        return _FS_BOTH  # not a mode we can read: assume the worst
    leaves: set[str] = set()
    if "r" in mode or "U" in mode:
        leaves.add(READ_FS)
    if set(mode) & set("wax"):
        leaves.add(WRITE_FS)
    if "+" in mode:
        leaves |= _FS_BOTH
    return frozenset(leaves) or _FS_BOTH


def classify_shell_option(shell: bool | str | None) -> frozenset[str]:
    """Leaves of a process call by its literal `shell` option (None: the option is absent).

    A shell path string (`shell: "/bin/bash"`) runs through that shell, like `true`. The most
    specific leaf is reported (docs/capabilities.md): a shell is EXEC_SHELL, not also
    EXEC_PROCESS; an option that is not a literal leaves both possible.
    """
    if shell is None or shell is False or shell == "":
        return frozenset({EXEC_PROCESS})
    return frozenset({EXEC_SHELL})


def refine_leaves(
    leaves: frozenset[str], arg_rule: str | None, argument: str | bool | None, *, literal: bool
) -> frozenset[str]:
    """A sink's leaves narrowed by its argument rule; unchanged when the argument is unknown."""
    if arg_rule is None or not literal:
        return leaves
    domain = RULE_DOMAIN[arg_rule]
    if arg_rule == "shell-option":
        decided = classify_shell_option(argument)
    elif isinstance(argument, bool):
        return leaves  # a boolean is not a mode or a query: nothing to narrow
    elif arg_rule == "open-mode":
        decided = classify_open_mode(argument)
    else:
        decided = classify_sql(argument)
    return (leaves - domain) | decided
