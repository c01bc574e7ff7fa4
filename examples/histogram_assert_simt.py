"""A histogram in the SIMT track with device `print`, `assert` and atomics, checked against numpy.

Every thread adds its value's bin with `fetch_add`, and `compare_exchange` records, per bin, the index of one
value that landed there (whichever thread got there first: the check below accepts any).  Thread 0 prints a
line from the GPU (`vprintf`; the CPU executor prints the same text), and an `assert` guards the bin range: a
value outside it stops the kernel with `sk.KernelAssertionError` naming this file's line, the message and the
thread.  The demonstration of a failing assert runs on the CPU executor, because a GPU trap leaves the CUDA
context unusable for the rest of the process.  `SAFEKERNELS_DISABLE_ASSERTS=1` compiles the asserts out.

Runs on the GPU when one is present, else on the CPU executor (`SAFEKERNELS_DEVICE=cpu|gpu` forces the choice).
"""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import i32, u32
from safekernels.simt import AtomicSlice, Slice, thread

BINS = 16


@simt.kernel
@simt.launch_contract(block=256)
def histogram(values: Slice[i32], counts: AtomicSlice[u32], witness: AtomicSlice[i32]) -> None:
    i = thread.index_1d().get()
    if i == 0:
        print("histogram: %d values into %d bins", len(values), len(counts))
    if i < len(values):
        v = values[i]
        assert 0 <= v < len(counts), "value outside the histogram's bins"
        counts.fetch_add(v, u32(1))
        witness.compare_exchange(v, i32(-1), i32(i), order="relaxed", scope="device")


def run(device: sk.Device, data: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Counts and witnesses of `data` (i32 values in 0..BINS-1) computed on `device`."""
    stream = device.new_stream()
    values = sk.to_device(data.astype(np.int32), stream)
    counts = sk.zeros(BINS, u32, stream)
    witness = sk.to_device(np.full(BINS, -1, np.int32), stream)
    launch = histogram.prepare(simt.LaunchConfig1D.for_len(len(data), block=256), device)
    histogram.launch(launch, stream, values, counts, witness)
    return counts.to_numpy(stream), witness.to_numpy(stream)


def main() -> None:
    device = sk.Device.default()
    rng = np.random.default_rng(0)
    n = 1 << 20 if device.is_gpu else 5_000
    data = rng.integers(0, BINS, n).astype(np.int32)
    counts, witness = run(device, data)
    np.testing.assert_array_equal(counts, np.bincount(data, minlength=BINS))
    for b in range(BINS):  # each witness is the index of some value in its bin (any thread may have won)
        assert witness[b] == -1 if counts[b] == 0 else data[witness[b]] == b
    bad = data[:300].copy()
    bad[257] = BINS  # one value out of range
    try:
        run(sk.Device.cpu(), bad)
        raise SystemExit("expected a KernelAssertionError")
    except sk.KernelAssertionError as exc:
        print(f"caught: {exc}")
    print(f"histogram_assert_simt: {n} values into {BINS} bins on {device!r}")
    print("PASSED")


if __name__ == "__main__":
    main()
