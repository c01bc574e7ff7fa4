# fresh-expect: clean
# fresh-note: monthly payroll withholding with one launch_async per department kept in a dict; batches on hold are filtered out before any op is submitted, so every op in the dict is zipped and run.
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BRACKETS = (1000.0, 3000.0)  # monthly thresholds
RATES = (0.0, 0.2, 0.35)


@simt.kernel
@simt.launch_contract(block=32)
def withhold(gross: Slice[f32], net: DisjointSlice[f32], tax: DisjointSlice[f32], lo: f32, hi: f32, r1: f32, r2: f32) -> None:
    i = thread.index_1d().get()
    if i < len(gross):
        g = gross[i]
        owed = r1 * (min(g, hi) - lo) if g > lo else f32(0.0)
        if g > hi:
            owed += r2 * (g - hi)
        if (t := tax.get_mut(thread.index_1d())) is not None:
            t.set(owed)
        if (n := net.get_mut(thread.index_1d())) is not None:
            n.set(g - owed)


@dataclass
class PayBatch:
    dept: str
    gross: np.ndarray
    on_hold: bool = False

    def __len__(self) -> int:
        return len(self.gross)


@dataclass
class Payslips:
    dept: str
    net: np.ndarray
    tax: np.ndarray


@dataclass
class Payroll:
    stream: sk.Stream
    plans: dict[int, simt.PreparedLaunch] = field(default_factory=dict)
    audit: list[str] = field(default_factory=list)

    def plan_for(self, n: int) -> simt.PreparedLaunch:
        if n not in self.plans:
            self.plans[n] = withhold.prepare(simt.LaunchConfig1D.for_len(n, block=32), self.stream.device)
        return self.plans[n]

    def submit(self, batch: PayBatch) -> sk.DeviceOp:
        gross = sk.to_device(batch.gross.astype(np.float32), self.stream)
        net, tax = sk.zeros(len(batch), f32, self.stream), sk.zeros(len(batch), f32, self.stream)
        return withhold.launch_async(self.plan_for(len(batch)), gross, net, tax, *BRACKETS, *RATES[1:])

    def run(self, batches: list[PayBatch]) -> list[Payslips]:
        ops = {b.dept: self.submit(b) for b in batches if not b.on_hold}
        ready = [b for b in batches if not b.on_hold]
        self.audit.extend(f"{b.dept}: held for review" for b in batches if b.on_hold)
        values = sk.zip(*(ops[b.dept] for b in ready)).sync_on(self.stream)
        slips = []
        for batch, (_gross, net, tax, *_scalars) in zip(ready, values):
            slips.append(Payslips(batch.dept, net.to_numpy(self.stream), tax.to_numpy(self.stream)))
        return slips


def reference_tax(g: np.ndarray) -> np.ndarray:
    lo, hi = BRACKETS
    return np.where(g > lo, RATES[1] * (np.minimum(g, hi) - lo), 0.0) + np.where(g > hi, RATES[2] * (g - hi), 0.0)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    rng = np.random.default_rng(12)
    batches = [
        PayBatch("engineering", rng.uniform(2500, 7000, 40)),
        PayBatch("support", rng.uniform(900, 2600, 25)),
        PayBatch("contractors", rng.uniform(1500, 5000, 12), on_hold=True),
        PayBatch("sales", rng.uniform(1200, 6000, 30)),
    ]
    payroll = Payroll(stream)
    slips = payroll.run(batches)
    by_dept = {b.dept: b for b in batches}
    for slip in slips:
        np.testing.assert_allclose(slip.tax, reference_tax(by_dept[slip.dept].gross), rtol=1e-4, atol=1e-2)
        print(f"{slip.dept:>12}: {len(slip.net)} payslips, tax {slip.tax.sum():10.2f}")
    print("; ".join(payroll.audit))


if __name__ == "__main__":
    main()
