# fresh-expect: E0502 at line 63
# fresh-note: SIR epidemic over a ring of regions with ping-pong state buffers held on a class; the swap method has a typo (`self.inf, self.inf_next = self.inf_next, self.inf_next`) so the next step reads and writes the same infected buffer.
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def sir_step(sus: Slice[f32], inf: Slice[f32], rec: Slice[f32], sus_out: DisjointSlice[f32],
             inf_out: DisjointSlice[f32], rec_out: DisjointSlice[f32], beta: f32, gamma: f32,
             mobility: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    n = len(inf)
    if i < n:
        left = inf[(i + n - 1) % n]
        right = inf[(i + 1) % n]
        pressure = inf[i] + mobility * (left + right - f32(2.0) * inf[i])
        new_cases = beta * sus[i] * pressure
        recovered = gamma * inf[i]
        if (o := inf_out.get_mut(idx)) is not None:
            o.set(inf[i] + new_cases - recovered)
        j = thread.index_1d()
        if (s := sus_out.get_mut(j)) is not None:
            s.set(sus[i] - new_cases)
        k = thread.index_1d()
        if (r := rec_out.get_mut(k)) is not None:
            r.set(rec[i] + recovered)


@dataclass
class Params:
    beta: float = 0.3
    gamma: float = 0.1
    mobility: float = 0.05


class SirModel:
    def __init__(self, regions: int, seed_region: int, stream: sk.Stream, dev: sk.Device) -> None:
        self.stream = stream
        sus = np.full(regions, 0.999, np.float32)
        inf = np.zeros(regions, np.float32)
        inf[seed_region] = 0.001
        sus[seed_region] = 0.998
        self.sus = sk.to_device(sus, stream)
        self.inf = sk.to_device(inf, stream)
        self.rec = sk.zeros(regions, f32, stream)
        self.sus_next = sk.zeros(regions, f32, stream)
        self.inf_next = sk.zeros(regions, f32, stream)
        self.rec_next = sk.zeros(regions, f32, stream)
        self.prepared = sir_step.prepare(simt.LaunchConfig1D.for_len(regions, block=128), dev)

    def step(self, p: Params) -> None:
        sir_step.launch(self.prepared, self.stream, self.sus, self.inf, self.rec,
                        self.sus_next, self.inf_next, self.rec_next,
                        p.beta, p.gamma, p.mobility)
        self.swap()

    def swap(self) -> None:
        self.sus, self.sus_next = self.sus_next, self.sus
        self.inf, self.inf_next = self.inf_next, self.inf_next
        self.rec, self.rec_next = self.rec_next, self.rec

    def totals(self) -> tuple[float, float, float]:
        return (float(self.sus.to_numpy(self.stream).sum()),
                float(self.inf.to_numpy(self.stream).sum()),
                float(self.rec.to_numpy(self.stream).sum()))


def simulate(days: int, regions: int = 500) -> list[tuple[float, float, float]]:
    dev = sk.Device.cpu()
    model = SirModel(regions, seed_region=regions // 2, stream=dev.new_stream(), dev=dev)
    params = Params()
    history = [model.totals()]
    for day in range(days):
        if day == days // 2:
            params = Params(beta=0.15, gamma=0.1, mobility=0.01)   # lockdown
        model.step(params)
        history.append(model.totals())
    return history


if __name__ == "__main__":
    hist = simulate(days=6)
    peak = max(h[1] for h in hist)
    print(f"peak infected mass {peak:.4f}, final {hist[-1]}")
