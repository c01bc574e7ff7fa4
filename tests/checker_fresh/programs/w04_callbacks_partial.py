# fresh-expect: E0502 at line 52
# fresh-note: found since: a name bound to an item of a display of partials (or of the one list a helper returns) is that partial
"""Training callbacks registered as functools.partial objects and run after each epoch."""
from functools import partial

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def clip(x: Slice[f32], out: DisjointSlice[f32], limit: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(min(max(x[i], -limit), limit))


@simt.kernel
@simt.launch_contract(block=128)
def decay(x: Slice[f32], out: DisjointSlice[f32], factor: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(x[i] * factor)


def build_callbacks(dev: sk.Device, stream: sk.Stream, n: int) -> list:
    cfg = simt.LaunchConfig1D.for_len(n, block=128)
    return [
        partial(decay.launch, decay.prepare(cfg, dev), stream),
        partial(clip.launch, clip.prepare(cfg, dev), stream),
    ]


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    n = 256
    weights = sk.to_device(np.linspace(-3, 3, n, dtype=np.float32), stream)
    staging = sk.zeros(n, f32, stream)
    callbacks = build_callbacks(dev, stream, n)
    for _ in range(2):
        for cb in callbacks:
            cb(weights, staging, 0.99 if cb is callbacks[0] else 2.0)
            weights, staging = staging, weights
    on_end = callbacks[-1]
    on_end(weights, weights, 1.0)
    print(weights.to_numpy(stream)[:4])


if __name__ == "__main__":
    main()
