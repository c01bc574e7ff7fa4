# fresh-expect: clean
# fresh-note: Print RIP halftoning with CMYK separation: the Screen base class prepares `self.kernel`, so the stochastic subclass's prepared launch is branded for mask_dither, the kernel its render launches.
from __future__ import annotations
import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread

W, H = 32, 24
BLOCK = 128
BAYER4 = np.array([[0, 8, 2, 10], [12, 4, 14, 6], [3, 11, 1, 9], [15, 7, 13, 5]], np.float32)


@simt.kernel
@simt.launch_contract(block=BLOCK)
def separate(r: Slice[f32], g: Slice[f32], b: Slice[f32], c: DisjointSlice[f32], m: DisjointSlice[f32],
             y: DisjointSlice[f32], k: DisjointSlice[f32]) -> None:
    i = thread.index_1d().get()
    black = 1.0 - max(r[i], g[i], b[i])
    scale = 1.0 / (1.0 - black) if black < 0.999 else f32(0.0)
    if (o := c.get_mut(thread.index_1d())) is not None:
        o.set((1.0 - r[i] - black) * scale)
    if (o := m.get_mut(thread.index_1d())) is not None:
        o.set((1.0 - g[i] - black) * scale)
    if (o := y.get_mut(thread.index_1d())) is not None:
        o.set((1.0 - b[i] - black) * scale)
    if (o := k.get_mut(thread.index_1d())) is not None:
        o.set(black)


@simt.kernel
@simt.launch_contract(block=BLOCK)
def ordered_dither(tone: Slice[f32], matrix: Slice[f32], dots: DisjointSlice[f32], width: i32, shift: i32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    x = (i % width + shift) % 4
    row = (i // width) % 4
    if (d := dots.get_mut(idx)) is not None:
        d.set(f32(1.0) if tone[i] * 16.0 > matrix[row * 4 + x] + 0.5 else f32(0.0))


@simt.kernel
@simt.launch_contract(block=BLOCK)
def mask_dither(tone: Slice[f32], mask: Slice[f32], dots: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (d := dots.get_mut(idx)) is not None:
        d.set(f32(1.0) if tone[i] > mask[i % len(mask)] else f32(0.0))


class Screen:
    """Clustered ordered dither; each ink gets its own phase shift to avoid moire."""

    kernel = ordered_dither

    def __init__(self, device: sk.Device, stream: sk.Stream, shift: int = 0) -> None:
        self.shift = shift
        self.matrix = sk.to_device(BAYER4.ravel(), stream)
        self.prepared = self.kernel.prepare(simt.LaunchConfig1D.for_len(W * H, block=BLOCK), device)

    def render(self, stream: sk.Stream, tone: sk.DeviceBuffer, dots: sk.DeviceBuffer) -> None:
        ordered_dither.launch(self.prepared, stream, tone, self.matrix, dots, W, self.shift)


class StochasticScreen(Screen):
    """FM screening for black: a fixed random threshold mask, so fine text edges stay sharp."""

    kernel = mask_dither

    def __init__(self, device: sk.Device, stream: sk.Stream, seed: int) -> None:
        super().__init__(device, stream)
        self.mask = sk.to_device(np.random.default_rng(seed).random(256).astype(np.float32), stream)

    def render(self, stream: sk.Stream, tone: sk.DeviceBuffer, dots: sk.DeviceBuffer) -> None:
        mask_dither.launch(self.prepared, stream, tone, self.mask, dots)


def rip(rgb: np.ndarray, device: sk.Device) -> dict[str, np.ndarray]:
    s = device.new_stream()
    n = W * H
    planes = [sk.to_device(np.ascontiguousarray(rgb[..., ch]).ravel().astype(np.float32), s) for ch in range(3)]
    inks = {name: sk.zeros(n, f32, s) for name in ("cyan", "magenta", "yellow", "black")}
    separate.launch(separate.prepare(simt.LaunchConfig1D.for_len(n, block=BLOCK), device), s, *planes, *inks.values())
    screens = {
        "cyan": Screen(device, s, shift=1),
        "magenta": Screen(device, s, shift=2),
        "yellow": Screen(device, s, shift=0),
        "black": StochasticScreen(device, s, seed=7),
    }
    dots = {}
    for name, screen in screens.items():
        out = sk.zeros(n, f32, s)
        screen.render(s, inks[name], out)
        dots[name] = out.to_numpy(s).reshape(H, W)
    return dots


def main() -> None:
    yy, xx = np.mgrid[0:H, 0:W] / np.array([H - 1, W - 1])[:, None, None]
    rgb = np.stack([xx, 1.0 - yy, 0.5 + 0.0 * xx], axis=-1)  # a smooth colour ramp
    dots = rip(rgb, sk.Device.cpu())
    black = 1.0 - rgb.max(axis=-1)
    cyan = np.where(black < 0.999, (1.0 - rgb[..., 0] - black) / (1.0 - black), 0.0)
    assert abs(dots["cyan"].mean() - cyan.mean()) < 0.05, (dots["cyan"].mean(), cyan.mean())
    for name, plane in dots.items():
        print(f"{name:>8}: {plane.mean() * 100:5.1f}% dot coverage")


if __name__ == "__main__":
    main()
