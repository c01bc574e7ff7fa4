"""A position book keeps its columns in a dict and converts notionals in place when configured to: the
`converted_target` property returns `self.cols["notional"]` itself (or a new column sized by `len(self)`), and
`to_base` reads the input through `self["notional"]` (`__getitem__`).  Both are the one column, so the launch reads
and writes it (E0502, as the runtime's `BorrowError` says)."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 64


@simt.kernel
@simt.launch_contract(block=32)
def fx_convert(notional: Slice[f32], rate: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(notional[i] * rate[i])


class Book:
    def __init__(self, dev: sk.Device, stream: sk.Stream, inplace: bool) -> None:
        self.stream = stream
        self.inplace = inplace
        self.cols = {
            "notional": sk.to_device(np.ones(N, np.float32), stream),
            "rate": sk.to_device(np.full(N, 2.0, np.float32), stream),
        }
        self.prepared = fx_convert.prepare(simt.LaunchConfig1D.for_len(N, block=32), dev)

    def __len__(self) -> int:
        return N

    def __getitem__(self, name: str) -> sk.DeviceBuffer:
        return self.cols[name]

    @property
    def converted_target(self) -> sk.DeviceBuffer:
        if self.inplace:
            return self.cols["notional"]
        return sk.zeros(len(self), f32, self.stream)

    def to_base(self) -> sk.DeviceBuffer:
        target = self.converted_target
        fx_convert.launch(self.prepared, self.stream, self["notional"], self["rate"], target)  # expect: E0502
        return target


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    print(Book(dev, stream, inplace=True).to_base().to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
