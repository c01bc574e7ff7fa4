"""Seeded random flow-IR functions: dense in aliasing, views, loops, loans and moves, for the core's snapshot.

Real lowered code rarely reaches the analysis' corners (many path worlds, loans held across loops, views of
reborn objects); these functions do, so the snapshot pins the core's behaviour there too.  Deterministic for a
given seed; the shapes are arbitrary, only well-formedness matters (every `Break`/`Continue` is inside a loop).
"""

from __future__ import annotations

import random

from ownership_check.core import ir
from ownership_check.diagnostics import Span

_ROOTS = ("a", "b", "c", "d", "p", "q", "op", "e", "t")
_ATTRS = ("self.out", "self.inp")


class _Gen:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.line = 0
        self.group = 0
        self.event = 0

    def span(self) -> ir.Span:
        self.line += 1
        col = self.rng.randint(1, 30)
        return Span(self.line, col, self.line, col + 3)

    def place(self) -> ir.Place:
        if self.rng.random() < 0.1:
            return ir.Place.parse(self.rng.choice(_ATTRS))
        return ir.Place(self.rng.choice(_ROOTS))

    def value(self) -> ir.Value:
        r = self.rng.random()
        if r < 0.45:
            return ir.FromPlace(self.place(), self.span())
        kind = self.rng.choice(("value", "value", "prepared", "op", "elem", "shared_array"))
        brand = self.rng.choice(("k1", "k2")) if kind == "prepared" else None
        return ir.Fresh(kind, brand)

    def simple(self) -> list[ir.Op]:
        rng = self.rng
        r = rng.random()
        if r < 0.22:
            n = rng.choice((1, 1, 1, 2, 3))
            targets = tuple(self.place() for _ in range(n))
            return [ir.Bind(targets, tuple(self.value() for _ in range(n)), self.span())]
        if r < 0.32:
            region: ir.Region
            k = rng.random()
            if k < 0.4:
                start = rng.randint(0, 8)
                region = ir.Range(start, rng.choice((None, start + rng.randint(1, 8))))
            elif k < 0.8:
                region = ir.Half(rng.randint(0, 3), rng.randint(0, 1))
            else:
                region = ir.Whole()
            return [ir.View(self.place(), self.place(), region, self.span())]
        if r < 0.5:
            self.group += 1
            holder = ir.Place(rng.choice(("op", "e", "h"))) if rng.random() < 0.35 else None
            out: list[ir.Op] = [
                ir.Borrow(self.place(), rng.random() < 0.5, self.group, self.span(), holder)
                for _ in range(rng.randint(1, 3))
            ]
            if holder is not None and rng.random() < 0.8:
                kind = "op" if holder.root != "e" else "elem"
                out.append(ir.Bind((holder,), (ir.Fresh(kind),), self.span()))
            return out
        if r < 0.62:
            self.event += 1
            event = self.event if rng.random() < 0.5 else -1
            return [
                ir.Move(self.place(), self.span(), rng.choice((None, "use the values")), event)
                for _ in range(rng.randint(1, 2))
            ]
        if r < 0.8:
            return [ir.Use(self.place(), self.span(), rng.random() < 0.2)]
        if r < 0.85:
            return [ir.Del(self.place(), self.span())]
        if r < 0.92:
            return [ir.CheckBrand(self.place(), rng.choice(("k1", "k2")), self.span(), self.span())]
        return [ir.RequireUnsafe("shared_array", self.span())]

    def block(self, depth: int, in_loop: bool, size: int) -> ir.Block:
        ops: list[ir.Op] = []
        for _ in range(size):
            r = self.rng.random()
            if depth < 3 and r < 0.1:
                arms = tuple(self.block(depth + 1, in_loop, self.rng.randint(0, 4)) for _ in range(2))
                ops.append(ir.Branch(arms, self.span()))
            elif depth < 3 and r < 0.18:
                infinite = self.rng.random() < 0.15
                head = self.block(3, False, self.rng.randint(0, 2))
                body = list(self.block(depth + 1, True, self.rng.randint(1, 5)))
                if infinite:
                    body.append(ir.Branch(((ir.Break(self.span()),), ()), self.span()))
                orelse = self.block(depth + 1, in_loop, self.rng.randint(0, 1))
                ops.append(ir.Loop(head, tuple(body), orelse, self.span(), infinite))
            elif depth < 3 and r < 0.21:
                handlers = tuple(
                    self.block(depth + 1, in_loop, self.rng.randint(0, 2)) for _ in range(self.rng.randint(0, 2))
                )
                ops.append(
                    ir.Try(
                        self.block(depth + 1, in_loop, self.rng.randint(1, 3)),
                        handlers,
                        self.block(depth + 1, in_loop, self.rng.randint(0, 1)),
                        self.block(depth + 1, in_loop, self.rng.randint(0, 1)),
                        self.span(),
                    )
                )
            elif depth < 3 and r < 0.24:
                ops.append(ir.Unsafe(self.block(depth + 1, in_loop, self.rng.randint(1, 3)), self.span()))
            elif r < 0.25 and in_loop:
                jump = ir.Break(self.span()) if self.rng.random() < 0.5 else ir.Continue(self.span())
                ops.append(ir.Branch(((jump,), ()), self.span()))
            elif r < 0.26:
                end = ir.Return(self.span()) if self.rng.random() < 0.5 else ir.Raise(self.span())
                ops.append(ir.Branch(((end,), ()), self.span()))
            else:
                ops.extend(self.simple())
        return tuple(ops)


def random_function(seed: int) -> ir.Function:
    gen = _Gen(seed)
    body = gen.block(0, False, gen.rng.randint(5, 40))
    return ir.Function(f"fuzz_{seed}", body, Span(1, 1, gen.line + 1, 1), f"fuzz_{seed}.py")
