# fresh-expect: clean
# fresh-note: Ham radio propagation logger that averages received signal reports per band with a shared-memory block reduction, every shared access and the unchecked per-band store kept inside unsafe blocks, including in the device helper.
"""Amateur radio: average signal-to-noise per band from a night of beacon reception reports."""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread

REPORTS = 128
BANDS = ("160m", "80m", "40m", "30m", "20m", "17m", "15m", "10m")


@simt.device
def mean_of_block(value: f32, t: i32) -> f32:
    with simt.unsafe():
        acc = simt.shared_array(f32, REPORTS)
        acc[t] = value
    thread.sync_threads()
    stride = REPORTS // 2
    while stride > 0:
        if t < stride:
            with simt.unsafe():
                acc[t] = acc[t] + acc[t + stride]
        thread.sync_threads()
        stride = stride // 2
    total = f32(0.0)
    with simt.unsafe():
        total = acc[0]
    return total / f32(REPORTS)


@simt.kernel
@simt.launch_contract(block=REPORTS)
def band_snr(snr_db: Slice[f32], mean_db: DisjointSlice[f32]) -> None:
    t = thread.thread_idx_x()
    band = thread.block_idx_x()
    i = band * REPORTS + t
    v = f32(-30.0)
    if i < len(snr_db):
        v = snr_db[i]
    m = mean_of_block(v, t)
    if t == 0 and band < len(mean_db):
        with simt.unsafe():
            mean_db.get_unchecked_mut(band).set(m)


def night_of_reports(rng: np.random.Generator) -> np.ndarray:
    openness = np.array([0.3, 0.8, 1.0, 0.9, 0.6, 0.3, 0.1, 0.05])
    base = -22.0 + 30.0 * openness[:, None]
    return (base + rng.normal(0.0, 4.0, (len(BANDS), REPORTS))).astype(np.float32)


class PropagationLog:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.history: list[np.ndarray] = []
        self._prepared = band_snr.prepare(simt.LaunchConfig1D(grid=len(BANDS), block=REPORTS), dev)

    def record(self, reports: np.ndarray) -> np.ndarray:
        snr = sk.to_device(reports.ravel(), self.stream)
        means = sk.zeros(len(BANDS), f32, self.stream)
        band_snr.launch(self._prepared, self.stream, snr, means)
        result = means.to_numpy(self.stream)
        self.history.append(result)
        return result

    def best_band(self) -> str:
        average = np.mean(self.history, axis=0)
        return BANDS[int(np.argmax(average))]


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    log = PropagationLog(dev, stream)
    rng = np.random.default_rng(73)
    for hour in ("22z", "00z", "02z"):
        means = log.record(night_of_reports(rng))
        opened = [band for band, snr in zip(BANDS, means) if snr > -10.0]
        print(f"{hour}: open bands {', '.join(opened)}")
    print("best band tonight:", log.best_band())


if __name__ == "__main__":
    main()
