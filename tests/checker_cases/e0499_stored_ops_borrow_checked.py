"""A pending `launch_async` op stored into a container keeps its loans against every borrow, not only moves: a loop
storing each request's op in a dict, every one writing the same output, is E0499 at the second iteration's launch;
a launch writing a buffer a stored op reads is E0502; a launch writing the item a loop's stored op wrote (`outs[2]`
of `for k in range(3)`) before the loop over the container runs them is E0499 (the runtime raises `BorrowError` at
each marked line); `sk.zip(*ops)` hands the stored ops' loans to the op it builds, until that op runs."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def scale(x: Slice[f32], out: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(alpha * x[i])


class BatchRunner:
    def __init__(self, n: int, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.prep = scale.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
        self.out = sk.zeros(n, f32, stream)

    def run(self, requests: dict[str, tuple[sk.DeviceBuffer, float]]) -> None:
        inflight = {}
        for name, (buf, gain) in requests.items():
            inflight[name] = scale.launch_async(self.prep, buf, self.out, gain)  # expect: E0499
        for op in inflight.values():
            op.sync_on(self.stream)


def read_while_stored(dev: sk.Device, stream: sk.Stream, n: int) -> None:
    prep = scale.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    src = sk.to_device(np.ones(n, np.float32), stream)
    dst = sk.zeros(n, f32, stream)
    other = sk.zeros(n, f32, stream)
    jobs = {}
    jobs["smooth"] = scale.launch_async(prep, src, dst, 0.5)
    scale.launch(prep, stream, other, src, 1.0)  # expect: E0502
    for op in jobs.values():
        op.sync_on(stream)


def write_item_while_stored(dev: sk.Device, stream: sk.Stream, n: int) -> None:
    prep = scale.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    src = sk.to_device(np.ones(n, np.float32), stream)
    outs = [sk.zeros(n, f32, stream) for _ in range(3)]
    ops = []
    for k in range(3):
        ops.append(scale.launch_async(prep, src, outs[k], 2.0))
    scale.launch(prep, stream, src, outs[2], 1.0)  # expect: E0499
    for op in ops:
        op.sync_on(stream)


def zipped_while_stored(dev: sk.Device, stream: sk.Stream, n: int) -> None:
    prep = scale.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    src = sk.to_device(np.ones(n, np.float32), stream)
    dst = sk.zeros(n, f32, stream)
    ops = []
    ops.append(scale.launch_async(prep, src, dst, 2.0))
    both = sk.zip(*ops)
    scale.launch(prep, stream, src, dst, 1.0)  # expect: E0499
    both.sync_on(stream)
    print(len(ops))


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    runner = BatchRunner(64, dev, stream)
    ones = sk.to_device(np.ones(64, np.float32), stream)
    ramp = sk.to_device(np.arange(64, dtype=np.float32), stream)
    runner.run({"a": (ones, 2.0), "b": (ramp, 0.5)})
    read_while_stored(dev, stream, 64)
    write_item_while_stored(dev, stream, 64)
    zipped_while_stored(dev, stream, 64)


if __name__ == "__main__":
    main()
