"""Verify code against what a server actually advertises (a catalog or a live snapshot).

Descriptions and annotations read from the code can differ from what clients receive (computed
at run time, patched after registration, or a different build). With `--surface FILE` the tool
list, descriptions and annotations come from the advertised surface; the code supplies only the
handlers, matched by tool name. An advertised tool with no registration in the code is
UNANALYZABLE (its code was not found), never OK.
"""

from __future__ import annotations

import copy

from toolwitness.code.analyse import CodeAnalysis
from toolwitness.code.coverage import NOT_IN_CODE
from toolwitness.code.declared import DeclaredFrom
from toolwitness.code.specs import ToolSpec
from toolwitness.code.verify import verify_tools
from toolwitness.model import ServerSurface
from toolwitness.plainclass import replace


def against_surface(
    analysis: CodeAnalysis, surface: ServerSurface, mode: DeclaredFrom = DeclaredFrom.BOTH
) -> CodeAnalysis:
    """A new analysis whose tools are the surface's, with handlers from the code."""
    by_name = {spec.name: spec for spec in analysis.tools}
    specs: list[ToolSpec] = []
    for tool in surface.tools:
        found = by_name.get(tool.name)
        if found is None:
            problems = [NOT_IN_CODE]
            if analysis.gaps:  # what the analysis could not follow, where the tool may be
                problems.append("not followed: " + "; ".join(analysis.gaps[:3]))
            spec = ToolSpec(tool.name, "-", 0, 0, "advertised", problems=problems)
        else:
            spec = copy.copy(found)
            spec.problems = list(found.problems)
        spec.description = tool.description
        spec.title = tool.title
        spec.annotations = dict(tool.annotations) if tool.annotations is not None else None
        spec.input_schema = dict(tool.input_schema)
        specs.append(spec)
    advertised = {tool.name for tool in surface.tools}
    notes = list(analysis.notes)
    notes += [
        f"{spec.file}:{spec.line}: tool {spec.name!r} is registered in the code but not advertised"
        for spec in analysis.tools
        if spec.name not in advertised
    ]
    specs.sort(key=lambda s: s.name)
    return replace(
        analysis,
        server_id=surface.id,
        tools=specs,
        verdicts=verify_tools(specs, analysis.graph, mode),
        notes=notes,
        advertised=surface,
    )
