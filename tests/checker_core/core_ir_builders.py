"""Tiny helpers to hand-build flow IR for the core's unit tests (no front end involved)."""

from __future__ import annotations

from ownership_check.core import ir
from ownership_check.diagnostics import Span


def sp(line: int, col: int = 1, width: int = 1) -> Span:
    return Span.point(line, col, width)


def P(name: str) -> ir.Place:
    return ir.Place.parse(name)


def fresh(name: str, line: int, kind: str = "value", brand: str | None = None) -> ir.Bind:
    return ir.Bind((P(name),), (ir.Fresh(kind, brand),), sp(line))


def alias(target: str, source: str, line: int) -> ir.Bind:
    return ir.Bind((P(target),), (ir.FromPlace(P(source), sp(line, 5)),), sp(line))


def move(name: str, line: int, col: int = 1, event: int = -1) -> ir.Move:
    return ir.Move(P(name), sp(line, col), help="use the values returned by `sync_on`", event=event)


def use(name: str, line: int, col: int = 1) -> ir.Use:
    return ir.Use(P(name), sp(line, col))


def borrow(
    name: str, mutable: bool, group: int, line: int, col: int = 1, holder: str | None = None
) -> ir.Borrow:
    return ir.Borrow(P(name), mutable, group, sp(line, col), P(holder) if holder else None)


def fn(*ops: ir.Op) -> ir.Function:
    return ir.Function("f", tuple(ops), sp(1), "t.py")


def blk(*ops: ir.Op) -> ir.Block:
    return tuple(ops)
