# fresh-expect: E0382 at line 61
from __future__ import annotations


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
def consecutive_step(a_out: Partition[f32], b_out: Partition[f32], c_out: Partition[f32],
                     a: Tensor[f32], b: Tensor[f32], c: Tensor[f32],
                     k1: Tensor[f32], k2: Tensor[f32], dt: f32) -> None:
    ta = tile.load_like(a, a_out)
    tb = tile.load_like(b, b_out)
    tc = tile.load_like(c, c_out)
    r1 = tile.load_like(k1, a_out) * ta
    r2 = tile.load_like(k2, b_out) * tb
    a_out.store(ta - dt * r1)
    b_out.store(tb + dt * (r1 - r2))
    c_out.store(tc + dt * r2)


def rate_constants(temps: np.ndarray, stream: sk.Stream) -> tuple[tile.Tensor, tile.Tensor]:
    cells = temps.shape[0]
    k1, _, _, _ = arrhenius(tile.zeros((cells,), f32).partition((TILE,)), tile.from_numpy(temps),
                            4.0e3, 3.0e4).sync_on(stream)
    k2, _, _, _ = arrhenius(tile.zeros((cells,), f32).partition((TILE,)), tile.from_numpy(temps),
                            9.0e2, 2.5e4).sync_on(stream)
    return k1.unpartition(), k2.unpartition()


def initial(cells: int) -> tuple[sk.DeviceOp, sk.DeviceOp, sk.DeviceOp]:
    return tile.ones((cells,), f32), tile.zeros((cells,), f32), tile.zeros((cells,), f32)


def outputs(cells: int) -> list[sk.DeviceOp]:
    return [tile.zeros((cells,), f32).partition((TILE,)) for _ in range(3)]


def integrate(temps: np.ndarray, steps: int, dt: float) -> dict[str, np.ndarray]:
    stream = sk.Device.cpu().new_stream()
    cells = temps.shape[0]
    k1, k2 = rate_constants(temps, stream)
    a, b, c = initial(cells)
    a_out, b_out, c_out = outputs(cells)
    for step in range(steps):
        a_out, b_out, c_out, a, b, c, k1, _, _ = consecutive_step(
            a_out, b_out, c_out, a, b, c, k1, k2, dt).sync_on(stream)
        # ping-pong: the fresh results become the inputs, the old inputs the next outputs
        a, a_out = a_out.unpartition(), a.partition((TILE,))
        b, b_out = b_out.unpartition(), b.partition((TILE,))
        c, c_out = c_out.unpartition(), c.partition((TILE,))
        if step % 2 == 1:
            mass = a.to_numpy(stream) + b.to_numpy(stream) + c.to_numpy(stream)
            assert np.allclose(mass, 1.0, atol=1e-4), "mass balance drifted"
    return {"A": a.to_numpy(stream), "B": b.to_numpy(stream), "C": c.to_numpy(stream)}


if __name__ == "__main__":
    temperatures = np.linspace(300.0, 420.0, 500).astype(np.float32)
    result = integrate(temperatures, steps=6, dt=0.05)
    hottest = {name: float(v[-1]) for name, v in result.items()}
    print("hottest cell composition:", hottest)
