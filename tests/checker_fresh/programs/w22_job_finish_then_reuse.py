# fresh-expect: clean
"""A background job object owns a pending launch; its output is reused once the job is finished."""
import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition


@simt.kernel
@simt.launch_contract(block=128)
def negate(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(-x[i])


@tile.kernel
def bump(out: Partition[f32]) -> None:
    out.store(out.load() + 1.0)


class Job:
    def __init__(self, prep, x: sk.DeviceBuffer[f32], out: sk.DeviceBuffer[f32]) -> None:
        self.out = out
        self.op = negate.launch_async(prep, x, out)

    def finish(self, stream: sk.Stream) -> sk.DeviceBuffer[f32]:
        self.op.sync_on(stream)
        return self.out


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    n = 256
    prep = negate.prepare(simt.LaunchConfig1D.for_len(n, block=128), dev)
    x = sk.to_device(np.arange(n, dtype=np.float32), stream)
    out = sk.zeros(n, f32, stream)
    job = Job(prep, x, out)
    print("input", x.to_numpy(stream)[:2])
    job.finish(stream)
    (parts,) = bump(out.partition((128,))).sync_on(stream)
    print(parts.to_numpy(stream)[:4])


if __name__ == "__main__":
    main()
