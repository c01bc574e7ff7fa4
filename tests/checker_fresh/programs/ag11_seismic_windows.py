# fresh-expect: clean
# seismic trace STA/LTA-style windowed energy: a shared-memory block reduction helper with its own unsafe block
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import AtomicSlice, Slice, thread

WINDOW = 128  # samples per window = threads per block


@simt.device
def block_sum(value: f32, t: int) -> f32:
    """Tree reduction of one value per thread over the block; every thread gets the total."""
    with simt.unsafe():  # t < WINDOW, and every index below stays inside the WINDOW-long scratch array
        scratch = simt.shared_array(f32, WINDOW)
        scratch[t] = value
        thread.sync_threads()
        stride = WINDOW // 2
        while stride > 0:
            if t < stride:
                scratch[t] = scratch[t] + scratch[t + stride]
            thread.sync_threads()
            stride = stride // 2
        total = scratch[0]
    return total


@simt.kernel
@simt.launch_contract(block=WINDOW)
def window_energy(trace: Slice[f32], energy: AtomicSlice[f32]) -> None:
    i = thread.index_1d().get()
    t = thread.thread_idx_x()
    x = trace[i] if i < len(trace) else f32(0.0)
    total = block_sum(x * x, t)
    if t == 0:
        energy.fetch_add(thread.block_idx_x(), total / WINDOW)


def detect_events(energy: np.ndarray, short: int = 2, long: int = 10, threshold: float = 4.0) -> list[int]:
    events = []
    for w in range(long, len(energy)):
        sta = energy[w - short + 1 : w + 1].mean()
        lta = energy[w - long : w].mean() + 1e-9
        if sta / lta > threshold and (not events or w - events[-1] > short):
            events.append(w)
    return events


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(17)
    n = 32 * WINDOW
    trace = rng.normal(0.0, 0.1, n).astype(np.float32)
    for onset in (12 * WINDOW, 25 * WINDOW + 40):
        burst = np.exp(-np.arange(300) / 80.0) * np.sin(np.arange(300) * 0.3)
        trace[onset : onset + 300] += burst.astype(np.float32) * 2.0

    trace_buf = sk.to_device(trace, stream)
    energy = sk.zeros(n // WINDOW, f32, stream)
    prepared = window_energy.prepare(simt.LaunchConfig1D.for_len(n, block=WINDOW), dev)
    window_energy.launch(prepared, stream, trace_buf, energy)

    got = energy.to_numpy(stream)
    np.testing.assert_allclose(got, (trace.reshape(-1, WINDOW) ** 2).mean(axis=1), rtol=1e-4)
    print("event windows:", detect_events(got))


if __name__ == "__main__":
    main()
