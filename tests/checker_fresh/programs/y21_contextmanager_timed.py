# fresh-expect: clean
"""Fill a histogram of byte values with a raw launch inside a timing context and an explicit unsafe block."""
import time
from contextlib import ExitStack, contextmanager

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import u32
from safekernels.simt import AtomicSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=256)
def byte_hist(data: Slice[u32], counts: AtomicSlice[u32]) -> None:
    i = thread.index_1d().get()
    if i < len(data):
        counts.fetch_add(data[i] & u32(255), u32(1))


@contextmanager
def timed(label: str):
    start = time.perf_counter()
    try:
        yield
    finally:
        print(f"{label}: {1e3 * (time.perf_counter() - start):.1f} ms")


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    n = 10_000
    rng = np.random.default_rng(17)
    host = rng.integers(0, 1 << 20, n).astype(np.uint32)
    data = sk.to_device(host, stream)
    counts = sk.zeros(256, u32, stream)
    config = simt.LaunchConfig1D.for_len(n, block=256)
    with ExitStack() as stack:
        stack.enter_context(timed("byte_hist"))
        with simt.unsafe():  # grid computed from len(data), block matches the contract
            byte_hist.launch_unchecked(config, stream, data, counts)
    got = counts.to_numpy(stream)
    np.testing.assert_array_equal(got, np.bincount(host & 255, minlength=256))
    print("most common byte", int(got.argmax()))


if __name__ == "__main__":
    main()
