# fresh-expect: clean
"""A banded sparse mat-vec: the output is split in two halves computed by two launches reading the same x."""
import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def band_rows(diag: Slice[f32], x: Slice[f32], y: DisjointSlice[f32], row0: int) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := y.get_mut(idx)) is not None:
        r = i + row0
        acc = diag[r] * x[r]
        if r > 0:
            acc += f32(-0.5) * x[r - 1]
        o.set(acc)


def spmv(dev: sk.Device, stream: sk.Stream, diag: sk.DeviceBuffer[f32], x: sk.DeviceBuffer[f32], n: int) -> sk.DeviceBuffer[f32]:
    y = sk.zeros(n, f32, stream)
    half = n // 2
    top, bottom = y.split_at(half)
    prep_top = band_rows.prepare(simt.LaunchConfig1D.for_len(half, block=128), dev)
    prep_bottom = band_rows.prepare(simt.LaunchConfig1D.for_len(n - half, block=128), dev)
    pending = band_rows.launch_async(prep_top, diag, x, top, 0)
    band_rows.launch(prep_bottom, stream, diag, x, bottom, half)
    pending.sync_on(stream)
    return y


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    n = 512
    diag = sk.to_device(np.full(n, 2.0, dtype=np.float32), stream)
    x = sk.to_device(np.ones(n, dtype=np.float32), stream)
    y = spmv(dev, stream, diag, x, n)
    print(y.to_numpy(stream)[:3], x.to_numpy(stream)[:1])


if __name__ == "__main__":
    main()
