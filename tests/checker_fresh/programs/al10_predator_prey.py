# fresh-expect: clean
# fresh-note: predator-prey patches with a shared-memory block reduction for population totals; the unchecked fast launch sits lexically inside its own helper's unsafe block and the kernel's shared array accesses are wrapped too.
from __future__ import annotations

from collections.abc import Callable

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 128
BLOCK = 64


@simt.kernel
@simt.launch_contract(block=64)
def lv_prey(prey: Slice[f32], pred: Slice[f32], out: DisjointSlice[f32], growth: f32, attack: f32, dt: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        x = prey[i]
        o.set(max(x + dt * (growth * x - attack * x * pred[i]), f32(0.0)))


@simt.kernel
@simt.launch_contract(block=64)
def lv_pred(prey: Slice[f32], pred: Slice[f32], out: DisjointSlice[f32], gain: f32, death: f32, dt: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        y = pred[i]
        o.set(max(y + dt * (gain * prey[i] * y - death * y), f32(0.0)))


@simt.kernel
@simt.launch_contract(block=64)
def block_total(x: Slice[f32], sums: DisjointSlice[f32]) -> None:
    t = thread.thread_idx_x()
    i = thread.block_idx_x() * BLOCK + t
    with simt.unsafe():
        buf = simt.shared_array(f32, BLOCK)
        buf[t] = x[i]
    thread.sync_threads()
    stride = BLOCK // 2
    while stride > 0:
        if t < stride:
            with simt.unsafe():
                buf[t] = buf[t] + buf[t + stride]
        thread.sync_threads()
        stride = stride // 2
    if t == 0:
        with simt.unsafe():
            sums.get_unchecked_mut(thread.block_idx_x()).set(buf[0])


def make_stepper(stream: sk.Stream, dt: float) -> Callable[[sk.DeviceBuffer, sk.DeviceBuffer, sk.DeviceBuffer,
                                                            sk.DeviceBuffer], None]:
    cfg = simt.LaunchConfig1D.for_len(N, block=BLOCK)

    def step(prey: sk.DeviceBuffer, pred: sk.DeviceBuffer, prey_out: sk.DeviceBuffer,
             pred_out: sk.DeviceBuffer) -> None:
        with simt.unsafe():  # both kernels were prepared against this exact config in main()
            lv_prey.launch_unchecked(cfg, stream, prey, pred, prey_out, 1.0, 0.1, dt)
            lv_pred.launch_unchecked(cfg, stream, prey, pred, pred_out, 0.075, 1.5, dt)

    return step


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    cfg = simt.LaunchConfig1D.for_len(N, block=BLOCK)
    lv_prey.prepare(cfg, dev)
    lv_pred.prepare(cfg, dev)
    total = block_total.prepare(cfg, dev)
    rng = np.random.default_rng(5)
    prey = sk.to_device((8 + rng.random(N)).astype(np.float32), stream)
    pred = sk.to_device((4 + rng.random(N)).astype(np.float32), stream)
    prey_out, pred_out = sk.zeros(N, f32, stream), sk.zeros(N, f32, stream)
    sums = sk.zeros(N // BLOCK, f32, stream)
    step = make_stepper(stream, dt=0.01)
    curve = []
    for gen in range(30):
        step(prey, pred, prey_out, pred_out)
        prey, prey_out = prey_out, prey
        pred, pred_out = pred_out, pred
        if gen % 10 == 9:
            block_total.launch(total, stream, prey, sums)
            curve.append(float(sums.to_numpy(stream).sum()))
    np.testing.assert_allclose(curve[-1], prey.to_numpy(stream).sum(), rtol=1e-4)
    print("prey totals every 10 generations:", [round(v, 2) for v in curve])


if __name__ == "__main__":
    main()
