"""Each key gets its own buffer from a dict comprehension (`{rid: sk.zeros(...) for rid in requests}`), so the
pending `launch_async` ops write disjoint memory; a `dict.fromkeys` whose shared value is only read runs too
(clean twin of e0499_fromkeys_shared_value)."""

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
    outputs = {rid: sk.zeros(64, f32, stream) for rid in requests}
    inputs = dict.fromkeys(requests, src)
    inflight = []
    for rid in requests:
        inflight.append(scale.launch_async(prepared, inputs[rid], outputs[rid]))
    for op in inflight:
        op.sync_on(stream)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    src = sk.to_device(np.arange(64, dtype=np.float32), stream)
    prepared = scale.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    submit_all(["a", "b"], src, prepared, stream)
    c = sk.zeros(64, f32, stream)
    scale.launch(prepared, stream, dict.fromkeys(["x", "y"], src)["y"], c)
    print(c.to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
