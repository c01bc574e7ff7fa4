# fresh-expect: E0499 at line 73
# fresh-note: Airship ballast trim writes fore and aft transfer windows of one arena, but with an odd cell count the fore window [0, (n+1)//2) and aft window [n//2, n) share the centre bag, so both mutable outputs alias.
"""Airship ballast trim: redistribute water ballast between the fore and aft cell groups.

One kernel computes fore and aft transfer volumes in a single pass over the ballast cells,
writing two output windows of a shared transfer arena. The trim loop iterates until the
pitch moment falls below tolerance.
"""
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

CELLS = 45  # ballast bags along the keel, odd: one bag sits on the centre frame
TOLERANCE = 2.0
MAX_ROUNDS = 10


@simt.kernel
@simt.launch_contract(block=32)
def trim_transfer(mass: Slice[f32], arm: Slice[f32], fore: DisjointSlice[f32], aft: DisjointSlice[f32], moment: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    share = moment / f32(len(mass))
    if (f := fore.get_mut(idx)) is not None:
        f.set(-share / max(abs(arm[i]), 1.0))
    idx2 = thread.index_1d()
    j = idx2.get() + len(mass) - len(aft)
    if (a := aft.get_mut(idx2)) is not None:
        a.set(share / max(abs(arm[j]), 1.0) * min(mass[j] / 200.0, 1.0))


@simt.kernel
@simt.launch_contract(block=32)
def apply_transfer(delta: Slice[f32], mass: DisjointSlice[f32], floor: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (m := mass.get_mut(idx)) is not None:
        m.set(max(m.get() + delta[i], floor))


def pitch_moment(mass: np.ndarray, arm: np.ndarray) -> float:
    return float((mass * arm).sum())


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(1936)

    arm_host = np.linspace(-110.0, 110.0, CELLS, dtype=np.float32)  # metres from the centre of lift
    mass_host = rng.uniform(180.0, 260.0, CELLS).astype(np.float32)
    mass_host[-6:] += 90.0  # crew quarters loaded aft
    mass = sk.to_device(mass_host, stream)
    arm = sk.to_device(arm_host, stream)

    transfer = sk.zeros(CELLS, f32, stream)
    fore_cells = (CELLS + 1) // 2   # the centre bag counts as fore
    aft_start = CELLS // 2
    fore = transfer.view(0, fore_cells)
    aft = transfer.view(aft_start, CELLS)

    plan = trim_transfer.prepare(simt.LaunchConfig1D.for_len(fore_cells, block=32), dev)
    apply_plan = apply_transfer.prepare(simt.LaunchConfig1D.for_len(CELLS, block=32), dev)

    rounds = 0
    moment = pitch_moment(mass_host, arm_host)
    while abs(moment) > TOLERANCE and rounds < MAX_ROUNDS:
        trim_transfer.launch(plan, stream, mass, arm, fore, aft, moment)
        apply_transfer.launch(apply_plan, stream, transfer, mass, 50.0)
        moment = pitch_moment(mass.to_numpy(stream), arm_host)
        rounds += 1
        print(f"round {rounds}: pitch moment {moment:10.1f} kg*m")
    else:
        print("trim loop finished")

    final = mass.to_numpy(stream)
    print(f"fore {final[:CELLS // 2].sum():8.1f} kg, aft {final[CELLS // 2 + 1:].sum():8.1f} kg after {rounds} rounds")


if __name__ == "__main__":
    main()
