"""Clean twin of e0502_helper_returns_argument_or_new_buffer: the helper is handed a scratch buffer, not the
launch's input, so whichever it returns the launch writes what it does not read.

(A helper that returns its argument on one path and a new buffer on the other (`return data` when in place,
else `sk.zeros(...)`) gives the caller's argument or a new buffer: the checker follows both, so a launch reading
the argument and writing the helper's result may write what it reads (E0502, as the runtime's `AliasingError`
says when the in-place path is taken.)"""

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 64


@dataclass(frozen=True)
class Config:
    in_place: bool


@simt.kernel
@simt.launch_contract(block=64)
def scale(src: Slice[f32], dst: DisjointSlice[f32], k: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i] * k)


def output_buffer(data: sk.DeviceBuffer, cfg: Config, stream: sk.Stream) -> sk.DeviceBuffer:
    if cfg.in_place:
        return data
    return sk.zeros(N, f32, stream)


def run(dev: sk.Device, stream: sk.Stream, cfg: Config) -> np.ndarray:
    src = sk.to_device(np.ones(N, np.float32), stream)
    scratch = sk.zeros(N, f32, stream)
    dst = output_buffer(scratch, cfg, stream)
    prep = scale.prepare(simt.LaunchConfig1D.for_len(N, block=64), dev)
    scale.launch(prep, stream, src, dst, 2.0)
    return dst.to_numpy(stream)


def main() -> None:
    dev = sk.Device.cpu()
    print(run(dev, dev.new_stream(), Config(in_place=True))[:2])


if __name__ == "__main__":
    main()
