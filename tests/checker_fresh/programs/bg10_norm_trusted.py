# fresh-expect: clean
# fresh-note: Same normaliser, with the with simt.unsafe(): block inside launch_fast() around launch_unchecked, where unsafe is required lexically.
"""Per-channel normalisation of planar image data, with an unchecked fast path for trusted batch sizes."""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

H, W = 40, 40
MEAN = {"r": 0.485, "g": 0.456, "b": 0.406}
STD = {"r": 0.229, "g": 0.224, "b": 0.225}


@simt.kernel
@simt.launch_contract(block=256)
def normalize(src: Slice[f32], out: DisjointSlice[f32], mean: f32, inv_std: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set((src[i] - mean) * inv_std)


def launch_fast(cfg: simt.LaunchConfig1D, stream: sk.Stream, *args: object) -> None:
    """Skip prepare() validation: the config was validated once when the normaliser was built."""
    with simt.unsafe():
        normalize.launch_unchecked(cfg, stream, *args)


class ChannelNormalizer:
    def __init__(self, dev: sk.Device, stream: sk.Stream, n: int, trusted: bool) -> None:
        self.stream = stream
        self.cfg = simt.LaunchConfig1D.for_len(n, block=256)
        self.prep = normalize.prepare(self.cfg, dev)
        self.trusted = trusted
        self.n = n

    def __call__(self, planes: dict[str, sk.DeviceBuffer]) -> dict[str, sk.DeviceBuffer]:
        outs = {}
        for name, plane in planes.items():
            out = sk.zeros(self.n, f32, self.stream)
            mean, inv_std = MEAN[name], 1.0 / STD[name]
            if self.trusted:
                launch_fast(self.cfg, self.stream, plane, out, mean, inv_std)
            else:
                normalize.launch(self.prep, self.stream, plane, out, mean, inv_std)
            outs[name] = out
        return outs


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(9)
    image = rng.random((H, W, 3), dtype=np.float32)
    planes = {c: sk.to_device(np.ascontiguousarray(image[:, :, k]).ravel(), stream) for k, c in enumerate("rgb")}
    checked = ChannelNormalizer(dev, stream, H * W, trusted=False)(planes)
    fast = ChannelNormalizer(dev, stream, H * W, trusted=True)(planes)
    for k, c in enumerate("rgb"):
        want = (image[:, :, k].ravel() - MEAN[c]) / STD[c]
        np.testing.assert_allclose(checked[c].to_numpy(stream), want, rtol=1e-5, atol=1e-5)
        np.testing.assert_array_equal(fast[c].to_numpy(stream), checked[c].to_numpy(stream))
    stats = {c: (float(v.to_numpy(stream).mean()), float(v.to_numpy(stream).std())) for c, v in fast.items()}
    print("normalised channels:", {c: (round(m, 3), round(s, 3)) for c, (m, s) in stats.items()})


if __name__ == "__main__":
    main()
