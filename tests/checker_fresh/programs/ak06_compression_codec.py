# fresh-expect: clean
# fresh-note: Frame-of-reference bit-packing planner that zigzag-delta-encodes integer blocks and takes per-block bit widths and a symbol histogram into separately allocated atomic buffers.
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import i32, u32
from safekernels.simt import AtomicSlice, DisjointSlice, Slice, thread

BLOCK = 64


@simt.kernel
@simt.launch_contract(block=128, requires=("len(zz) >= len(values)",))
def zigzag_delta(values: Slice[i32], zz: DisjointSlice[i32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i < len(values) and (o := zz.get_mut(idx)) is not None:
        d = values[i]
        if i % BLOCK != 0:
            d = values[i] - values[i - 1]
        o.set((d << 1) ^ (d >> 31))


@simt.kernel
@simt.launch_contract(block=128)
def plan_widths(zz: Slice[i32], widths: AtomicSlice[u32], low_nibbles: AtomicSlice[u32]) -> None:
    i = thread.index_1d().get()
    if i < len(zz):
        v = zz[i]
        bits = u32(0)
        while v > 0:
            v = v >> 1
            bits += u32(1)
        widths.fetch_max(i // BLOCK, bits)
        low_nibbles.fetch_add(zz[i] & 15, u32(1))


class BitPackPlanner:
    def __init__(self, dev: sk.Device, stream: sk.Stream, n: int) -> None:
        assert n % BLOCK == 0
        self.stream, self.n = stream, n
        cfg = simt.LaunchConfig1D.for_len(n, block=128)
        self.launches = {"zz": zigzag_delta.prepare(cfg, dev), "plan": plan_widths.prepare(cfg, dev)}
        self.scratch = sk.zeros(n, i32, stream)
        self.stats = {name: sk.zeros(size, u32, stream) for name, size in (("widths", n // BLOCK), ("nibbles", 16))}

    def reset(self) -> None:
        for buf in self.stats.values():
            buf.copy_from_numpy(np.zeros(len(buf), np.uint32), self.stream)

    def plan(self, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        self.reset()
        src = sk.to_device(values.astype(np.int32), self.stream)
        zigzag_delta.launch(self.launches["zz"], self.stream, src, self.scratch)
        plan_widths.launch(self.launches["plan"], self.stream, self.scratch, self.stats["widths"], self.stats["nibbles"])
        return self.stats["widths"].to_numpy(self.stream), self.stats["nibbles"].to_numpy(self.stream)


def packed_bytes(widths: np.ndarray) -> int:
    header = 1 * len(widths)
    return header + int(np.ceil(widths.astype(np.int64) * BLOCK / 8).sum())


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(5)
    n = 8 * BLOCK
    planner = BitPackPlanner(dev, stream, n)
    series = {
        "counter": np.cumsum(rng.integers(0, 3, n)),
        "sensor": (1000 + 40 * np.sin(np.arange(n) / 9.0)).astype(np.int64),
        "noise": rng.integers(-30000, 30000, n),
    }
    for name, values in series.items():
        widths, nibbles = planner.plan(values)
        ratio = (4 * n) / packed_bytes(widths)
        print(f"{name:>8}: widths {widths.tolist()} ratio {ratio:.2f} top nibble {int(nibbles.argmax())}")


if __name__ == "__main__":
    main()
