"""Which tools the lab calls: only those that declare read-only (or plainly read by name).

`readOnlyHint: true` is called; `readOnlyHint: false` is skipped; an unannotated tool is called
when its name starts with a read word and its derived roles hold nothing that writes, deletes,
runs or sends. `--all-tools` calls everything (the lab is disposable). Every skip says why.
"""

from __future__ import annotations

from toolwitness.checks.roles.derive import tool_roles
from toolwitness.lab.vocab import vocabulary, words
from toolwitness.model import ServerSurface


def select_tools(surface: ServerSurface, all_tools: bool) -> dict[str, str | None]:
    """Tool name -> None when it is to be called, else the reason it is skipped."""
    vocab = vocabulary()
    try:
        roles = tool_roles(surface)
    except Exception:  # the role checks fail closed elsewhere; here: no role evidence
        roles = {}
    out: dict[str, str | None] = {}
    for tool in surface.tools:
        hint = tool.hint("readOnlyHint")
        if all_tools or hint is True:
            out[tool.name] = None
        elif hint is False:
            out[tool.name] = "declares readOnlyHint false (pass --all-tools to call it anyway)"
        else:
            blocking = sorted(set(roles.get(tool.name, ())) & vocab.blocking_roles)
            first = (words(tool.name) or [""])[0]
            if blocking:
                out[tool.name] = (
                    "no readOnlyHint, and its name or description says it "
                    f"{', '.join(blocking)} (pass --all-tools to call it anyway)"
                )
            elif first not in vocab.read_name_words:
                out[tool.name] = (
                    "no readOnlyHint, and its name does not start with a read word "
                    "(pass --all-tools to call it anyway)"
                )
            else:
                out[tool.name] = None
    return out
