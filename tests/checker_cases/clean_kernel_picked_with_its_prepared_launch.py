"""The clean twin of `e0308_kernel_picked_with_its_prepared_launch`: every arm of the `match` pairs a kernel with
the launch prepared for it, and the conditional expression picks kernel and launch from the same flag, so every
launch runs with its own kernel's contract."""

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 64


@simt.kernel
@simt.launch_contract(block=32)
def pluck(amp: Slice[f32], out: DisjointSlice[f32], force: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(amp[i] + force)


@simt.kernel
@simt.launch_contract(block=32)
def harmonic(amp: Slice[f32], out: DisjointSlice[f32], node: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(amp[i] * node)


def play(score: list[tuple[str, float, int]]) -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    cfg = simt.LaunchConfig1D.for_len(N, block=32)
    plans = {"pluck": pluck.prepare(cfg, dev), "harmonic": harmonic.prepare(cfg, dev)}
    amp = sk.to_device(np.ones(N, np.float32), stream)
    out = sk.zeros(N, f32, stream)
    for articulation, value, octave in score:
        match articulation:
            case "pluck":
                kernel, plan = pluck, plans["pluck"]
            case "harmonic" if octave >= 3:
                kernel, plan = harmonic, plans["harmonic"]
            case _:
                continue
        kernel.launch(plan, stream, amp, out, value)
        amp, out = out, amp


def once(bass: bool) -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    cfg = simt.LaunchConfig1D.for_len(N, block=32)
    amp = sk.to_device(np.ones(N, np.float32), stream)
    out = sk.zeros(N, f32, stream)
    kernel = harmonic if bass else pluck
    kernel.launch((harmonic if bass else pluck).prepare(cfg, dev), stream, amp, out, 0.5)


def main() -> None:
    play([("pluck", 0.9, 2), ("harmonic", 0.5, 4)])
    once(True)
    once(False)


if __name__ == "__main__":
    main()
