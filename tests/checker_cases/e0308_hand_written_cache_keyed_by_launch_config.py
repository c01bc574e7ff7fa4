"""A hand-written cache of prepared launches keyed by the launch configuration only: `plan(square, N, dev)`
after `plan(gain, N, dev)` finds the configuration cached and hands back the launch `gain` prepared, so `square`
launching it is a mismatch (the runtime refuses it)."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 64


@simt.kernel
@simt.launch_contract(block=32)
def gain(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(x[i] * 2.0)


@simt.kernel
@simt.launch_contract(block=32)
def square(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(x[i] * x[i])


PLANS: dict[object, simt.PreparedLaunch] = {}


def plan(kernel: simt.SimtKernel, n: int, dev: sk.Device) -> simt.PreparedLaunch:
    cfg = simt.LaunchConfig1D.for_len(n, block=32)
    if cfg not in PLANS:
        PLANS[cfg] = kernel.prepare(cfg, dev)
    return PLANS[cfg]


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    x = sk.to_device(np.ones(N, np.float32), stream)
    out = sk.zeros(N, f32, stream)
    gain.launch(plan(gain, N, dev), stream, x, out)
    square.launch(plan(square, N, dev), stream, x, out)  # expect: E0308


if __name__ == "__main__":
    main()
