# fresh-expect: E0382 at line 62
# fresh-known-miss: cli,mypy a dict comprehension over `stock.items()` moves some items with `.to()` under a condition, and `stock[w]` is read later under a loop key: items of a comprehension-built dict under computed keys are new values
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import i32
from safekernels.simt import DisjointSlice, Slice, thread

SKUS = 600


@simt.kernel
@simt.launch_contract(block=128)
def fulfil(stock: Slice[i32], demand: Slice[i32], left: DisjointSlice[i32], restock: i32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := left.get_mut(idx)) is not None:
        remaining = stock[i] - min(stock[i], demand[i])
        o.set(remaining + restock if remaining < 5 else remaining)


def place(warehouses: list[str], load: dict[str, int]) -> dict[str, int]:
    """Send the busiest half of the warehouses to region 1."""
    ranked = sorted(warehouses, key=lambda w: load[w], reverse=True)
    return {w: (1 if rank < len(ranked) // 2 else 0) for rank, w in enumerate(ranked)}


def simulate_days(buf: sk.DeviceBuffer, dev: sk.Device, stream: sk.Stream, rng: np.random.Generator,
                  days: int) -> sk.DeviceBuffer:
    prepared = fulfil.prepare(simt.LaunchConfig1D.for_len(SKUS, block=128), dev)
    scratch = sk.zeros(SKUS, i32, stream)
    for _ in range(days):
        demand = sk.to_device(rng.poisson(3, SKUS).astype(np.int32), stream)
        fulfil.launch(prepared, stream, buf, demand, scratch, 40)
        buf, scratch = scratch, buf
    return buf


def main() -> None:
    regions = [sk.Device.cpu(0), sk.Device.cpu(1)]
    streams = [d.new_stream() for d in regions]
    rng = np.random.default_rng(77)
    names = ["reno", "dallas", "newark", "atlanta", "tacoma", "joliet"]
    stock = {w: sk.to_device(rng.integers(20, 60, SKUS).astype(np.int32), streams[0]) for w in names}
    load = {w: int(rng.integers(100, 1000)) for w in names}

    plan = place(names, load)
    remote = {w: buf.to(regions[1], streams[1]) for w, buf in stock.items() if plan[w] == 1}

    final: dict[str, sk.DeviceBuffer] = {}
    for w in names:
        r = plan[w]
        start = remote[w] if r == 1 else stock[w]
        final[w] = simulate_days(start, regions[r], streams[r], rng, days=7)

    print(f"{'warehouse':>10} {'region':>6} {'opening':>8} {'closing':>8} {'stockouts':>9}")
    for w in names:
        r = plan[w]
        opening = stock[w].to_numpy(streams[0])
        closing = final[w].to_numpy(streams[r])
        print(f"{w:>10} {r:>6} {int(opening.sum()):>8} {int(closing.sum()):>8} {int((closing == 0).sum()):>9}")

if __name__ == "__main__":
    main()
