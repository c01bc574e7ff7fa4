"""A helper (or a method) returns a new buffer together with the pending `launch_async` op that writes it
(`return staged, pending`): the op still borrows the buffer at the caller, so moving the buffer into a tile
partition before running the op is E0505, as the runtime's `BorrowError` says."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def decode(raw: Slice[f32], pixels: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := pixels.get_mut(idx)) is not None:
        o.set(raw[i] * f32(0.5))


def start(prepared: simt.PreparedLaunch, raw: sk.DeviceBuffer, stream: sk.Stream) -> tuple[sk.DeviceBuffer, sk.DeviceOp]:
    staged = sk.zeros(64, f32, stream)
    pending = decode.launch_async(prepared, raw, staged)
    return staged, pending


class Loader:
    def __init__(self, prepared: simt.PreparedLaunch, stream: sk.Stream) -> None:
        self.prepared = prepared
        self.stream = stream

    def begin(self, raw: sk.DeviceBuffer) -> tuple[sk.DeviceBuffer, sk.DeviceOp]:
        staged = sk.zeros(64, f32, self.stream)
        return staged, decode.launch_async(self.prepared, raw, staged)


def run(prepared: simt.PreparedLaunch, raw: sk.DeviceBuffer, stream: sk.Stream) -> None:
    staged, pending = start(prepared, raw, stream)
    parts = staged.partition((16,))  # expect: E0505
    pending.sync_on(stream)
    print(parts.unpartition().to_numpy(stream)[:2])


def run_method(loader: Loader, raw: sk.DeviceBuffer) -> None:
    staged, pending = loader.begin(raw)
    parts = staged.partition((16,))  # expect: E0505
    pending.sync_on(loader.stream)
    print(parts.unpartition().to_numpy(loader.stream)[:2])


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prepared = decode.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    raw = sk.to_device(np.ones(64, np.float32), stream)
    run(prepared, raw, stream)


if __name__ == "__main__":
    main()
