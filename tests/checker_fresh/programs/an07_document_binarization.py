# fresh-expect: E0502 at line 116
# fresh-known-miss: cli,mypy the output plane is `self.bufs.get(stage.output, self.bufs[stage.inputs[0]])` with keys read from a table of `Stage` records: the items under those computed keys are not followed (a `get` whose key and fallback are followed places is read as either)
# fresh-note: OCR preprocessing (Sauvola binarization): the despeckle stage names its output plane "cleaned" while the allocated plane is "clean", so `target()`'s dict.get fallback hands back the stage's own input and despeckle reads and writes the ink plane.
from __future__ import annotations
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

H, W, BAND = 24, 32, 4
BLOCK = 128
PLANES = ("gray", "mean", "sqmean", "ink", "clean")


@simt.kernel
@simt.launch_contract(block=BLOCK)
def local_stats(src: Slice[f32], mean: DisjointSlice[f32], sqmean: DisjointSlice[f32], width: i32, r: i32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    y = i // width
    x = i % width
    acc = f32(0.0)
    acc2 = f32(0.0)
    count = 0
    for dy in range(-r, r + 1):
        for dx in range(-r, r + 1):
            yy = y + dy
            xx = x + dx
            if yy >= 0 and xx >= 0 and xx < width and yy * width + xx < len(src):
                v = src[yy * width + xx]
                acc += v
                acc2 += v * v
                count += 1
    if (m := mean.get_mut(idx)) is not None:
        m.set(acc / f32(count))
    if (s := sqmean.get_mut(thread.index_1d())) is not None:
        s.set(acc2 / f32(count))


@simt.kernel
@simt.launch_contract(block=BLOCK)
def sauvola(src: Slice[f32], mean: Slice[f32], sqmean: Slice[f32], ink: DisjointSlice[f32], k: f32, r: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := ink.get_mut(idx)) is not None:
        m = mean[i]
        sd = max(sqmean[i] - m * m, f32(0.0)) ** 0.5
        o.set(f32(1.0) if src[i] < m * (1.0 + k * (sd / r - 1.0)) else f32(0.0))


@simt.kernel
@simt.launch_contract(block=BLOCK)
def despeckle(ink: Slice[f32], out: DisjointSlice[f32], width: i32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        x = i % width
        n = f32(0.0)
        if x > 0:
            n += ink[i - 1]
        if x < width - 1:
            n += ink[i + 1]
        if i >= width:
            n += ink[i - width]
        if i + width < len(ink):
            n += ink[i + width]
        o.set(ink[i] if n > 0.0 else f32(0.0))


@tile.kernel
def band_coverage(out: Partition[f32], ink: Tensor[f32]) -> None:
    rows = tile.reshape(ink.load((tile.bid(0),), (BAND * W,)), (BAND, W))
    out.store(tile.sum(tile.sum(rows, axis=1), axis=0, keepdims=True) / (BAND * W))


@dataclass(frozen=True)
class Stage:
    kernel: object
    inputs: tuple[str, ...]
    output: str


PIPELINE = (
    Stage(sauvola, ("gray", "mean", "sqmean"), "ink"),
    Stage(despeckle, ("ink",), "cleaned"),
)


class Binarizer:
    def __init__(self, device: sk.Device, k: float = 0.2, radius: int = 2) -> None:
        self.stream = device.new_stream()
        self.k, self.radius = k, radius
        self.bufs = {name: sk.zeros(H * W, f32, self.stream) for name in PLANES}
        cfg = simt.LaunchConfig1D.for_len(H * W, block=BLOCK)
        self.prepared = {k: k.prepare(cfg, device) for k in (local_stats, sauvola, despeckle)}

    def target(self, stage: Stage) -> sk.DeviceBuffer:
        # planes nobody keeps are not allocated: such a stage overwrites its first input
        return self.bufs.get(stage.output, self.bufs[stage.inputs[0]])

    def run(self, page: np.ndarray) -> np.ndarray:
        s = self.stream
        self.bufs["gray"].copy_from_numpy(page.ravel().astype(np.float32), s)
        local_stats.launch(self.prepared[local_stats], s, self.bufs["gray"], self.bufs["mean"], self.bufs["sqmean"],
                           W, self.radius)
        for stage in PIPELINE:
            srcs = [self.bufs[name] for name in stage.inputs]
            if stage.kernel is sauvola:
                sauvola.launch(self.prepared[sauvola], s, *srcs, self.target(stage), self.k, 0.5)
            else:
                despeckle.launch(self.prepared[despeckle], s, *srcs, self.target(stage), W)
        coverage = tile.zeros((H // BAND,), f32).partition((1,))
        coverage, self.bufs["clean"] = band_coverage(coverage, self.bufs["clean"]).sync_on(s)
        return coverage.unpartition().to_numpy(s)


def synthetic_page(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    page = 0.55 + 0.35 * np.linspace(0, 1, W)[None, :] * np.ones((H, 1))  # uneven lighting
    for top in (4, 12):
        page[top:top + 3, 3:W - 3] *= np.where(rng.random((3, W - 6)) < 0.6, 0.2, 1.0)  # two text lines
    return page + rng.normal(0, 0.01, page.shape)


def main() -> None:
    binarizer = Binarizer(sk.Device.cpu())
    coverage = binarizer.run(synthetic_page(5))
    text_bands = [b for b, c in enumerate(coverage) if c > 0.05]
    assert 1 in text_bands and 3 in text_bands and 0 not in text_bands, coverage
    print("ink coverage per band:", np.round(coverage, 3), "text bands:", text_bands)


if __name__ == "__main__":
    main()
