"""The imports a module makes and a registration names, for following dependencies.

`module_imports`: every import specifier a module's bindings, exports and uses hold (ES
imports, `require`, re-exports, Python imports). `referenced_imports`: the bare imports a
registration's values name — directly, through local bindings, through the functions a list
handler returns from, or through a local module's exports — bounded walks, nothing resolved
beyond names. `relative_targets`: the files inside a package a module's relative imports load.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterator
from pathlib import Path

from toolwitness.code import ir
from toolwitness.code.helpers import names_in, reg_values
from toolwitness.code.npm_packages import _existing
from toolwitness.code.project import Project

_MAX_VALUES = 4_000_000  # values walked per module (at most its syntax nodes anyway)
_MAX_STEPS = 2_000  # bindings followed from one registration


def _imports_in(value: ir.Value, budget: list[int]) -> Iterator[ir.Import]:
    todo: list[ir.Value] = [value]
    while todo and budget[0] > 0:
        budget[0] -= 1
        current = todo.pop()
        if isinstance(current, ir.Import):
            yield current
        elif isinstance(current, ir.Member):
            todo.append(current.base)
        elif isinstance(current, ir.Call):
            todo += [current.callee, *current.args, *(v for _, v in current.kwargs)]
        elif isinstance(current, ir.Obj):
            todo += [*(v for _, v in current.items), *current.spreads]
        elif isinstance(current, ir.Arr):
            todo += list(current.items)
        elif isinstance(current, ir.Concat | ir.Choice):
            todo += list(current.parts if isinstance(current, ir.Concat) else current.options)
        elif isinstance(current, ir.Spread):
            todo.append(current.value)


def all_imports(module: ir.Module) -> list[ir.Import]:
    budget = [_MAX_VALUES]
    found: list[ir.Import] = list(module.star_exports)
    values: list[ir.Value] = [v for s in module.scopes.values() for vs in s.bindings.values()
                              for v in vs]  # fmt: skip
    values += [v for vs in module.exports.values() for v in vs]
    functions = [*module.functions.values(), *([module.top] if module.top else [])]
    values += [u.target for fn in functions for u in fn.uses]
    for value in values:
        found += _imports_in(value, budget)
    return found


def module_imports(module: ir.Module) -> set[str]:
    """Bare specifiers (JavaScript) or absolute module names (Python) the module imports."""
    out: set[str] = set()
    for imp in all_imports(module):
        if module.language == "py":
            if imp.level == 0 and imp.module:
                out.add(imp.module)
        elif not imp.module.startswith((".", "/")):
            out.add(imp.module)
    return out


def referenced_imports(project: Project, reg: ir.Registration) -> list[tuple[str, str]]:
    """(importing module key, specifier) of the imports a registration's values reach."""
    todo: list[ir.Value] = list(reg_values(reg))
    out: list[tuple[str, str]] = []
    seen: set[ir.Value] = set()
    steps = 0
    while todo and steps < _MAX_STEPS:
        value = todo.pop()
        steps += 1
        if value in seen:
            continue
        seen.add(value)
        if isinstance(value, ir.FuncRef):  # a list handler: what it returns
            fn = project.functions.get(value.func_id)
            todo += fn.returns if fn is not None else []
            continue
        for imp in _imports_in(value, [256]):
            todo.append(imp)
        if isinstance(value, ir.Import):
            out += _import_target(project, value, todo)
            continue
        for name in names_in(value):
            bound = _lookup(project, name)
            todo += bound
    return out


def _import_target(project: Project, imp: ir.Import, todo: list[ir.Value]) -> list[tuple[str, str]]:
    module = project.modules.get(imp.from_file)
    if module is None:
        return []
    if module.language == "py":
        key = project.resolve_py(imp.from_file, imp.module, imp.level)
        if key is None and imp.level == 0:
            return [(imp.from_file, imp.module)]
        if key is not None and imp.path:
            todo += project.modules[key].scopes[key].bindings.get(imp.path[0], [])
        return []
    key = project.resolve_js(imp.from_file, imp.module)
    if key is None:
        return [] if imp.module.startswith((".", "/")) else [(imp.from_file, imp.module)]
    target = project.modules[key]
    if imp.path:
        todo += target.exports.get(imp.path[0], [])
    todo += target.star_exports
    return []


def _lookup(project: Project, name: ir.Name) -> list[ir.Value]:
    current: str | None = name.scope
    while current is not None:
        scope = project.scopes.get(current)
        if scope is None:
            return []
        if name.path[0] in scope.bindings:
            return list(scope.bindings[name.path[0]])
        current = scope.parent
    return []


def relative_targets(module: ir.Module, package: Path, rel: str) -> list[str]:
    """Files of the package (relative paths) the module's relative imports load."""
    out: list[str] = []
    folder = posixpath.dirname(rel)
    for imp in all_imports(module):
        if not imp.module.startswith("."):
            continue
        target = posixpath.normpath(posixpath.join(folder, imp.module))
        found = _existing(package, target, exact=False)
        if found is not None and found not in out:
            out.append(found)
    return out
