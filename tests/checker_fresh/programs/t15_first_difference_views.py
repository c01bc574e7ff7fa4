# fresh-expect: E0502 at line 27
"""First differences of a time series computed in place with two shifted views of one buffer."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def diff(prev: Slice[f32], cur: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(cur[i] - prev[i])


def differences(series: np.ndarray, dev, stream) -> np.ndarray:
    n = series.size
    buf = sk.to_device(series, stream)
    prev = buf.view(0, n - 1)
    cur = buf.view(1, n)
    prep = diff.prepare(simt.LaunchConfig1D.for_len(n - 1, block=128), dev)
    diff.launch(prep, stream, prev, cur, prev)  # BUG: writes the series it is still reading
    return buf.to_numpy(stream)[: n - 1]


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prices = np.cumsum(np.ones(1000, np.float32))
    d = differences(prices, dev, stream)
    print(d[:5], d.sum())


if __name__ == "__main__":
    main()
