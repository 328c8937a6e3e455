"""Bindings from JS/TS patterns: destructuring (`const { a, b: { c } } = v`) binds each name to
the member it reads; `for (const x of xs)` binds x to an element of xs, `for (k in o)` to a key."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tree_sitter import Node

from toolwitness.code import ir
from toolwitness.code.frontends.js_values import param_names, property_name, text, value_of

if TYPE_CHECKING:
    from toolwitness.code.frontends.js import _Builder


def bind_pattern(b: _Builder, target: Node, value: ir.Value | None, fn: ir.Function) -> None:
    scope = b.scope(fn.id)
    if target.type == "identifier":
        scope.bind(text(target), value if value is not None else ir.Lit(None))
        return
    if target.type == "object_pattern":
        for prop in target.named_children:
            if prop.type == "shorthand_property_identifier_pattern":
                member = ir.Member(value, (text(prop),)) if value is not None else None
                scope.bind(text(prop), member or ir.Opaque("pattern"))
            elif prop.type == "pair_pattern":
                key = property_name(prop.child_by_field_name("key")) or ir.COMPUTED
                inner = prop.child_by_field_name("value")
                if inner is not None:
                    sub = ir.Member(value, (key,)) if value is not None else None
                    bind_pattern(b, inner, sub, fn)
            elif prop.type == "object_assignment_pattern":
                left = prop.child_by_field_name("left")
                if left is not None:
                    sub = ir.Member(value, (text(left),)) if value is not None else None
                    bind_pattern(b, left, sub, fn)
            else:
                for name in param_names(prop):
                    scope.bind(name, ir.Opaque("pattern"))
        return
    for name in param_names(target):
        scope.bind(name, ir.Opaque("pattern"))


def for_in(b: _Builder, node: Node, fn: ir.Function) -> None:
    """`for (const x of xs)` binds x to an element of xs; `for (k in o)` to a key."""
    left = node.child_by_field_name("left")
    right = node.child_by_field_name("right")
    operator = node.child_by_field_name("operator")
    if right is not None:
        b.walk(right, fn)
    if left is not None and right is not None:
        of = operator is not None and text(operator) == "of"
        element: ir.Value = (
            ir.Member(value_of(right, fn.id, b.key), (ir.COMPUTED,)) if of else ir.Opaque("key")
        )
        bind_pattern(b, left, element, fn)
    body = node.child_by_field_name("body")
    if body is not None:
        b.walk(body, fn)
