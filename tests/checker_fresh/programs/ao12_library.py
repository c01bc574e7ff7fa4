# fresh-expect: clean
# fresh-note: Library circulation twin: report_sections() returns the disjoint slices [HEADER, HEADER+n) and [HEADER+n, HEADER+2n), so the two outputs do not overlap.
"""Public library circulation: overdue days and fines per loan, packed into one report buffer per branch."""
from collections import defaultdict
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import i32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 128
HEADER = 1  # slot 0 of every report holds the branch's loan count
GRACE_DAYS = 3


@simt.kernel
@simt.launch_contract(block=BLOCK)
def assess(due_day: Slice[i32], overdue: DisjointSlice[i32], fines: DisjointSlice[i32], today: i32, cents_per_day: i32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i >= len(due_day):
        return
    late = max(today - due_day[i] - GRACE_DAYS, 0)
    if (o := overdue.get_mut(idx)) is not None:
        o.set(late)
    if (f := fines.get_mut(thread.index_1d())) is not None:
        f.set(min(late * cents_per_day, 1000))


@dataclass
class Branch:
    name: str
    loans: int
    cents_per_day: int


def report_sections(report: sk.DeviceBuffer, n: int) -> tuple[sk.DeviceBuffer, sk.DeviceBuffer]:
    """The two sections after the header: overdue days, then fines."""
    overdue = report[HEADER : HEADER + n]
    fines = report[HEADER + n : HEADER + 2 * n]
    return overdue, fines


class Circulation:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.dev = dev
        self.stream = stream
        self._launches: dict[int, simt.PreparedLaunch] = {}

    def launch_for(self, n: int) -> simt.PreparedLaunch:
        if n not in self._launches:
            self._launches[n] = assess.prepare(simt.LaunchConfig1D.for_len(n, block=BLOCK), self.dev)
        return self._launches[n]

    def run_branch(self, branch: Branch, due_days: np.ndarray, today: int) -> np.ndarray:
        n = branch.loans
        due = sk.to_device(due_days.astype(np.int32), self.stream)
        report = sk.zeros(HEADER + 2 * n, i32, self.stream)
        overdue, fines = report_sections(report, n)
        assess.launch(self.launch_for(n), self.stream, due, overdue, fines, today, branch.cents_per_day)
        host = report.to_numpy(self.stream)
        host[0] = n
        return host


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(451)
    today = 200
    branches = [Branch("Central", 1500, 25), Branch("Riverside", 640, 20), Branch("Hilltop", 640, 10)]
    circulation = Circulation(dev, stream)
    totals: dict[str, dict[str, float]] = defaultdict(dict)
    for branch in branches:
        due_days = today + rng.integers(-30, 21, branch.loans)
        report = circulation.run_branch(branch, due_days, today)
        n = int(report[0])
        overdue = report[HEADER : HEADER + n]
        fines = report[HEADER + n : HEADER + 2 * n]
        totals[branch.name]["late_loans"] = int((overdue > 0).sum())
        totals[branch.name]["fines_eur"] = fines.sum() / 100.0
    for name, stats in totals.items():
        print(f"{name:10s} {stats['late_loans']:5d} late loans, {stats['fines_eur']:8.2f} EUR in fines")
    print("prepared launch sizes:", sorted(circulation._launches))


if __name__ == "__main__":
    main()
