# fresh-expect: clean
"""An encoder keeps keys and values in one allocation and addresses them through views."""
import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def project(src: Slice[f32], dst: DisjointSlice[f32], w: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i] * w)


def encode(dev: sk.Device, stream: sk.Stream, kv: sk.DeviceBuffer[f32], w: float) -> None:
    n = len(kv)
    h = n // 2
    keys = kv.view(0, h)
    values = kv.view(h, n)
    prep = project.prepare(simt.LaunchConfig1D.for_len(h, block=64), dev)
    project.launch(prep, stream, keys, values, w)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    kv = sk.to_device(np.concatenate([np.arange(128), np.zeros(128)]).astype(np.float32), stream)
    for w in (1.0, 0.5):
        encode(dev, stream, kv, w)
    print(kv.to_numpy(stream)[126:130])


if __name__ == "__main__":
    main()
