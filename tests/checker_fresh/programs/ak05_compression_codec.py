# fresh-expect: E0499 at line 64
# fresh-note: Byte-stream codec statistics where the histogram buffers come from dict.fromkeys with one zeros buffer as the default, so the symbol and run-start histograms are the same AtomicSlice memory.
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import i32, u8, u32
from safekernels.simt import AtomicSlice, DisjointSlice, Slice, thread

SYMBOLS = 256


@simt.kernel
@simt.launch_contract(block=128)
def symbol_stats(data: Slice[u8], hist: AtomicSlice[u32], run_starts: AtomicSlice[u32]) -> None:
    i = thread.index_1d().get()
    if i < len(data):
        sym = i32(data[i])
        hist.fetch_add(sym, u32(1))
        if i == 0 or data[i - 1] != data[i]:
            run_starts.fetch_add(sym, u32(1))


@simt.kernel
@simt.launch_contract(block=128)
def delta_encode(data: Slice[u8], out: DisjointSlice[i32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        prev = i32(0)
        if i > 0:
            prev = i32(data[i - 1])
        o.set(i32(data[i]) - prev)


def alloc_stats(stream: sk.Stream, names: tuple[str, ...]) -> dict[str, sk.DeviceBuffer]:
    return dict.fromkeys(names, sk.zeros(SYMBOLS, u32, stream))


def entropy_bits(counts: np.ndarray) -> float:
    p = counts[counts > 0] / counts.sum()
    return float(-(p * np.log2(p)).sum())


class CodecProbe:
    """Decides per chunk between raw, RLE and delta coding from device-side statistics."""

    def __init__(self, dev: sk.Device, stream: sk.Stream, chunk: int) -> None:
        self.stream = stream
        self.chunk = chunk
        cfg = simt.LaunchConfig1D.for_len(chunk, block=128)
        self.stats_launch = symbol_stats.prepare(cfg, dev)
        self.delta_launch = delta_encode.prepare(cfg, dev)
        self.deltas = sk.zeros(chunk, i32, stream)

    def choose(self, raw: np.ndarray) -> str:
        data = sk.to_device(raw, self.stream)
        delta_encode.launch(self.delta_launch, self.stream, data, self.deltas)
        d = self.deltas.to_numpy(self.stream)
        delta_h = np.bincount(np.abs(d).clip(0, SYMBOLS - 1), minlength=SYMBOLS)
        stats = alloc_stats(self.stream, ("hist", "runs"))
        symbol_stats.launch(self.stats_launch, self.stream, data, stats["hist"], stats["runs"])
        hist = stats["hist"].to_numpy(self.stream)
        runs = int(stats["runs"].to_numpy(self.stream).sum())
        costs = {
            "raw": 8.0 * self.chunk,
            "rle": runs * (8.0 + 8.0),
            "delta": entropy_bits(delta_h) * self.chunk,
        }
        if entropy_bits(hist) < 1.0:
            costs["rle"] *= 0.9
        return min(costs, key=costs.__getitem__)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(11)
    chunk = 512
    probe = CodecProbe(dev, stream, chunk)
    ramp = (np.arange(chunk) // 3 % 256).astype(np.uint8)
    runs = np.repeat(rng.integers(0, 4, chunk // 32), 32).astype(np.uint8)
    noise = rng.integers(0, 256, chunk).astype(np.uint8)
    for name, raw in {"ramp": ramp, "runs": runs, "noise": noise}.items():
        print(f"{name:>5}: {probe.choose(raw)}")


if __name__ == "__main__":
    main()
