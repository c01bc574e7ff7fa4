# fresh-expect: E0502 at line 65
# fresh-note: Chocolate tempering line that blends seed profiles phase by phase through a dict of named buffers; after a phase it carries the result forward with `buffers["melt"] = buffers["out"]` instead of swapping, so the next phase's launch reads and writes one buffer.
"""Tempering-curve simulation for a chocolate enrobing line.

Each phase pulls the mass towards a target temperature by blending in a seed
profile.  The mass is kept in a small dict of named device buffers.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N_POINTS = 2048
BLOCK = 128


@simt.kernel
@simt.launch_contract(block=BLOCK)
def temper_blend(melt: Slice[f32], seed: Slice[f32], out: DisjointSlice[f32], ratio: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(melt[i] * (f32(1.0) - ratio) + seed[i] * ratio)


@dataclass(frozen=True)
class Phase:
    name: str
    target_c: float
    seed_ratio: float


PHASES = (
    Phase("melt", 45.0, 0.0),
    Phase("cool", 27.0, 0.25),
    Phase("rewarm", 31.5, 0.1),
    Phase("hold", 31.0, 0.05),
)


def seed_profile(target_c: float, n: int, stream: sk.Stream) -> sk.DeviceBuffer:
    ramp = np.linspace(-0.5, 0.5, n, dtype=np.float32)
    return sk.to_device((target_c + ramp).astype(np.float32), stream)


def run_curve(stream: sk.Stream, dev: sk.Device) -> list[tuple[str, float]]:
    buffers = {
        "melt": sk.to_device(np.full(N_POINTS, 48.0, np.float32), stream),
        "out": sk.zeros(N_POINTS, f32, stream),
    }
    prepared = temper_blend.prepare(simt.LaunchConfig1D.for_len(N_POINTS, block=BLOCK), dev)
    history: list[tuple[str, float]] = []
    for phase in PHASES:
        if phase.seed_ratio == 0.0:
            # pure melting phase: nothing to blend, just record the starting mass
            history.append((phase.name, float(buffers["melt"].to_numpy(stream).mean())))
            continue
        seed = seed_profile(phase.target_c, N_POINTS, stream)
        temper_blend.launch(prepared, stream, buffers["melt"], seed, buffers["out"], phase.seed_ratio)
        history.append((phase.name, float(buffers["out"].to_numpy(stream).mean())))
        buffers["melt"] = buffers["out"]  # carry the tempered mass into the next phase
    return history


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    for name, mean_c in run_curve(stream, dev):
        print(f"{name:>7}: {mean_c:6.2f} C")


if __name__ == "__main__":
    main()
