# fresh-expect: E0499 at line 57
# fresh-note: A prioritized replay buffer computes TD errors and priorities with one SIMT kernel that has two DisjointSlice outputs; the output dict is built with dict.fromkeys around a single sk.zeros call, so both outputs are one buffer and the launch borrows it mutably twice.
"""Proportional prioritized experience replay: TD errors and priorities on the device, sampling on the host,
and a per-slot sample counter kept with atomics."""
import math

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32, u32
from safekernels.simt import AtomicSlice, DisjointSlice, Slice, thread

INPUT_KEYS = ("reward", "value", "next_value", "done")
OUTPUT_KEYS = ("td_error", "priority")


@simt.kernel
@simt.launch_contract(block=64)
def td_priority(rew: Slice[f32], v: Slice[f32], v_next: Slice[f32], done: Slice[f32],
                td: DisjointSlice[f32], prio: DisjointSlice[f32], gamma: f32, alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i >= len(rew):
        return
    delta = rew[i] + gamma * (1.0 - done[i]) * v_next[i] - v[i]
    if (out := td.get_mut(idx)) is not None:
        out.set(delta)
    j = thread.index_1d()
    if (p := prio.get_mut(j)) is not None:
        p.set(math.exp(alpha * math.log(abs(delta) + 1e-3)))


@simt.kernel
@simt.launch_contract(block=64)
def count_hits(samples: Slice[i32], hits: AtomicSlice[u32]) -> None:
    i = thread.index_1d().get()
    if i < len(samples):
        hits.fetch_add(samples[i], u32(1))


class PrioritizedReplay:
    def __init__(self, capacity: int, device: sk.Device, stream: sk.Stream, alpha: float = 0.6) -> None:
        self.capacity, self.stream, self.alpha = capacity, stream, alpha
        self.inputs = {key: sk.zeros(capacity, f32, stream) for key in INPUT_KEYS}
        self.outputs = dict.fromkeys(OUTPUT_KEYS, sk.zeros(capacity, f32, stream))
        self.hits = sk.zeros(capacity, u32, stream)
        self.td_prep = td_priority.prepare(simt.LaunchConfig1D.for_len(capacity, block=64), device)
        self.device = device

    def load(self, batch: dict[str, np.ndarray]) -> None:
        for key, host in batch.items():
            self.inputs[key].copy_from_numpy(host.astype(np.float32), self.stream)

    def refresh_priorities(self, gamma: float = 0.99) -> np.ndarray:
        args = [self.inputs[key] for key in INPUT_KEYS]
        td_priority.launch(self.td_prep, self.stream, *args, self.outputs["td_error"], self.outputs["priority"], gamma, self.alpha)
        return self.outputs["priority"].to_numpy(self.stream)

    def sample(self, rng: np.random.Generator, batch: int, beta: float = 0.4) -> tuple[np.ndarray, np.ndarray]:
        prio = self.refresh_priorities()
        probs = prio / prio.sum()
        try:
            picks = rng.choice(self.capacity, size=batch, p=probs).astype(np.int32)
        except ValueError:  # non-finite priorities: fall back to uniform sampling this round
            probs = np.full(self.capacity, 1.0 / self.capacity)
            picks = rng.choice(self.capacity, size=batch).astype(np.int32)
        weights = (self.capacity * probs[picks]) ** -beta
        picked = sk.to_device(picks, self.stream)
        prep = count_hits.prepare(simt.LaunchConfig1D.for_len(batch, block=64), self.device)
        count_hits.launch(prep, self.stream, picked, self.hits)
        return picks, weights / weights.max()


def main() -> None:
    device = sk.Device.default()
    stream = device.new_stream()
    rng = np.random.default_rng(5)
    cap = 128
    replay = PrioritizedReplay(cap, device, stream)
    replay.load({
        "reward": rng.normal(size=cap), "value": rng.normal(size=cap),
        "next_value": rng.normal(size=cap), "done": (rng.random(cap) < 0.1).astype(np.float32),
    })
    for _ in range(4):
        picks, weights = replay.sample(rng, 32)
    hits = replay.hits.to_numpy(stream)
    print(f"sampled {hits.sum()} transitions, {np.count_nonzero(hits)} distinct, min weight {weights.min():.3f}")


if __name__ == "__main__":
    main()
