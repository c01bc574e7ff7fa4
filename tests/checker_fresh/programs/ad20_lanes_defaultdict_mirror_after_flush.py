# fresh-expect: clean
# idiom: collections.defaultdict(list) of pending launch_async ops per lane, enumerate/reversed flush, DeviceBuffer.to() mirroring to a second device
"""Standardise several feature columns on device 0 and mirror the results to device 1.

Columns are spread over `LANES` submission lanes; every lane's asynchronous launches are
flushed at the end.  The standardised columns are copied to the second device, where a
consumer reads them.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

ROWS = 300
LANES = 2


@simt.kernel
@simt.launch_contract(block=64)
def standardize(x: Slice[f32], out: DisjointSlice[f32], mean: f32, inv_std: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set((x[i] - mean) * inv_std)


def column_stats(col: np.ndarray) -> tuple[float, float]:
    std = float(col.std())
    return float(col.mean()), 1.0 / std if std > 0 else 1.0


def flush(pending: dict[int, list[sk.DeviceOp]], stream: sk.Stream) -> int:
    count = 0
    for lane in sorted(pending):
        for _k, op in enumerate(reversed(pending[lane])):
            op.sync_on(stream)
            count += 1
    pending.clear()
    return count


def main() -> None:
    dev0, dev1 = sk.Device.cpu(0), sk.Device.cpu(1)
    s0, s1 = dev0.new_stream(), dev1.new_stream()
    rng = np.random.default_rng(17)
    table = {
        "age": rng.normal(40.0, 12.0, ROWS).astype(np.float32),
        "income": rng.lognormal(10.0, 0.5, ROWS).astype(np.float32),
        "score": rng.uniform(0.0, 1.0, ROWS).astype(np.float32),
    }
    prep = standardize.prepare(simt.LaunchConfig1D.for_len(ROWS, block=64), dev0)
    pending: defaultdict[int, list[sk.DeviceOp]] = defaultdict(list)
    outputs: dict[str, sk.DeviceBuffer] = {}
    for k, (name, col) in enumerate(table.items()):
        x = sk.to_device(col, s0)
        out = sk.zeros(ROWS, f32, s0)
        pending[k % LANES].append(standardize.launch_async(prep, x, out, *column_stats(col)))
        outputs[name] = out
    print("flushed", flush(pending, s0), "launches")
    mirrors = {name: out.to(dev1, s1) for name, out in outputs.items()}
    for name, buf in mirrors.items():
        host = buf.to_numpy(s1)
        print(f"{name:>7}: mean {host.mean():+.3f} std {host.std():.3f}")


if __name__ == "__main__":
    main()
