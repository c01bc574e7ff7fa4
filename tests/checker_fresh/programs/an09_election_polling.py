# fresh-expect: E0499 at line 84
# fresh-note: Election poll weighting by raking: `tally_buffers` builds the per-party outputs with dict.fromkeys, which stores one zeros buffer under every party, so the vote split gets the same buffer as its dem and rep outputs.
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import AtomicSlice, DisjointSlice, Slice, thread

BLOCK = 128
PARTIES = ("dem", "rep")
SWEEPS = 4


@simt.kernel
@simt.launch_contract(block=BLOCK)
def category_totals(weights: Slice[f32], codes: Slice[i32], totals: AtomicSlice[f32]) -> None:
    i = thread.index_1d().get()
    if i < len(weights):
        totals.fetch_add(codes[i], weights[i])


@simt.kernel
@simt.launch_contract(block=BLOCK)
def apply_factors(weights: Slice[f32], codes: Slice[i32], factors: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(weights[i] * factors[codes[i]])


@simt.kernel
@simt.launch_contract(block=BLOCK)
def split_vote(weights: Slice[f32], vote: Slice[i32], dem: DisjointSlice[f32], rep: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (d := dem.get_mut(idx)) is not None:
        d.set(weights[i] if vote[i] == 0 else f32(0.0))
    if (r := rep.get_mut(thread.index_1d())) is not None:
        r.set(weights[i] if vote[i] == 1 else f32(0.0))


@dataclass
class Margin:
    name: str
    codes: sk.DeviceBuffer
    targets: np.ndarray  # population shares per category


def tally_buffers(parties: tuple[str, ...], n: int, stream: sk.Stream) -> dict[str, sk.DeviceBuffer]:
    return dict.fromkeys(parties, sk.zeros(n, f32, stream))


class Raker:
    def __init__(self, n: int, device: sk.Device) -> None:
        self.n = n
        self.stream = device.new_stream()
        cfg = simt.LaunchConfig1D.for_len(n, block=BLOCK)
        self.totals_launch = category_totals.prepare(cfg, device)
        self.apply_launch = apply_factors.prepare(cfg, device)
        self.split_launch = split_vote.prepare(cfg, device)

    def rake(self, margins: list[Margin]) -> sk.DeviceBuffer:
        s = self.stream
        w = sk.to_device(np.ones(self.n, np.float32), s)
        w_next = sk.zeros(self.n, f32, s)
        for _ in range(SWEEPS):
            for margin in margins:
                totals = sk.zeros(len(margin.targets), f32, s)
                category_totals.launch(self.totals_launch, s, w, margin.codes, totals)
                t = totals.to_numpy(s)
                factors = sk.to_device((margin.targets * t.sum() / np.maximum(t, 1e-6)).astype(np.float32), s)
                op = apply_factors.launch_async(self.apply_launch, w, margin.codes, factors, w_next)
                w, _, _, w_next = op.sync_on(s)
                w, w_next = w_next, w
        return w

    def shares(self, weights: sk.DeviceBuffer, vote: sk.DeviceBuffer) -> dict[str, float]:
        tallies = tally_buffers(PARTIES, self.n, self.stream)
        op = split_vote.launch_async(self.split_launch, weights, vote, tallies["dem"], tallies["rep"])
        op.sync_on(self.stream)
        total = float(weights.to_numpy(self.stream).sum())
        return {party: float(buf.to_numpy(self.stream).sum()) / total for party, buf in tallies.items()}


def main() -> None:
    rng = np.random.default_rng(2024)
    n = 500
    age = rng.choice(4, n, p=[0.1, 0.2, 0.3, 0.4]).astype(np.int32)  # the sample skews old
    region = rng.choice(3, n, p=[0.5, 0.3, 0.2]).astype(np.int32)
    vote = np.where(rng.random(n) < 0.35 + 0.1 * (age >= 2), 1, np.where(rng.random(n) < 0.8, 0, 2)).astype(np.int32)
    raker = Raker(n, sk.Device.cpu())
    s = raker.stream
    margins = [
        Margin("age", sk.to_device(age, s), np.array([0.22, 0.26, 0.27, 0.25])),
        Margin("region", sk.to_device(region, s), np.array([0.4, 0.35, 0.25])),
    ]
    weights = raker.rake(margins)
    w = weights.to_numpy(s)
    for m, codes in zip(margins, (age, region)):
        got = np.bincount(codes, weights=w, minlength=len(m.targets)) / w.sum()
        assert np.allclose(got, m.targets, atol=0.02), (m.name, got)
    shares = raker.shares(weights, sk.to_device(vote, s))
    deff = n * float((w ** 2).sum()) / float(w.sum()) ** 2
    print({p: round(v, 3) for p, v in shares.items()}, f"design effect {deff:.2f}")


if __name__ == "__main__":
    main()
