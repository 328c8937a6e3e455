"""Result rows the pipeline builds without validation are exactly what validation would build."""

from __future__ import annotations

from pathlib import Path

from toolwitness.pipeline import ScanOptions, scan
from toolwitness.result import ToolResult

ROOT = Path(__file__).resolve().parent.parent


def test_tool_rows_equal_their_validated_copies() -> None:
    targets = [ROOT / "examples" / "catalogs", ROOT / "tests" / "fixtures" / "real"]
    result = scan(targets, ScanOptions())
    rows = [t for s in result.servers for t in s.tools]
    assert len(rows) > 40
    for row in rows:
        again = ToolResult.model_validate(row.model_dump())
        assert again == row
        assert type(row.roles) is tuple and all(type(r) is str for r in row.roles)
        assert all(type(k) is str and type(v) is str for k, v in row.field_digests.items())
        assert row.model_dump(mode="json") == again.model_dump(mode="json")


def test_the_rows_defaults_are_the_models() -> None:
    from toolwitness.pipeline import _TOOL_RESULT_DEFAULTS

    fields = ToolResult.model_fields
    assert {n for n, f in fields.items() if not f.is_required()} == {
        *_TOOL_RESULT_DEFAULTS, "roles", "witnesses"
    }
    assert all(fields[n].get_default() is None for n in _TOOL_RESULT_DEFAULTS)
    assert fields["witnesses"].get_default(call_default_factory=True) == {}


LOWER_LAYERS = ("acquire", "checks", "code", "integrity", "lab", "report", "supply")
UPPER = ("toolwitness.pipeline", "toolwitness.cli", "toolwitness.commands")


def _imports(path: Path) -> list[str]:
    import ast

    tree = ast.parse(path.read_text("utf-8"))
    out: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            out.append(node.module)
        elif isinstance(node, ast.Import):
            out.extend(alias.name for alias in node.names)
    return out


def test_every_import_of_a_stage_points_down() -> None:
    """No stage module imports the pipeline, the CLI or a command (even lazily)."""
    src = ROOT / "src" / "toolwitness"
    offenders = [
        f"{path.relative_to(src)} imports {name}"
        for layer in LOWER_LAYERS
        for path in sorted((src / layer).rglob("*.py"))
        for name in _imports(path)
        if name.startswith(UPPER)
    ]
    offenders += [f"stage.py imports {n}" for n in _imports(src / "stage.py") if n.startswith(UPPER)]
    assert offenders == []


def test_a_stage_contributes_findings_errors_and_row_fields() -> None:
    """The one stage interface: findings are scored, errors make the scan incomplete, and the
    stage's attach step fills its fields of the row; the pipeline needs nothing else."""
    from toolwitness.model import ServerSurface, Tool
    from toolwitness.pipeline import MetadataChecks, exit_code, scan_surfaces
    from toolwitness.result import ServerResult
    from toolwitness.rules import RuleRegistry
    from toolwitness.stage import Contribution

    surface = ServerSurface(id="s", source="t", tools=(Tool(name="a", inputSchema={}),))

    class Marker:
        name = "marker"

        def __init__(self, errors: tuple[str, ...]) -> None:
            self.errors = errors

        def contribute(self, surfaces: object, rules: RuleRegistry) -> dict[str, Contribution]:
            finding = rules.finding("TW-CODE-001", tool="a", location="code:x:1", message="m")

            def attach(result: ServerResult) -> ServerResult:
                tools = tuple(t.model_copy(update={"verdict": "VIOLATION"}) for t in result.tools)
                return result.model_copy(update={"tools": tools})

            return {"s": Contribution((finding,), self.errors, attach), "other": Contribution()}

    options = ScanOptions()
    clean = scan_surfaces([surface], options).servers[0]
    marked = scan_surfaces([surface], options, [MetadataChecks(options), Marker(())]).servers[0]
    assert clean.tools[0].verdict is None and marked.tools[0].verdict == "VIOLATION"
    assert "TW-CODE-001" in [f.rule_id for f in marked.findings]
    assert marked.score is not None and clean.score is not None and marked.score < clean.score
    broken = scan_surfaces([surface], options, [Marker(("stage failed",))])
    assert broken.servers[0].errors == ("stage failed",) and exit_code(broken) == 3
