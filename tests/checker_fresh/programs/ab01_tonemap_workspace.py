# fresh-expect: E0502 at line 42
# (fixed: types.SimpleNamespace fields are followed; the conflict ws.src/ws.dst is the argument's, at the call)
"""HDR tonemapping stage of a small image pipeline, with a per-frame workspace."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

WIDTH, HEIGHT = 32, 24


@simt.kernel
@simt.launch_contract(block=128)
def tonemap(src: Slice[f32], dst: DisjointSlice[f32], exposure: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (px := dst.get_mut(idx)) is not None:
        v = src[i] * exposure
        px.set(v / (f32(1.0) + v))


def make_workspace(frame: sk.DeviceBuffer, stream: sk.Stream, inplace: bool = True) -> SimpleNamespace:
    """Bundle the buffers one frame needs; in-place mode saves an allocation on small devices."""
    dst = frame if inplace else sk.zeros(len(frame), f32, stream)
    return SimpleNamespace(src=frame, dst=dst, exposure=1.5, frame_id=0)


class Tonemapper:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.dev = dev
        self.stream = stream
        self.prepared = tonemap.prepare(simt.LaunchConfig1D.for_len(WIDTH * HEIGHT, block=128), dev)
        self.frames_done = 0

    def process(self, ws: SimpleNamespace) -> np.ndarray:
        tonemap.launch(self.prepared, self.stream, ws.src, ws.dst, ws.exposure)
        self.frames_done += 1
        return ws.dst.to_numpy(self.stream)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(7)
    mapper = Tonemapper(dev, stream)
    results = []
    for frame_id in range(3):
        hdr = rng.exponential(2.0, WIDTH * HEIGHT).astype(np.float32)
        frame = sk.to_device(hdr, stream)
        ws = make_workspace(frame, stream)
        ws.frame_id = frame_id
        out = mapper.process(ws)
        results.append(float(out.mean()))
    print("mean luminance per frame:", [round(r, 3) for r in results])


if __name__ == "__main__":
    main()
