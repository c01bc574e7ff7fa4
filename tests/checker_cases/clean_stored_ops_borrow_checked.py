"""The clean twin of `e0499_stored_ops_borrow_checked`: each request's stored op writes its own output; ops stored
in a loop, each writing its own item (`outs[k]`), are run by a loop over the container (`for op in ops`,
`for name, op in jobs.items()`, a comprehension over `jobs.values()`) or by `sk.zip(*ops)` before a launch writes
those buffers again, while the container stays in use (`sk.zip(*ops).sync_on(stream)` runs the ops it takes);
a container cleared after its ops run takes new ops."""

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
        self.n = n
        self.prep = scale.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)

    def run(self, requests: dict[str, tuple[sk.DeviceBuffer, float]]) -> dict[str, sk.DeviceBuffer]:
        inflight = {}
        outputs = {}
        for name, (buf, gain) in requests.items():
            outputs[name] = sk.zeros(self.n, f32, self.stream)
            inflight[name] = scale.launch_async(self.prep, buf, outputs[name], gain)
        for op in inflight.values():
            op.sync_on(self.stream)
        return outputs


def run_then_rewrite(dev: sk.Device, stream: sk.Stream, n: int) -> None:
    prep = scale.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    src = sk.to_device(np.ones(n, np.float32), stream)
    outs = [sk.zeros(n, f32, stream) for _ in range(3)]
    ops = []
    for k in range(3):
        ops.append(scale.launch_async(prep, src, outs[k], 2.0))
    for op in ops:
        op.sync_on(stream)
    scale.launch(prep, stream, src, outs[0], 1.0)
    jobs = {}
    for k, name in enumerate(["x", "y", "z"]):
        jobs[name] = scale.launch_async(prep, src, outs[k], 2.0)
    for _, op in jobs.items():
        op.sync_on(stream)
    scale.launch(prep, stream, src, outs[1], 1.0)
    later = {}
    for k, name in enumerate(["x", "y", "z"]):
        later[name] = scale.launch_async(prep, src, outs[k], 3.0)
    done = [op.sync_on(stream) for op in later.values()]
    scale.launch(prep, stream, src, outs[2], 1.0)
    batch = []
    for out in outs:
        batch.append(scale.launch_async(prep, src, out, 4.0))
    sk.zip(*batch).sync_on(stream)
    scale.launch(prep, stream, src, outs[0], 1.0)
    print(len(ops), len(jobs), len(done), len(batch))


def clear_then_reuse(dev: sk.Device, stream: sk.Stream, n: int) -> None:
    prep = scale.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    src = sk.to_device(np.ones(n, np.float32), stream)
    out = sk.zeros(n, f32, stream)
    ops = []
    for _ in range(2):
        ops.append(scale.launch_async(prep, src, out, 2.0))
        for op in ops:
            op.sync_on(stream)
        ops.clear()
    scale.launch(prep, stream, src, out, 1.0)
    print(len(ops))


def zip_then_rewrite(dev: sk.Device, stream: sk.Stream, n: int) -> None:
    prep = scale.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    src = sk.to_device(np.ones(n, np.float32), stream)
    dst = sk.zeros(n, f32, stream)
    ops = []
    ops.append(scale.launch_async(prep, src, dst, 2.0))
    sk.zip(*ops).sync_on(stream)
    scale.launch(prep, stream, src, dst, 1.0)
    print(len(ops))


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    runner = BatchRunner(64, dev, stream)
    ones = sk.to_device(np.ones(64, np.float32), stream)
    ramp = sk.to_device(np.arange(64, dtype=np.float32), stream)
    print(len(runner.run({"a": (ones, 2.0), "b": (ramp, 0.5)})))
    run_then_rewrite(dev, stream, 64)
    clear_then_reuse(dev, stream, 64)
    zip_then_rewrite(dev, stream, 64)


if __name__ == "__main__":
    main()
