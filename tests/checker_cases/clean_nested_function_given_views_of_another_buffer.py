"""A smoothing pass defines a nested `blend` that writes the captured `out` and reads the halves it is given.
The caller hands it views of `src` only (`src.view(32, 64)`), never of `out`, so the launch reads one buffer and
writes another: clean."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 64


@simt.kernel
@simt.launch_contract(block=32)
def mix(a: Slice[f32], b: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prepared = mix.prepare(simt.LaunchConfig1D.for_len(N // 2, block=32), dev)
    src = sk.to_device(np.ones(N, np.float32), stream)
    out = sk.zeros(N, f32, stream)

    def blend(left: sk.DeviceBuffer, right: sk.DeviceBuffer) -> None:
        mix.launch(prepared, stream, left, right, out)

    blend(src.view(0, 32), src.view(32, 64))
    blend(src.view(32, 64), src.view(0, 32))
    print(out.to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
