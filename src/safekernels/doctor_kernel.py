"""The tiny SIMT kernel `safekernels doctor` compiles and runs as its smoke test.

It lives in its own module because codegen reads kernel source with `inspect`, which needs a real file, and
because importing it is itself part of what the doctor checks (the SIMT language imports and decorates).
"""

from __future__ import annotations

from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

SMOKE_BLOCK = 128


@simt.kernel
@simt.launch_contract(block=SMOKE_BLOCK)
def doctor_axpb(x: Slice[f32], y: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := y.get_mut(idx)) is not None:
        out.set(f32(x[i] * 2.0 + 1.0))
