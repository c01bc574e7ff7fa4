"""`dict.fromkeys(keys, value)` evaluates `value` once and gives every key that one object: two pending
`launch_async` ops writing `outputs[rid]` for two keys write one buffer (the runtime raises `BorrowError` at the
marked line in the loop's second iteration), and `dict.fromkeys(["x", "y"], c)["y"]` is `c` itself."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def scale(src: Slice[f32], out: DisjointSlice[f32]) -> None:
    i = thread.index_1d().get()
    if (o := out.get_mut(thread.index_1d())) is not None:
        o.set(src[i] * 2.0)


def submit_all(requests: list[str], src: sk.DeviceBuffer, prepared: simt.PreparedLaunch, stream: sk.Stream) -> None:
    outputs = dict.fromkeys(requests, sk.zeros(64, f32, stream))
    inflight = []
    for rid in requests:
        inflight.append(scale.launch_async(prepared, src, outputs[rid]))  # expect: E0499
    for op in inflight:
        op.sync_on(stream)


def inline(src: sk.DeviceBuffer, prepared: simt.PreparedLaunch, stream: sk.Stream) -> None:
    c = sk.zeros(64, f32, stream)
    p = scale.launch_async(prepared, src, c)
    scale.launch(prepared, stream, src, dict.fromkeys(["x", "y"], c)["y"])  # expect: E0499
    p.sync_on(stream)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    src = sk.to_device(np.arange(64, dtype=np.float32), stream)
    prepared = scale.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    for run in (
        lambda: submit_all(["a", "b"], src, prepared, stream),
        lambda: inline(src, prepared, stream),
    ):
        try:
            run()
        except sk.BorrowError as err:
            print("BorrowError:", err)
