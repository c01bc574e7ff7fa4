# fresh-expect: E0502 at line 87
# fresh-known-miss: cli,mypy a one-slot ring (a list comprehension over `range(ring_slots(profile))`, 1 under a `match`) read at `ticks % len` and `(ticks + 1) % len`: the ring's length is not computed
# fresh-note: EMA scheduler whose ring size comes from a match on the profile's memory mode; the "edge" profile is "low" and gets a one-slot ring, so read_slot() and write_slot() return the same buffer and the launch_async at line 86 passes it as both prev (Slice) and nxt (DisjointSlice).
"""A streaming-statistics scheduler that keeps a running EMA of feature vectors in a ring of state buffers.

Observations arrive in a queue; every tick the scheduler reads the current state slot, blends the next
observation in and writes the following slot, so readers of older slots are never disturbed.  How many
slots the ring has depends on the deployment profile's memory mode.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

DIM = 96
BLOCK = 32


@simt.kernel
@simt.launch_contract(block=BLOCK)
def ema_update(prev: Slice[f32], obs: Slice[f32], nxt: DisjointSlice[f32], decay: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := nxt.get_mut(idx)) is not None:
        out.set(decay * prev[i] + (1.0 - decay) * obs[i])


@dataclass(frozen=True)
class Profile:
    name: str
    memory_mode: str
    decay: float = 0.9


PROFILES = {
    "datacenter": Profile("datacenter", "throughput"),
    "edge": Profile("edge", "low", decay=0.8),
}


def ring_slots(profile: Profile) -> int:
    match profile.memory_mode:
        case "throughput":
            return 3
        case "balanced":
            return 2
        case "low":
            return 1  # update the state in place
        case other:
            raise ValueError(f"unknown memory mode {other!r}")


@dataclass
class EmaScheduler:
    profile: Profile
    device: sk.Device
    pending: deque[np.ndarray] = field(default_factory=deque)
    ticks: int = 0

    def __post_init__(self) -> None:
        self.stream = self.device.new_stream()
        self.ring = [sk.zeros(DIM, f32, self.stream) for _ in range(ring_slots(self.profile))]
        self.prepared = ema_update.prepare(simt.LaunchConfig1D.for_len(DIM, block=BLOCK), self.device)

    def read_slot(self) -> sk.DeviceBuffer:
        return self.ring[self.ticks % len(self.ring)]

    def write_slot(self) -> sk.DeviceBuffer:
        return self.ring[(self.ticks + 1) % len(self.ring)]

    def enqueue(self, obs: np.ndarray) -> None:
        self.pending.append(obs.astype(np.float32))

    def tick(self) -> bool:
        if not self.pending:
            return False
        obs = sk.to_device(self.pending.popleft(), self.stream)
        src, dst = self.read_slot(), self.write_slot()
        op = ema_update.launch_async(self.prepared, src, obs, dst, self.profile.decay)
        op.sync_on(self.stream)
        self.ticks += 1
        return True

    def snapshot(self) -> np.ndarray:
        return self.read_slot().to_numpy(self.stream)


def serve(profile_name: str, steps: int) -> np.ndarray:
    sched = EmaScheduler(PROFILES[profile_name], sk.Device.cpu())
    rng = np.random.default_rng(2)
    for _ in range(steps):
        sched.enqueue(rng.standard_normal(DIM) + 1.0)
    while sched.tick():
        pass
    return sched.snapshot()


def main() -> None:
    state = serve("edge", steps=6)
    print("edge EMA mean:", float(state.mean()))


if __name__ == "__main__":
    main()
