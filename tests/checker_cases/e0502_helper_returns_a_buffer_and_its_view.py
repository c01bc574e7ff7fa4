"""A helper uploads a record behind a guard band and returns the padded buffer and a view of its interior
(`return buf, buf.view(guard, guard + n)`): the caller's launch reading the padded buffer and writing the view
reads and writes overlapping memory (E0502), as the runtime raises.  The call's summary says which returned part
is a view of which."""

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

GUARD = 8


@simt.kernel
@simt.launch_contract(block=64, requires=("len(padded) >= len(white) + 8",))
def prewhiten(padded: Slice[f32], white: DisjointSlice[f32], a: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := white.get_mut(idx)) is not None:
        o.set(padded[i + 8] - a * padded[i + 7])


def stage_channel(stream: sk.Stream, record: np.ndarray, guard: int = GUARD) -> tuple[sk.DeviceBuffer, sk.DeviceBuffer]:
    buf = sk.to_device(np.concatenate([np.zeros(guard), record]).astype(np.float32), stream)
    return buf, buf.view(guard, guard + len(record))


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = prewhiten.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    padded, record = stage_channel(stream, np.ones(64))
    prewhiten.launch(prep, stream, padded, record, 0.95)  # expect: E0502


if __name__ == "__main__":
    main()
