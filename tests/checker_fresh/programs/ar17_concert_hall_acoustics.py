# fresh-expect: E0502 at line 76
# fresh-note: concert hall impulse-response analysis; a context manager starts an async reverb-tail launch in __enter__ and syncs it in __exit__, but the clarity metric reads the tail inside the with block while that launch still writes it.
from __future__ import annotations

import math

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread

TAPS = 192
FS = 2400.0


@simt.kernel
@simt.launch_contract(block=64)
def energy_decay(ir: Slice[f32], tail: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (t := tail.get_mut(idx)) is not None:
        acc = f32(0.0)
        for k in range(i, len(ir)):
            acc += ir[k] * ir[k]
        t.set(acc)


@simt.kernel
@simt.launch_contract(block=64)
def early_late(tail: Slice[f32], ratio: DisjointSlice[f32], split: i32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (r := ratio.get_mut(idx)) is not None:
        late = tail[split]
        r.set(f32(10.0) * math.log10((tail[0] - late) / max(late, f32(1e-12))) if i == 0 else f32(0.0))


class ReverbPass:
    """Schroeder integration of one seat's impulse response, overlapped with the caller's work."""

    def __init__(self, dev: sk.Device, stream: sk.Stream, ir: np.ndarray) -> None:
        self.stream = stream
        self.plan = energy_decay.prepare(simt.LaunchConfig1D.for_len(TAPS, block=64), dev)
        self.ir = sk.to_device(ir.astype(np.float32), stream)
        self.tail = sk.zeros(TAPS, f32, stream)
        self.op: sk.DeviceOp | None = None

    def __enter__(self) -> ReverbPass:
        self.op = energy_decay.launch_async(self.plan, self.ir, self.tail)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.op is not None:
            self.op.sync_on(self.stream)
            self.op = None


def seat_response(seat: int, rng: np.random.Generator) -> np.ndarray:
    t = np.arange(TAPS) / FS
    rt60 = 0.035 + 0.005 * seat
    return (rng.standard_normal(TAPS) * np.exp(-6.9 * t / rt60)).astype(np.float32)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    ratio_plan = early_late.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    rng = np.random.default_rng(2024)
    split = int(0.008 * FS)  # C80 scaled to the model hall
    for seat in range(3):
        with ReverbPass(dev, stream, seat_response(seat, rng)) as rp:
            ratio = sk.zeros(64, f32, stream)
            direct = float(np.abs(rp.ir.to_numpy(stream)).max())
            early_late.launch(ratio_plan, stream, rp.tail, ratio, split)
        tail = rp.tail.to_numpy(stream)
        c80 = float(ratio.to_numpy(stream)[0])
        print(f"seat {seat}: direct {direct:.2f}, C80 {c80:+.1f} dB, edt energy {tail[0]:.2f}")


if __name__ == "__main__":
    main()
