"""A method picks a channel's output buffer by its key argument, always a buffer of its own (`return
self.clean[name]`): called with a channel's key, its result is not the raw channel the launch reads, and the
launch runs clean."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 64


@simt.kernel
@simt.launch_contract(block=64)
def remove_drift(raw: Slice[f32], drift: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(raw[i] - drift[i])


class Monitor:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.launch = remove_drift.prepare(simt.LaunchConfig1D.for_len(N, block=64), dev)
        self.raw: dict[str, sk.DeviceBuffer] = {}
        self.clean: dict[str, sk.DeviceBuffer] = {}

    def output_for(self, name: str) -> sk.DeviceBuffer:
        return self.clean[name]


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    monitor = Monitor(dev, stream)
    monitor.raw["weight"] = sk.to_device(np.full(N, 40.0, np.float32), stream)
    monitor.clean["weight"] = sk.zeros(N, f32, stream)
    drift = sk.to_device(np.full(N, 0.5, np.float32), stream)
    out = monitor.output_for("weight")
    remove_drift.launch(monitor.launch, stream, monitor.raw["weight"], drift, out)
    print(out.to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
