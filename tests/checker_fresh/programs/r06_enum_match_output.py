# fresh-expect: E0502 at line 45
"""The output buffer is chosen by an Enum read from a config dict and dispatched with `match`; the in-place mode
returns the input itself."""
import enum

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def scale(x: Slice[f32], y: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := y.get_mut(idx)) is not None:
        o.set(x[i] * alpha)


class Placement(enum.Enum):
    FRESH = "fresh"
    INPLACE = "inplace"


def output_for(mode: Placement, x: sk.DeviceBuffer, scratch: sk.DeviceBuffer) -> sk.DeviceBuffer:
    match mode:
        case Placement.INPLACE:
            return x
        case Placement.FRESH:
            return scratch
    raise ValueError(mode)


def main(cfg: dict[str, str]) -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    n = 64
    x = sk.to_device(np.ones(n, np.float32), stream)
    scratch = sk.zeros(n, f32, stream)
    out = output_for(Placement(cfg["placement"]), x, scratch)
    prepared = scale.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    scale.launch(prepared, stream, x, out, 3.0)  # BUG
    print(out.to_numpy(stream)[:2])


if __name__ == "__main__":
    main({"placement": "inplace"})
