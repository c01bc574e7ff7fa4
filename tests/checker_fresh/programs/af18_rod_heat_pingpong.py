# fresh-expect: clean
# idiom: launch_async ping-pong with a name swap; the overlapped heat probe reads the step's source buffer (clean)
"""Heat diffusion along an insulated rod, explicit Euler with double buffering.

Each step is launched asynchronously from one buffer into the other and the names are swapped.
While a step is in flight, a probe kernel sums the heat of the state the step reads, so the
diagnostics overlap the simulation.  With insulated ends the total heat must stay constant.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, u32
from safekernels.simt import AtomicSlice, DisjointSlice, Slice, thread

BLOCK = 128


@simt.kernel
@simt.launch_contract(block=BLOCK, requires=("len(src) >= len(dst)",))
def diffuse(src: Slice[f32], dst: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    last = len(dst) - 1
    if (out := dst.get_mut(idx)) is not None:
        left = src[max(i - 1, 0)]
        right = src[min(i + 1, last)]
        out.set(src[i] + alpha * (left + right - 2.0 * src[i]))


@simt.kernel
@simt.launch_contract(block=BLOCK, requires=("len(probes) > slot",))
def heat_probe(state: Slice[f32], probes: AtomicSlice[f32], slot: u32) -> None:
    i = thread.index_1d().get()
    if i < len(state):
        probes.fetch_add(slot, state[i])


@dataclass
class Rod:
    cur: sk.DeviceBuffer
    nxt: sk.DeviceBuffer
    probes: sk.DeviceBuffer
    alpha: float


def make_rod(profile: np.ndarray, samples: int, alpha: float, stream: sk.Stream) -> Rod:
    cur = sk.to_device(profile.astype(np.float32), stream)
    return Rod(cur, sk.zeros(len(profile), f32, stream), sk.zeros(samples, f32, stream), alpha)


def simulate(rod: Rod, steps: int, every: int, dev: sk.Device, stream: sk.Stream) -> np.ndarray:
    n = len(rod.cur)
    step_launch = diffuse.prepare(simt.LaunchConfig1D.for_len(n, block=BLOCK), dev)
    probe_launch = heat_probe.prepare(simt.LaunchConfig1D.for_len(n, block=BLOCK), dev)
    cur, nxt = rod.cur, rod.nxt
    for step in range(steps):
        pending = diffuse.launch_async(step_launch, cur, nxt, rod.alpha)
        cur, nxt = nxt, cur
        if step % every == 0:
            heat_probe.launch(probe_launch, stream, nxt, rod.probes, step // every)
        pending.sync_on(stream)
    rod.cur, rod.nxt = cur, nxt
    return rod.probes.to_numpy(stream)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    n, steps, every = 200, 60, 10
    x = np.linspace(0.0, 1.0, n)
    profile = np.exp(-((x - 0.3) ** 2) / 0.005) + 0.5 * (x > 0.8)
    rod = make_rod(profile, samples=steps // every, alpha=0.2, stream=stream)
    probes = simulate(rod, steps, every, dev, stream)
    final = rod.cur.to_numpy(stream)
    np.testing.assert_allclose(probes, profile.sum(), rtol=1e-4)
    assert final.max() < profile.max(), "diffusion should flatten the peak"
    print(f"heat {profile.sum():.4f} conserved over {steps} steps; peak {profile.max():.3f} -> {final.max():.3f}")


if __name__ == "__main__":
    main()
