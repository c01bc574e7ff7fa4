"""The twin of `e0502_dict_get_falls_back_to_input`: the fallback of `self.extras.get("dosed", ...)` is a buffer
of its own, never an input of the launch, and a local dict display that holds the key gives its item only (its
fallback is evaluated, never borrowed)."""

from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 64


@simt.kernel
@simt.launch_contract(block=64)
def dose(ec: Slice[f32], target: Slice[f32], dosed: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := dosed.get_mut(idx)) is not None:
        out.set(ec[i] + 0.5 * (target[i] - ec[i]))


@dataclass
class ZoneBuffers:
    ec: sk.DeviceBuffer
    target: sk.DeviceBuffer
    spare: sk.DeviceBuffer
    extras: dict[str, sk.DeviceBuffer] = field(default_factory=dict)

    def output(self) -> sk.DeviceBuffer:
        return self.extras.get("dosed", self.spare)


def apply(bufs: ZoneBuffers, prepared: simt.PreparedLaunch, stream: sk.Stream) -> np.ndarray:
    out = bufs.output()
    dose.launch(prepared, stream, bufs.ec, bufs.target, out)
    return out.to_numpy(stream)


def direct(ec: sk.DeviceBuffer, target: sk.DeviceBuffer, prepared: simt.PreparedLaunch, stream: sk.Stream) -> None:
    bufs = {"ec": ec, "target": target, "out": sk.zeros(N, f32, stream)}
    dose.launch(prepared, stream, bufs["ec"], bufs["target"], bufs.get("out", ec))


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prepared = dose.prepare(simt.LaunchConfig1D.for_len(N, block=64), dev)
    ec = sk.to_device(np.full(N, 1.2, np.float32), stream)
    target = sk.to_device(np.full(N, 1.8, np.float32), stream)
    bufs = ZoneBuffers(ec, target, sk.zeros(N, f32, stream))
    print(apply(bufs, prepared, stream)[:2])
    direct(ec, target, prepared, stream)


if __name__ == "__main__":
    main()
