"""A session's `__init__` stores the buses a module helper allocates, `dict.fromkeys(BUS_NAMES, sk.zeros(...))`:
one buffer under every bus name.  `split` then passes `self.buses["left"]` and `self.buses["right"]` as the two
outputs of one launch (E0499, as the runtime's `AliasingError` says).  What `__init__` stores from a helper whose
one `return` builds such a container is read as that container, as when `__init__` writes it itself."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BUS_NAMES = ("left", "right")
N = 64


@simt.kernel
@simt.launch_contract(block=32)
def deinterleave(frames: Slice[f32], left: DisjointSlice[f32], right: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (lo := left.get_mut(idx)) is not None:
        lo.set(frames[2 * i])
    again = thread.index_1d()
    if (ro := right.get_mut(again)) is not None:
        ro.set(frames[2 * i + 1])


def allocate_buses(n: int, stream: sk.Stream) -> dict[str, sk.DeviceBuffer]:
    return dict.fromkeys(BUS_NAMES, sk.zeros(n, f32, stream))


class StereoSession:
    def __init__(self, dev: sk.Device, stream: sk.Stream, interleaved: np.ndarray) -> None:
        self.stream = stream
        self.frames = sk.to_device(interleaved.astype(np.float32), stream)
        self.buses = allocate_buses(N, stream)
        self.launch = deinterleave.prepare(simt.LaunchConfig1D.for_len(N, block=32), dev)

    def split(self) -> None:
        deinterleave.launch(self.launch, self.stream, self.frames, self.buses["left"], self.buses["right"])  # expect: E0499


def main() -> None:
    dev = sk.Device.cpu()
    session = StereoSession(dev, dev.new_stream(), np.arange(2 * N, dtype=np.float32))
    session.split()
    print(session.buses["left"].to_numpy(session.stream)[:4])


if __name__ == "__main__":
    main()
