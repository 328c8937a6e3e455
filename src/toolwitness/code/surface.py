"""A package that never ran, as a `ServerSurface` (coverage `package`) built from its code.

The registrations IR already carries each tool's name, title, description (or docstring),
annotations and — for low-level `ListTools` handlers — a JSON Schema literal. Input schemas
written as zod shapes are converted by `code.zod_schema`. What could not be recovered is said
per tool, so a reader knows which metadata checks saw a gap rather than a clean field.
"""

from __future__ import annotations

from toolwitness.code.analyse import CodeAnalysis
from toolwitness.code.specs import ToolSpec
from toolwitness.code.zod_schema import schema_for_spec
from toolwitness.model import Coverage, PackageRef, ServerSurface, Tool
from toolwitness.plainclass import plainclass

_DEFAULT_SCHEMA = {"type": "object"}


@plainclass(frozen=True)
class ExtractedSurface:
    surface: ServerSurface
    unrecovered: tuple[str, ...]  # "tool NAME: inputSchema not recovered (…)", sorted


def _tool(spec: ToolSpec, analysis: CodeAnalysis, gaps: list[str]) -> Tool:
    schema = spec.input_schema
    if schema == _DEFAULT_SCHEMA:
        converted, why = schema_for_spec(spec, analysis.project, analysis.graph.resolver)
        if converted is not None:
            schema = converted
            if why:
                gaps.append(f"tool {spec.name}: inputSchema partly recovered ({why})")
        elif why:
            gaps.append(f"tool {spec.name}: inputSchema not recovered ({why})")
    if spec.description is None:
        gaps.append(f"tool {spec.name}: description not recovered")
    gaps += [f"tool {spec.name}: {problem}" for problem in spec.problems if "annotation" in problem]
    return Tool(
        name=spec.name,
        title=spec.title,
        description=spec.description,
        inputSchema=schema,
        annotations=spec.annotations,
    )


def package_surface(
    analysis: CodeAnalysis, server_id: str, package: PackageRef | None = None
) -> ExtractedSurface:
    """The surface the package's code declares; `server_id` also names its source."""
    gaps: list[str] = []
    tools = tuple(_tool(spec, analysis, gaps) for spec in analysis.tools)
    surface = ServerSurface(
        id=server_id,
        source=server_id,
        tools=tools,
        package=package,
        coverage=(Coverage.PACKAGE,),
        notes=tuple(analysis.notes),
    )
    return ExtractedSurface(surface, tuple(sorted(set(gaps))))
