# fresh-expect: clean
# fresh-known-false-alarm: cli,mypy false E0382 at 56: a dataclass built from a local in one arm of a state-machine loop, moved by a helper in another arm and rebuilt: a move is recorded per function state, not per path, so the joined loop state sees the rebuilt object as moved
# fresh-note: A metapopulation SIR epidemic runs as an enum-driven state machine whose tile launches move the S/I/R tensors of a dataclass and store the handed-back tensors into the next state.
"""Metapopulation SIR model with a lockdown phase, ported from a numpy notebook."""
from dataclasses import dataclass
from enum import Enum, auto
import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

PATCHES = 300
TILE = 100


class Phase(Enum):
    SEED = auto()
    SPREAD = auto()
    LOCKDOWN = auto()
    DONE = auto()


@tile.kernel
def sir_step(s_new: Partition[f32], i_new: Partition[f32], s: Tensor[f32], i: Tensor[f32], beta: f32, gamma: f32) -> None:
    s_loc = tile.load_like(s, s_new)
    i_loc = tile.load_like(i, i_new)
    mixing = tile.sum(i.load((0,), (PATCHES,))) / PATCHES
    force = beta * (0.8 * i_loc + 0.2 * mixing)
    infected = s_loc * force
    s_new.store(s_loc - infected)
    i_new.store(i_loc + infected - gamma * i_loc)


@simt.kernel
@simt.launch_contract(block=128)
def attack_rate(s_final: Slice[f32], s_start: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(1.0 - s_final[i] / s_start[i])


@dataclass
class Epidemic:
    s: tile.Tensor
    i: tile.Tensor
    day: int = 0


def advance(state: Epidemic, beta: float, gamma: float, stream: sk.Stream) -> Epidemic:
    s_parts = tile.zeros((PATCHES,), f32).partition((TILE,))
    i_parts = tile.zeros((PATCHES,), f32).partition((TILE,))
    s_parts, i_parts, _s, _i, _b, _g = sir_step(s_parts, i_parts, state.s, state.i, beta, gamma).sync_on(stream)
    return Epidemic(s_parts.unpartition(), i_parts.unpartition(), state.day + 1)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(2)
    phase = Phase.SEED
    state = None
    prevalence = []
    while phase is not Phase.DONE:
        match phase:
            case Phase.SEED:
                seeds = np.zeros(PATCHES, np.float32)
                seeds[rng.choice(PATCHES, 5, replace=False)] = 0.01
                s_start = sk.to_device(1.0 - seeds, stream)
                s0 = tile.from_numpy(1.0 - seeds).sync_on(stream)
                state = Epidemic(s0, tile.from_numpy(seeds).sync_on(stream))
                phase = Phase.SPREAD
            case Phase.SPREAD | Phase.LOCKDOWN:
                beta = 0.45 if phase is Phase.SPREAD else 0.12
                state = advance(state, beta, 0.1, stream)
                prevalence.append(float(state.i.to_numpy(stream).mean()))
                if phase is Phase.SPREAD and prevalence[-1] > 0.05:
                    phase = Phase.LOCKDOWN
                elif state.day >= 80 or prevalence[-1] < 1e-4:
                    phase = Phase.DONE
    rates = sk.zeros(PATCHES, f32, stream)
    plan = attack_rate.prepare(simt.LaunchConfig1D.for_len(PATCHES, block=128), dev)
    attack_rate.launch(plan, stream, state.s.as_buffer(), s_start, rates)
    per_patch = rates.to_numpy(stream)
    assert np.all(per_patch >= 0.0) and np.all(per_patch <= 1.0)
    print(f"days={state.day} peak={max(prevalence):.3f} mean attack rate={per_patch.mean():.3f}")


if __name__ == "__main__":
    main()
