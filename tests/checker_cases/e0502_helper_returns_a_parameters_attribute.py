"""A helper returns its first parameter's attribute unless the caller gives an output buffer (`if out is None:
return core.widths`); called without one, its result is `core.widths` itself, so a launch reading `core.widths`
and writing the result reads and writes one buffer (E0502), as the runtime raises.  Called with a buffer of the
caller's, the guard's `return` is not reached, and the result is that buffer."""

from dataclasses import dataclass

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def detrend(raw: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(raw[i] - 1.0)


@dataclass
class Core:
    widths: sk.DeviceBuffer


def index_buffer(core: Core, out: sk.DeviceBuffer | None = None) -> sk.DeviceBuffer:
    if out is None:
        return core.widths
    return out


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = detrend.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    core = Core(sk.to_device(np.ones(64, np.float32), stream))
    spare = sk.zeros(64, f32, stream)
    detrend.launch(prep, stream, core.widths, index_buffer(core, spare))
    dest = index_buffer(core)
    detrend.launch(prep, stream, core.widths, dest)  # expect: E0502


if __name__ == "__main__":
    main()
