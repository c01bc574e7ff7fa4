# fresh-expect: E0502 at line 82
# fresh-known-miss: cli,mypy a recycling generator handed the live accumulator by `send` and giving it back as the next output: values sent into a generator are not related to what it yields later
# fresh-note: the stacker sends the current accumulator back to the recycling generator before the launch that reads it, so the generator hands that same buffer back as the output and the launch reads and writes one buffer.
"""Low-light frame stacking for a night patrol robot's thermal/NIR camera.

Consecutive frames are accumulated into an exponentially weighted stack to raise the signal-to-noise ratio
before person detection.  Accumulator buffers are recycled through a small generator-based pool so that
the 30 Hz loop does not allocate device memory per frame.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Generator, Iterable, Iterator

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

H, W = 16, 20
PIXELS = H * W

Recycler = Generator[sk.DeviceBuffer, "sk.DeviceBuffer | None", None]


@simt.kernel
@simt.launch_contract(block=64)
def stack_frame(acc: Slice[f32], frame: Slice[f32], out: DisjointSlice[f32], decay: f32, gate: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        prev = acc[i]
        cur = frame[i]
        if abs(cur - prev) > gate:  # something moved: restart the stack at this pixel
            o.set(cur)
        else:
            o.set(decay * prev + (1.0 - decay) * cur)


def buffer_recycler(n: int, stream: sk.Stream, stats: dict[str, int]) -> Recycler:
    """Yields a free device buffer; `send(buf)` returns `buf` to the pool before taking the next one."""
    free: list[sk.DeviceBuffer] = []
    returned = None
    while True:
        if returned is not None:
            free.append(returned)
        if free:
            stats["reused"] = stats.get("reused", 0) + 1
            buf = free.pop()
        else:
            stats["allocated"] = stats.get("allocated", 0) + 1
            buf = sk.zeros(n, f32, stream)
        returned = yield buf


@dataclass
class StackerConfig:
    decay: float = 0.8
    motion_gate: float = 0.5


class FrameStacker:
    def __init__(self, cfg: StackerConfig, dev: sk.Device, stream: sk.Stream) -> None:
        self.cfg = cfg
        self.stream = stream
        self.stats: dict[str, int] = {}
        self.recycler = buffer_recycler(PIXELS, stream, self.stats)
        self.prepared = stack_frame.prepare(simt.LaunchConfig1D.for_len(PIXELS, block=64), dev)

    def stacked(self, frames: Iterable[np.ndarray]) -> Iterator[np.ndarray]:
        acc = next(self.recycler)
        for k, frame in enumerate(frames):
            frame_d = sk.to_device(frame.astype(np.float32).ravel(), self.stream)
            if k == 0:
                acc.copy_from_numpy(frame.astype(np.float32).ravel(), self.stream)
                continue
            out = self.recycler.send(acc)
            stack_frame.launch(self.prepared, self.stream, acc, frame_d, out, self.cfg.decay, self.cfg.motion_gate)
            acc = out
            yield acc.to_numpy(self.stream).reshape(H, W)


def noisy_scene(count: int, seed: int = 21) -> Iterator[np.ndarray]:
    rng = np.random.default_rng(seed)
    ys, xs = np.mgrid[0:H, 0:W]
    scene = 0.3 + 0.2 * np.exp(-((xs - 12) ** 2 + (ys - 7) ** 2) / 10.0)
    for _ in range(count):
        yield scene + rng.normal(0.0, 0.05, scene.shape)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    stacker = FrameStacker(StackerConfig(), dev, stream)
    frames = list(noisy_scene(10))
    clean = 0.3 + 0.2 * np.exp(-((np.mgrid[0:H, 0:W][1] - 12) ** 2 + (np.mgrid[0:H, 0:W][0] - 7) ** 2) / 10.0)
    errors = [float(np.abs(img - clean).mean()) for img in stacker.stacked(frames)]
    raw_error = float(np.mean([np.abs(f - clean).mean() for f in frames]))
    assert errors[-1] < 0.6 * raw_error, (errors[-1], raw_error)
    pairs = list(itertools.pairwise(errors))
    print(f"raw error {raw_error:.4f}, stacked {errors[-1]:.4f}; {sum(b < a for a, b in pairs)}/{len(pairs)} "
          f"steps improved; pool {stacker.stats}")


if __name__ == "__main__":
    main()
