# fresh-expect: clean
# fresh-note: Reversible reaction A<=>B integrated per reactor cell with tile kernels; the forward and backward rate constants are lazily built `.shared()` ops that every step may read without handing them back, while the concentration tensors ping-pong through partition/unpartition.
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

TILE = 128
R_GAS = 8.314


@tile.kernel
def arrhenius(k_out: Partition[f32], temp: Tensor[f32], prefactor: f32, activation: f32) -> None:
    t = tile.load_like(temp, k_out)
    k_out.store(prefactor * tile.exp(-activation / (R_GAS * tile.maximum(t, 1.0))))


@tile.kernel
def reversible_step(a_out: Partition[f32], b_out: Partition[f32], a: Tensor[f32], b: Tensor[f32],
                    kf: Tensor[f32], kb: Tensor[f32], dt: f32) -> None:
    ta = tile.load_like(a, a_out)
    tb = tile.load_like(b, b_out)
    net = tile.load_like(kf, a_out) * ta - tile.load_like(kb, b_out) * tb
    a_out.store(ta - dt * net)
    b_out.store(tb + dt * net)


def rate_op(temps: np.ndarray, prefactor: float, activation: float) -> sk.DeviceOp:
    cells = temps.shape[0]
    launch = arrhenius(tile.zeros((cells,), f32).partition((TILE,)), tile.from_numpy(temps),
                       prefactor, activation)
    return launch.first().unpartition().shared()


@dataclass
class Reactor:
    a: object
    b: object
    a_out: object
    b_out: object


def make_reactor(cells: int) -> Reactor:
    return Reactor(a=tile.ones((cells,), f32), b=tile.zeros((cells,), f32),
                   a_out=tile.zeros((cells,), f32).partition((TILE,)),
                   b_out=tile.zeros((cells,), f32).partition((TILE,)))


def integrate(temps: np.ndarray, steps: int, dt: float) -> tuple[np.ndarray, np.ndarray]:
    stream = sk.Device.cpu().new_stream()
    kf = rate_op(temps, 4.0e3, 3.0e4)
    kb = rate_op(temps, 9.0e2, 2.5e4)
    r = make_reactor(temps.shape[0])
    for step in range(steps):
        r.a_out, r.b_out, r.a, r.b, _, _, _ = reversible_step(
            r.a_out, r.b_out, r.a, r.b, kf, kb, dt).sync_on(stream)
        r.a, r.a_out = r.a_out.unpartition(), r.a.partition((TILE,))
        r.b, r.b_out = r.b_out.unpartition(), r.b.partition((TILE,))
        if step == steps - 1:
            total = r.a.to_numpy(stream) + r.b.to_numpy(stream)
            assert np.allclose(total, 1.0, atol=1e-4), "mass balance drifted"
    return r.a.to_numpy(stream), r.b.to_numpy(stream)


if __name__ == "__main__":
    temperatures = np.linspace(300.0, 420.0, 500).astype(np.float32)
    a_final, b_final = integrate(temperatures, steps=6, dt=0.05)
    print(f"conversion, coldest cell {float(b_final[0]):.5f}, hottest {float(b_final[-1]):.5f}")
