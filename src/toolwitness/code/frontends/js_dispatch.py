"""Dispatch in JS/TS handlers: switch cases and `if (name === "x")` arms become branches whose
labels may be tool names, so each tool reaches only its own arm."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tree_sitter import Node

from toolwitness.code import ir
from toolwitness.code.frontends.js_values import text, unwrap, value_of

if TYPE_CHECKING:
    from toolwitness.code.frontends.js import _Builder


def branch(b: _Builder, node: Node, labels: tuple[ir.Value, ...], fn: ir.Function) -> ir.Function:
    sub = b.new_function(node, f"{fn.name}#branch", fn)
    fn.children.remove(sub.id)
    fn.branches.append(ir.Branch(labels, sub.id))
    return sub


def switch(b: _Builder, node: Node, fn: ir.Function) -> None:
    value = node.child_by_field_name("value")
    if value is not None:
        b.walk(value, fn)
    body = node.child_by_field_name("body")
    pending: list[ir.Value] = []
    for case in body.named_children if body is not None else []:
        if case.type not in ("switch_case", "switch_default"):
            continue
        label = case.child_by_field_name("value")
        statements = [c for c in case.named_children if c != label and c.type != "comment"]
        if label is not None:
            pending.append(value_of(label, fn.id, b.key))
            b.walk(label, fn)
        if not statements:
            continue  # an empty case falls through to the next one: same branch
        labels = tuple(pending) if label is not None else ()
        sub = branch(b, case, labels, fn)
        for statement in statements:
            b.walk(statement, sub)
        pending = []


def if_statement(b: _Builder, node: Node, fn: ir.Function) -> None:
    condition = node.child_by_field_name("condition")
    consequence = node.child_by_field_name("consequence")
    alternative = node.child_by_field_name("alternative")
    labels: tuple[ir.Value, ...] = ()
    if condition is not None:
        b.walk(condition, fn)
        cond = unwrap(condition)
        op = cond.child_by_field_name("operator") if cond.type == "binary_expression" else None
        if op is not None and text(op) in ("===", "=="):
            labels = (
                value_of(cond.child_by_field_name("left"), fn.id, b.key),
                value_of(cond.child_by_field_name("right"), fn.id, b.key),
            )
    if consequence is not None:
        target = branch(b, consequence, labels, fn) if labels else fn
        b.walk(consequence, target)
    if alternative is not None:
        b.walk(alternative, fn)
