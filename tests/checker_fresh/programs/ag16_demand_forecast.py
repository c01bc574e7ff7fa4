# fresh-expect: clean
# retail demand forecasting sharded over two executors: store histories moved out with .to() and gathered back
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

ITEMS = 512


@simt.kernel
@simt.launch_contract(block=128)
def smooth(level: Slice[f32], observed: Slice[f32], new_level: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := new_level.get_mut(idx)) is not None:
        o.set(alpha * observed[i] + (1.0 - alpha) * level[i])


def weekly_sales(rng: np.random.Generator, weeks: int) -> list[np.ndarray]:
    base = rng.uniform(5.0, 50.0, ITEMS).astype(np.float32)
    return [(base * rng.uniform(0.7, 1.3, ITEMS)).astype(np.float32) for _ in range(weeks)]


def forecast(level: sk.DeviceBuffer, history: list[np.ndarray], dev: sk.Device, stream: sk.Stream,
             alpha: float = 0.3) -> sk.DeviceBuffer:
    prepared = smooth.prepare(simt.LaunchConfig1D.for_len(ITEMS, block=128), dev)
    nxt = sk.zeros(ITEMS, f32, stream)
    for week in history:
        observed = sk.to_device(week, stream)
        smooth.launch(prepared, stream, level, observed, nxt, alpha)
        level, nxt = nxt, level
    return level


def main() -> None:
    devices = [sk.Device.cpu(0), sk.Device.cpu(1)]
    streams = [d.new_stream() for d in devices]
    rng = np.random.default_rng(31)
    stores = {f"store-{k:02d}": weekly_sales(rng, 8) for k in range(6)}

    levels = {name: sk.to_device(hist[0], streams[0]) for name, hist in stores.items()}
    opening = {name: buf.to_numpy(streams[0]) for name, buf in levels.items()}
    assignment = {name: k % 2 for k, name in enumerate(stores)}

    for name, dev_index in assignment.items():
        if dev_index == 1:
            levels[name] = levels[name].to(devices[1], streams[1])

    for name, hist in stores.items():
        d = assignment[name]
        levels[name] = forecast(levels[name], hist[1:], devices[d], streams[d])

    for name in stores:
        if assignment[name] == 1:
            levels[name] = levels[name].to(devices[0], streams[0])

    for name, buf in levels.items():
        fc = buf.to_numpy(streams[0])
        drift = float(np.mean(fc - opening[name]))
        print(f"{name}: next-week units {fc.sum():9.1f}  (drift {drift:+.2f} per item)")


if __name__ == "__main__":
    main()
