# fresh-expect: clean
# fresh-note: -
"""Data augmentation chosen by config: each stage writes a fresh pool buffer, names swap between stages."""
import random

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 2048


@simt.kernel
@simt.launch_contract(block=128)
def flip(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[len(src) - 1 - i])


@simt.kernel
@simt.launch_contract(block=128)
def jitter(src: Slice[f32], noise: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i] + noise[i])


class Augmenter:
    def __init__(self, dev: sk.Device, stream: sk.Stream, cfg: dict[str, float]) -> None:
        self.cfg = cfg
        self.stream = stream
        cfg1d = simt.LaunchConfig1D.for_len(N, block=128)
        self.flip_prep = flip.prepare(cfg1d, dev)
        self.jitter_prep = jitter.prepare(cfg1d, dev)
        self.noise = sk.to_device(np.full(N, 0.05, dtype=np.float32), stream)
        self.spare = sk.zeros(N, f32, stream)

    def __call__(self, img: sk.DeviceBuffer, rng: random.Random) -> sk.DeviceBuffer:
        if rng.random() < self.cfg["p_flip"]:
            flip.launch(self.flip_prep, self.stream, img, self.spare)
            img, self.spare = self.spare, img
        if rng.random() < self.cfg["p_jitter"]:
            jitter.launch(self.jitter_prep, self.stream, img, self.noise, self.spare)
            img, self.spare = self.spare, img
        return img


dev = sk.Device.cpu()
stream = dev.new_stream()
aug = Augmenter(dev, stream, {"p_flip": 0.5, "p_jitter": 0.9})
rng = random.Random(3)
batch = [sk.to_device(np.arange(N, dtype=np.float32) + k, stream) for k in range(3)]
outs = [aug(img, rng) for img in batch]
print([o.to_numpy(stream)[0] for o in outs])
