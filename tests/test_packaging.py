"""What the package ships and needs: every imported third-party package is declared, py.typed."""

from __future__ import annotations

import ast
import importlib.metadata
import re
import sys
import tomllib
from typing import Any

from conftest import ROOT

SRC = ROOT / "src" / "toolwitness"
# Imports that belong to an optional extra, and the extra that declares them.
OPTIONAL = {"dask": "sweep"}


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _requirement_name(spec: str) -> str:
    match = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", spec)
    assert match, spec
    return _normal(match.group(0))


def _found_by_spec(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "find_spec"
        and len(node.args) == 1
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    )


def _imported_top_level_modules() -> dict[str, list[str]]:
    """Every absolute import in src/toolwitness (nested ones too) -> the files importing it."""
    found: dict[str, list[str]] = {}
    for path in sorted(SRC.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            elif _found_by_spec(node):
                # a package read for its data files, located without importing it
                # (`importlib.util.find_spec("confusable_homoglyphs")`): a use all the same
                names = [node.args[0].value]  # type: ignore[attr-defined]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top != "toolwitness" and top not in sys.stdlib_module_names:
                    found.setdefault(top, []).append(str(path.relative_to(ROOT)))
    return found


def _undeclared(imports: dict[str, list[str]], project: dict[str, Any]) -> list[str]:
    declared = {_requirement_name(d) for d in project["dependencies"]}
    extras = {k: {_requirement_name(d) for d in v}
              for k, v in project["optional-dependencies"].items()}  # fmt: skip
    providers = importlib.metadata.packages_distributions()
    missing = []
    for module, files in sorted(imports.items()):
        dists = {_normal(d) for d in providers.get(module, [])}
        assert dists, f"{module} (imported by {files[0]}) is not installed"
        needed = extras[OPTIONAL[module]] if module in OPTIONAL else declared
        if not dists & needed:
            missing.append(f"{module} ({', '.join(sorted(dists))}) imported by {files[0]}")
    return missing


def _project() -> dict[str, Any]:
    project: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    return project


def test_every_imported_package_is_declared() -> None:
    imports = _imported_top_level_modules()
    assert {"anyio", "httpx2", "mcp", "mcp_types", "typer", "pydantic"} <= set(imports)
    missing = _undeclared(imports, _project())
    assert not missing, "declare in pyproject.toml: " + "; ".join(missing)


def test_the_check_catches_an_undeclared_import() -> None:
    """httpcore2 is installed (httpx2 needs it) but not ours to import: the check says so."""
    missing = _undeclared({"httpcore2": ["src/toolwitness/x.py"]}, _project())
    assert missing and missing[0].startswith("httpcore2")


def test_every_declared_dependency_is_imported() -> None:
    """No dependency is declared for nothing (each one costs every user an install)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    providers = importlib.metadata.packages_distributions()
    imported_dists = {
        _normal(d) for module in _imported_top_level_modules() for d in providers.get(module, [])
    }
    unused = sorted(_requirement_name(d) for d in project["dependencies"]
                    if _requirement_name(d) not in imported_dists)  # fmt: skip
    assert not unused, unused


def test_py_typed_ships_in_the_package() -> None:
    """PEP 561: the marker sits in the package, and the wheel takes the whole package folder."""
    assert (SRC / "py.typed").is_file()
    wheel = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["hatch"]["build"]
    assert wheel["targets"]["wheel"]["packages"] == ["src/toolwitness"]
    assert "exclude" not in wheel["targets"]["wheel"]
