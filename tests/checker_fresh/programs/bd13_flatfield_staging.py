# fresh-expect: clean
# fresh-note: A CCD calibration loop launches dark/flat correction asynchronously and overlaps host-side sigma clipping of the next raw frame inside a contextmanager that syncs the pending op on exit, reading the output only after the block.
"""(raw - dark) / flat for a stack of CCD frames, overlapping host work with the kernel."""
from contextlib import contextmanager

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

H, W = 16, 24


@simt.kernel
@simt.launch_contract(block=128, requires=("len(dark) == len(raw)", "len(flat) == len(raw)"))
def calibrate(raw: Slice[f32], dark: Slice[f32], flat: Slice[f32], out: DisjointSlice[f32], gain: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (px := out.get_mut(idx)) is not None:
        px.set(gain * (raw[i] - dark[i]) / flat[i])


@contextmanager
def in_flight(op, stream: sk.Stream):
    """Run host work while `op` is pending; the op is synced when the block ends."""
    try:
        yield
    finally:
        op.sync_on(stream)


def clip_stats(frame: np.ndarray, sigma: float = 3.0) -> tuple[float, float]:
    data = frame.ravel()
    for _ in range(3):
        mu, sd = data.mean(), data.std()
        data = data[np.abs(data - mu) < sigma * sd]
    return float(data.mean()), float(data.std())


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(11)
    dark_h = rng.normal(10.0, 0.5, (H, W)).astype(np.float32)
    flat_h = rng.uniform(0.9, 1.1, (H, W)).astype(np.float32)
    raws = [(dark_h + 100.0 * flat_h + rng.normal(0, 1, (H, W))).astype(np.float32) for _ in range(4)]
    dark = sk.to_device(dark_h.ravel(), stream)
    flat = sk.to_device(flat_h.ravel(), stream)
    out = sk.zeros(H * W, f32, stream)
    plan = calibrate.prepare(simt.LaunchConfig1D.for_len(H * W, block=128), dev)
    stats = [clip_stats(raws[0])]
    science = []
    for k, raw_h in enumerate(raws):
        raw = sk.to_device(raw_h.ravel(), stream)
        op = calibrate.launch_async(plan, raw, dark, flat, out, 1.5)
        with in_flight(op, stream):
            if k + 1 < len(raws):
                stats.append(clip_stats(raws[k + 1]))
            dark_level = float(dark.to_numpy(stream).mean())
        science.append(out.to_numpy(stream).reshape(H, W))
    stack = np.median(np.stack(science), axis=0)
    assert abs(stack.mean() - 150.0) < 2.0, stack.mean()
    assert len(stats) == len(raws) and dark_level > 9.0
    print("median stack level:", round(float(stack.mean()), 2), "raw clip means:", [round(m, 1) for m, _ in stats])


if __name__ == "__main__":
    main()
