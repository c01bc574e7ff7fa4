# fresh-expect: E0308 at line 102
# fresh-known-miss: cli,mypy a hand-written plan cache keyed by the launch configuration, called inside `for name, kernel in self.GRADIENTS`: the loop body is lowered once, so which kernel filled the cache is not known at the next iteration's launch
# fresh-note: Lucas-Kanade optical flow between two frames with a small cache of prepared launches; the cache is keyed by the launch configuration alone, so the y-gradient kernel is handed the launch prepared for the x-gradient kernel of the same size.
from __future__ import annotations
from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread

H, W = 24, 32
BLOCK = 64


@simt.kernel
@simt.launch_contract(block=64)
def grad_x(prev: Slice[f32], cur: Slice[f32], out: DisjointSlice[f32], width: i32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        c = i % width
        lo = i - 1 if c > 0 else i
        hi = i + 1 if c < width - 1 else i
        o.set(f32(0.25) * (prev[hi] - prev[lo] + cur[hi] - cur[lo]))


@simt.kernel
@simt.launch_contract(block=64)
def grad_y(prev: Slice[f32], cur: Slice[f32], out: DisjointSlice[f32], width: i32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        lo = i - width if i >= width else i
        hi = i + width if i + width < len(cur) else i
        o.set(f32(0.25) * (prev[hi] - prev[lo] + cur[hi] - cur[lo]))


@simt.kernel
@simt.launch_contract(block=64)
def grad_t(prev: Slice[f32], cur: Slice[f32], out: DisjointSlice[f32], width: i32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(cur[i] - prev[i])


@simt.kernel
@simt.launch_contract(block=64)
def solve_flow(ix: Slice[f32], iy: Slice[f32], it: Slice[f32], u: DisjointSlice[f32], v: DisjointSlice[f32], width: i32) -> None:
    i = thread.index_1d().get()
    n = len(ix)
    sxx = f32(0.0)
    sxy = f32(0.0)
    syy = f32(0.0)
    sxt = f32(0.0)
    syt = f32(0.0)
    for dy in range(-2, 3):
        for dx in range(-2, 3):
            j = i + dy * width + dx
            if 0 <= j < n and 0 <= i % width + dx < width:
                sxx += ix[j] * ix[j]
                sxy += ix[j] * iy[j]
                syy += iy[j] * iy[j]
                sxt += ix[j] * it[j]
                syt += iy[j] * it[j]
    det = sxx * syy - sxy * sxy
    ok = det > f32(1e-6)
    if (ou := u.get_mut(thread.index_1d())) is not None:
        ou.set((sxy * syt - syy * sxt) / det if ok else f32(0.0))
    if (ov := v.get_mut(thread.index_1d())) is not None:
        ov.set((sxy * sxt - sxx * syt) / det if ok else f32(0.0))


@dataclass
class PlanCache:
    device: sk.Device
    plans: dict = field(default_factory=dict)
    misses: int = 0

    def get(self, kernel: simt.SimtKernel, n: int) -> simt.PreparedLaunch:
        cfg = simt.LaunchConfig1D.for_len(n, block=BLOCK)
        if cfg not in self.plans:
            self.misses += 1
            self.plans[cfg] = kernel.prepare(cfg, self.device)
        return self.plans[cfg]


class FlowEstimator:
    GRADIENTS = (("ix", grad_x), ("iy", grad_y), ("it", grad_t))

    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        self.cache = PlanCache(stream.device)
        self.work = {name: sk.zeros(H * W, f32, stream) for name, _ in self.GRADIENTS}

    def flow(self, prev: sk.DeviceBuffer, cur: sk.DeviceBuffer) -> tuple[np.ndarray, np.ndarray]:
        n = H * W
        for name, kernel in self.GRADIENTS:
            kernel.launch(self.cache.get(kernel, n), self.stream, prev, cur, self.work[name], W)
        u, v = sk.zeros(n, f32, self.stream), sk.zeros(n, f32, self.stream)
        ix, iy, it = (self.work[k] for k in ("ix", "iy", "it"))
        solve_flow.launch(self.cache.get(solve_flow, n), self.stream, ix, iy, it, u, v, W)
        return u.to_numpy(self.stream).reshape(H, W), v.to_numpy(self.stream).reshape(H, W)


def blob_frame(cx: float, cy: float) -> np.ndarray:
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    return np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / 18.0).astype(np.float32).ravel()


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    est = FlowEstimator(stream)
    prev = sk.to_device(blob_frame(15.0, 11.0), stream)
    cur = sk.to_device(blob_frame(15.6, 11.3), stream)
    u, v = est.flow(prev, cur)
    core = (slice(8, 15), slice(11, 20))
    mu, mv = float(u[core].mean()), float(v[core].mean())
    assert 0.2 < mu < 1.0 and 0.0 < mv < 0.6, (mu, mv)
    print(f"mean flow near the blob: u={mu:.2f} px, v={mv:.2f} px ({est.cache.misses} launches prepared)")


if __name__ == "__main__":
    main()
