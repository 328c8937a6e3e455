"""Constructor parameters a dependency-injection container fills, as source and compilers write
them: `constructor(@injectAll(Token) private defs: Def[])` in TypeScript, and the decorator
calls tsc, esbuild and bun emit for it — `__decorate([__param(0, injectAll(Token))], C)`,
`__decorateClass([__decorateParam(0, …)], C)`, `__legacyDecorateClassTS([__legacyDecorateParamTS(
0, …)], C)`. The parameter is bound to `ir.Injected(token, many)`; the container's registrations
give it a value at resolution time (code/injection.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tree_sitter import Node

from toolwitness.code import ir
from toolwitness.code.frontends.js_values import text, value_of
from toolwitness.code.injection_data import injection_names

if TYPE_CHECKING:
    from toolwitness.code.frontends.js import _Builder

PendingInjection = tuple[ir.Name, int, ir.Injected]  # (class name, parameter index, value)


def _called(value: ir.Value) -> str | None:
    callee = value.callee if isinstance(value, ir.Call) else None
    return callee.path[-1] if isinstance(callee, ir.Name) else None


def injected(decorator: ir.Value) -> ir.Injected | None:
    """`inject(Token)` / `injectAll(Token, …)` -> what the parameter receives."""
    kind = injection_names().inject.get(_called(decorator) or "")
    if kind is None or not isinstance(decorator, ir.Call) or not decorator.args:
        return None
    return ir.Injected(decorator.args[0], kind == "many")


def compiled_injections(builder: _Builder, value: ir.Value) -> None:
    """A class-decorating call whose decorator array holds parameter decorators."""
    if not isinstance(value, ir.Call) or len(value.args) < 2:
        return
    target = value.args[-1]
    if not isinstance(target, ir.Name) or len(target.path) != 1:
        return
    helpers = injection_names().parameter_decorators
    for array in value.args:
        for item in array.items if isinstance(array, ir.Arr) else ():
            if _called(item) not in helpers or not isinstance(item, ir.Call):
                continue
            if len(item.args) < 2 or not isinstance(item.args[0], ir.Lit):
                continue
            index, found = item.args[0].value, injected(item.args[1])
            if isinstance(index, int) and not isinstance(index, bool) and found is not None:
                builder.pending_injections.append((target, index, found))


def decorated_parameters(builder: _Builder, params: Node, fn: ir.Function) -> None:
    """TypeScript parameter decorators on a constructor (or any function) parameter."""
    if params.type == "identifier":
        return
    for param in params.named_children:
        pattern = param.child_by_field_name("pattern")
        if pattern is None or pattern.type != "identifier":
            continue
        for child in param.named_children:
            if child.type != "decorator" or not child.named_child_count:
                continue
            found = injected(value_of(child.named_children[0], fn.id, builder.key))
            if found is None:
                continue
            _bind(builder, fn, text(pattern), found)
            field = any(c.type == "accessibility_modifier" for c in param.named_children)
            if field and builder.classes:  # `private defs`: also a field of the class
                attrs = builder.classes[-1].attrs.setdefault(text(pattern), [])
                attrs.append(ir.Name((text(pattern),), fn.id))


def apply_pending(builder: _Builder) -> None:
    """Bind each compiled injection to the parameter of the class's constructor it names."""
    for target, index, found in builder.pending_injections:
        for cls in _classes_named(builder, target):
            ctor = builder.module.functions.get(cls.methods.get("constructor", ""))
            if ctor is not None and 0 <= index < len(ctor.params):
                _bind(builder, ctor, ctor.params[index], found)


def _classes_named(builder: _Builder, name: ir.Name) -> list[ir.ClassDef]:
    scope: str | None = name.scope
    while scope is not None:
        bound = builder.module.scopes[scope].bindings.get(name.path[0])
        if bound is not None:
            refs = [b.class_id for b in bound if isinstance(b, ir.ClassRef)]
            return [builder.module.classes[c] for c in refs if c in builder.module.classes]
        scope = builder.module.scopes[scope].parent
    return []


def _bind(builder: _Builder, fn: ir.Function, name: str, found: ir.Injected) -> None:
    bindings = builder.module.scopes[fn.id].bindings
    kept = [v for v in bindings.get(name, []) if not isinstance(v, ir.Opaque) and v != found]
    bindings[name] = [*kept, found]
