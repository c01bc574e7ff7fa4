"""Random programs over the safekernels API, for the front-end differential fuzzer.

A program is one module with a SIMT kernel (`vecadd`: two shared inputs, one disjoint output), a tile kernel (`add`:
moves its partition and both tensors) and a `main(flag, k)` whose body is a random sequence of statements over a
fixed set of places: SIMT buffers `a`, `b`, `c` and views of them, a pending SIMT launch `p`, tile tensors `x`, `y`, a
partition `z` and a pending tile launch `op`.  Statements launch (sync and async), sync, move, borrow (`to_numpy`),
take views, re-bind, swap and alias, and nest in `if`/`else`, `for`, `while`, `try`/`finally`, `try`/`except` and
`match` (with and without guards), so every construct the checker lowers is exercised in every combination.

Generation is driven by a `Chooser`: hypothesis's `draw` in the CI test (so failures shrink), a seeded
`random.Random` in the long run (`run_long.py`).  The programs are valid Python; most also type-check under mypy
and run on the CPU executor (`main` is called with both values of `flag` and a few of `k`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TypeVar

import hypothesis.strategies as st

T = TypeVar("T")

#: Picks one of the given options.
Chooser = Callable[[Sequence[T]], T]

HEADER = '''from typing import Any

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor


@simt.kernel
@simt.launch_contract(block=64)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] + b[i])


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    tx = tile.load_like(x, z)
    ty = tile.load_like(y, z)
    z.store(tx + ty)


def main(flag: bool, k: int) -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    a = sk.zeros(64, f32, stream)
    b = sk.zeros(64, f32, stream)
    c = sk.zeros(64, f32, stream)
    x = tile.ones((64,), f32)
    y = tile.ones((64,), f32)
    z = tile.zeros((64,), f32).partition((16,))
'''


_BUFFERS = ("a", "b", "c")
_VIEWS = ("a.view(0, 32)", "a.view(32, 64)", "b.view(0, 32)", "c.view(16, 48)", "c[0:32]")
_TENSORS = ("x", "y")
_SIMPLE = (
    "launch",
    "launch_view",
    "launch_async",
    "sync_p",
    "tile_launch",
    "tile_sync",
    "rebind_buffer",
    "rebind_tensor",
    "rebind_partition",
    "swap",
    "alias",
    "chained",
    "use_tensor",
    "to_numpy",
    "view",
    "literal_for",
    "with_suppress",
)
_COMPOUND = ("if", "for", "while", "try_finally", "try_except", "match", "match_guard")


class _Gen:
    def __init__(self, choose: Chooser[object], max_statements: int) -> None:
        self.choose = choose
        self.lines: list[str] = []
        self.budget = max_statements
        self.ended = False  # the block being generated ended with a jump: nothing more goes into it
        self.has_op = False  # `op` was assigned earlier in the text

    def pick(self, options: Sequence[T]) -> T:
        return self.choose(options)  # type: ignore[return-value]

    def buffer(self) -> str:
        return self.pick((*_BUFFERS, *_BUFFERS, *_VIEWS))

    def emit(self, depth: int, text: str) -> None:
        self.lines.append("    " * depth + text)

    def block(self, depth: int, loop: bool) -> None:
        count = self.pick((1, 1, 2, 3))
        for _ in range(count):
            if self.ended:
                break
            self.statement(depth, loop)
        self.ended = False

    def statement(self, depth: int, loop: bool) -> None:
        self.budget -= 1
        compound = depth < 3 and self.budget > 0 and self.pick((False, False, True))
        if compound:
            self.compound(depth, loop)
        else:
            self.simple(depth, loop)

    def simple(self, depth: int, loop: bool) -> None:
        kind = self.pick((*_SIMPLE, "break", "continue") if loop else _SIMPLE)
        emit = self.emit
        if kind == "launch":
            first, second, third = self.pick(_BUFFERS), self.pick(_BUFFERS), self.pick(_BUFFERS)
            emit(depth, f"vecadd.launch(prep, stream, {first}, {second}, {third})")
        elif kind == "launch_view":
            emit(depth, f"vecadd.launch(prep, stream, {self.buffer()}, {self.buffer()}, {self.buffer()})")
        elif kind == "launch_async":
            emit(depth, f"p = vecadd.launch_async(prep, {self.buffer()}, {self.buffer()}, {self.buffer()})")
        elif kind == "sync_p":
            emit(depth, "if p is not None:")
            emit(depth + 1, "p.sync_on(stream)")
        elif kind == "tile_launch":
            emit(depth, f"op = add(z, {self.pick(_TENSORS)}, {self.pick(_TENSORS)})")
            self.has_op = True
        elif kind == "tile_sync" and self.has_op:
            emit(depth, "z, x, y = op.sync_on(stream)")
        elif kind == "tile_sync":
            emit(depth, "print(z)")
        elif kind == "rebind_buffer":
            emit(depth, f"{self.pick(_BUFFERS)} = sk.zeros(64, f32, stream)")
        elif kind == "rebind_tensor":
            emit(depth, f"{self.pick(_TENSORS)} = tile.ones((64,), f32)")
        elif kind == "rebind_partition":
            emit(depth, "z = tile.zeros((64,), f32).partition((16,))")
        elif kind == "swap":
            first, second = self.pick((("a", "c"), ("b", "c"), ("a", "b"), ("x", "y")))
            emit(depth, f"{first}, {second} = {second}, {first}")
        elif kind == "alias":
            emit(depth, self.pick(("a = b", "c = a", "b = c", "y = x")))
        elif kind == "chained":
            emit(depth, self.pick(("a = b = sk.zeros(64, f32, stream)", "x = y = tile.ones((64,), f32)")))
        elif kind == "use_tensor":
            emit(depth, f"print({self.pick(_TENSORS)})")
        elif kind == "to_numpy":
            emit(depth, f"print({self.pick(_BUFFERS)}.to_numpy(stream))")
        elif kind == "view":
            emit(depth, f"{self.pick(_BUFFERS)} = {self.pick(_VIEWS)}")
        elif kind == "literal_for":
            out, inp = self.pick(_BUFFERS), self.pick(_BUFFERS)
            emit(depth, f"for out, inp in (({out}, {inp}), ({inp}, {self.pick(_BUFFERS)})):")
            emit(depth + 1, "vecadd.launch(prep, stream, inp, b, out)")
        elif kind == "with_suppress":
            emit(depth, "with contextlib.suppress(ValueError):")
            emit(depth + 1, f"op = add(z, {self.pick(_TENSORS)}, {self.pick(_TENSORS)})")
            self.has_op = True
            if self.pick((True, False)):
                emit(depth + 1, "return")
        elif kind == "break":
            emit(depth, "break")
            self.ended = True
        else:
            emit(depth, "continue")
            self.ended = True

    def compound(self, depth: int, loop: bool) -> None:
        kind = self.pick(_COMPOUND)
        emit = self.emit
        if kind == "if":
            emit(depth, self.pick(("if flag:", "if k > 1:", "if p is None:", "if p is not None:")))
            self.block(depth + 1, loop)
            if self.pick((True, False)):
                emit(depth, "else:")
                self.block(depth + 1, loop)
        elif kind == "for":
            emit(depth, "for _ in range(k):")
            self.block(depth + 1, True)
            if self.pick((False, False, True)):
                emit(depth, "else:")
                self.block(depth + 1, loop)
        elif kind == "while":
            counter = f"n{depth}"  # one counter per depth: a nested loop must not reset the outer one
            emit(depth, f"{counter} = 0")
            emit(depth, f"while {counter} < k:")
            emit(depth + 1, f"{counter} += 1")
            self.block(depth + 1, True)
        elif kind == "try_finally":
            emit(depth, "try:")
            self.block(depth + 1, loop)
            if self.pick((True, False)) and self.lines[-1].strip() not in ("break", "continue"):
                emit(depth + 1, "return")
            emit(depth, "finally:")
            self.block(depth + 1, loop)
        elif kind == "try_except":
            emit(depth, "try:")
            self.block(depth + 1, loop)
            emit(depth, "except RuntimeError:")
            self.block(depth + 1, loop)
        else:
            emit(depth, "match k:")
            guard = " if flag" if kind == "match_guard" else ""
            if kind == "match_guard" and self.pick((True, False)):
                guard = f" if add(z, {self.pick(_TENSORS)}, {self.pick(_TENSORS)}) is None"
            emit(depth + 1, f"case 0{guard}:")
            self.block(depth + 2, loop)
            emit(depth + 1, "case 1:")
            self.block(depth + 2, loop)
            emit(depth + 1, "case _:")
            self.block(depth + 2, loop)


def generate(choose: Chooser[object], max_statements: int = 8) -> str:
    """One program's source text."""
    gen = _Gen(choose, max_statements)
    gen.emit(1, "p: sk.DeviceOp[tuple[Any, ...]] | None = None")  # mypy narrows it on `p is not None`
    if choose((True, False)):
        gen.emit(1, "p = vecadd.launch_async(prep, a, b, c)")
    while gen.budget > 0:
        gen.statement(1, False)
    text = HEADER + "\n".join(gen.lines) + "\n"
    if "contextlib." in text:
        text = "import contextlib\n" + text
    return text


def random_program(seed: int, max_statements: int = 8) -> str:
    rng = random.Random(seed)
    return generate(lambda options: rng.choice(list(options)), max_statements)


@st.composite
def programs(draw: st.DrawFn, max_statements: int = 8) -> str:
    """The hypothesis strategy: every choice is a draw, so a failing program shrinks to a small one."""
    return generate(lambda options: draw(st.sampled_from(list(options))), max_statements)
