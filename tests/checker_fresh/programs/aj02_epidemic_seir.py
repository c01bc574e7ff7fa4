# fresh-expect: clean
# fresh-note: SEIR epidemic with compartments kept in two dicts of buffers that a class swaps wholesale after each step, plus an async vaccination-demand kernel that reads the current state and is synced before the swap.
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

COMPARTMENTS = ("s", "e", "i", "r")


@simt.kernel
@simt.launch_contract(block=64)
def seir_step(s: Slice[f32], e: Slice[f32], i_: Slice[f32], r: Slice[f32],
              s_out: DisjointSlice[f32], e_out: DisjointSlice[f32], i_out: DisjointSlice[f32],
              r_out: DisjointSlice[f32], beta: f32, sigma: f32, gamma: f32) -> None:
    k = thread.index_1d().get()
    if k < len(s):
        infections = beta * s[k] * i_[k]
        onset = sigma * e[k]
        recover = gamma * i_[k]
        if (a := s_out.get_mut(thread.index_1d())) is not None:
            a.set(s[k] - infections)
        if (b := e_out.get_mut(thread.index_1d())) is not None:
            b.set(e[k] + infections - onset)
        if (c := i_out.get_mut(thread.index_1d())) is not None:
            c.set(i_[k] + onset - recover)
        if (d := r_out.get_mut(thread.index_1d())) is not None:
            d.set(r[k] + recover)


@simt.kernel
@simt.launch_contract(block=64)
def vaccine_demand(s: Slice[f32], i_: Slice[f32], demand: DisjointSlice[f32], per_capita: f32) -> None:
    idx = thread.index_1d()
    k = idx.get()
    if (o := demand.get_mut(idx)) is not None:
        o.set(per_capita * s[k] * (f32(1.0) + f32(10.0) * i_[k]))


def fresh_state(n: int, stream: sk.Stream) -> dict[str, sk.DeviceBuffer]:
    return {name: sk.zeros(n, f32, stream) for name in COMPARTMENTS}


class AgeGroups:
    def __init__(self, groups: int, dev: sk.Device) -> None:
        self.stream = dev.new_stream()
        init = {
            "s": np.linspace(0.99, 0.95, groups, dtype=np.float32),
            "e": np.full(groups, 0.01, np.float32),
            "i": np.full(groups, 0.005, np.float32),
            "r": np.zeros(groups, np.float32),
        }
        self.cur = {name: sk.to_device(arr, self.stream) for name, arr in init.items()}
        self.nxt = fresh_state(groups, self.stream)
        self.demand = sk.zeros(groups, f32, self.stream)
        cfg = simt.LaunchConfig1D.for_len(groups, block=64)
        self.step_launch = seir_step.prepare(cfg, dev)
        self.demand_launch = vaccine_demand.prepare(cfg, dev)

    def advance(self, beta: float, sigma: float = 0.2, gamma: float = 0.1) -> float:
        pending = vaccine_demand.launch_async(self.demand_launch, self.cur["s"], self.cur["i"],
                                              self.demand, 0.02)
        c, n = self.cur, self.nxt
        seir_step.launch(self.step_launch, self.stream, c["s"], c["e"], c["i"], c["r"],
                         n["s"], n["e"], n["i"], n["r"], beta, sigma, gamma)
        pending.sync_on(self.stream)
        self.cur, self.nxt = self.nxt, self.cur
        return float(self.demand.to_numpy(self.stream).sum())

    def infected(self) -> np.ndarray:
        return self.cur["i"].to_numpy(self.stream)


def main() -> None:
    model = AgeGroups(groups=200, dev=sk.Device.cpu())
    doses = []
    for week in range(5):
        beta = 0.4 if week < 3 else 0.2
        doses.append(model.advance(beta))
    print("doses per week:", [round(d, 3) for d in doses])
    print("infected, oldest group:", float(model.infected()[-1]))


if __name__ == "__main__":
    main()
