# fresh-expect: E0499 at line 48
# fresh-known-miss: cli,mypy a dict attribute __init__ fills with dict.fromkeys(CHANNELS, one buffer), spread as `*self.hists.values()` into three AtomicSlice parameters of one launch: a splat of a filled mapping's values is not expanded to its repeated item
# fresh-note: Per-channel histogram equalisation whose Equalizer builds its three histograms with dict.fromkeys(CHANNELS, sk.zeros(...)), so the splat of .values() passes one buffer as three AtomicSlice outputs of one launch.
"""Per-channel histogram equalisation of a packed RGB image: atomic histograms, host CDFs, a LUT pass."""
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import u32
from safekernels.simt import AtomicSlice, DisjointSlice, Slice, thread

H, W = 24, 40
CHANNELS = "rgb"


@simt.kernel
@simt.launch_contract(block=128)
def channel_hist(pix: Slice[u32], hr: AtomicSlice[u32], hg: AtomicSlice[u32], hb: AtomicSlice[u32]) -> None:
    i = thread.index_1d().get()
    if i < len(pix):
        p = pix[i]
        hr.fetch_add((p >> 16) & 0xFF, u32(1))
        hg.fetch_add((p >> 8) & 0xFF, u32(1))
        hb.fetch_add(p & 0xFF, u32(1))


@simt.kernel
@simt.launch_contract(block=128)
def apply_lut(pix: Slice[u32], lr: Slice[u32], lg: Slice[u32], lb: Slice[u32], out: DisjointSlice[u32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        p = pix[i]
        o.set((lr[(p >> 16) & 0xFF] << 16) | (lg[(p >> 8) & 0xFF] << 8) | lb[p & 0xFF])


class Equalizer:
    def __init__(self, dev: sk.Device, stream: sk.Stream, n: int) -> None:
        self.stream = stream
        cfg = simt.LaunchConfig1D.for_len(n, block=128)
        self.hist_prep = channel_hist.prepare(cfg, dev)
        self.lut_prep = apply_lut.prepare(cfg, dev)
        self.hists = dict.fromkeys(CHANNELS, sk.zeros(256, u32, stream))

    def luts(self, pix: sk.DeviceBuffer, n: int) -> list[sk.DeviceBuffer]:
        channel_hist.launch(self.hist_prep, self.stream, pix, *self.hists.values())
        tables = []
        for name in CHANNELS:
            cdf = np.cumsum(self.hists[name].to_numpy(self.stream)).astype(np.float64)
            lo = cdf[np.nonzero(cdf)[0][0]]
            lut = np.round((cdf - lo) / max(n - lo, 1) * 255).clip(0, 255).astype(np.uint32)
            tables.append(sk.to_device(lut, self.stream))
        return tables

    def __call__(self, pix: sk.DeviceBuffer, n: int) -> np.ndarray:
        out = sk.zeros(n, u32, self.stream)
        apply_lut.launch(self.lut_prep, self.stream, pix, *self.luts(pix, n), out)
        return out.to_numpy(self.stream)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(21)
    rgb = rng.integers(40, 120, size=(H * W, 3)).astype(np.uint32)  # a dull, low-contrast image
    packed = (rgb[:, 0] << 16) | (rgb[:, 1] << 8) | rgb[:, 2]
    eq = Equalizer(dev, stream, H * W)
    out = eq(sk.to_device(packed, stream), H * W)
    spread = [int(((out >> s) & 0xFF).max() - ((out >> s) & 0xFF).min()) for s in (16, 8, 0)]
    for c, s in enumerate((16, 8, 0)):
        ch = (out >> s) & 0xFF
        assert np.all(np.diff(ch[np.argsort(rgb[:, c], kind="stable")].astype(int)) >= 0), "LUT must be monotone"
    print(f"equalised {H}x{W} image, channel ranges {spread}")


if __name__ == "__main__":
    main()
