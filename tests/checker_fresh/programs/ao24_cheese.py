# fresh-expect: clean
# fresh-note: Cheese cave ripening twin: the closure runs its launch_async op with .sync_on(stream) before swapping the ping-pong index buffers held in a dict.
"""Cheese affinage cave: ripening-index increments per wheel from the cave's temperature and humidity log."""
from contextlib import contextmanager
from typing import Callable, Iterator
import time

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

WHEELS = 1800  # wheels on the shelves of one cave
BLOCK = 128
REF_TEMP_C = 12.0


@simt.kernel
@simt.launch_contract(block=BLOCK)
def ripen(temp_c: Slice[f32], rel_humidity: Slice[f32], index: Slice[f32], next_index: DisjointSlice[f32], days: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := next_index.get_mut(idx)) is not None:
        q10 = 2.0 ** ((temp_c[i] - REF_TEMP_C) / 10.0)
        dry = 1.0
        if rel_humidity[i] < 85.0:
            dry = 1.0 - (85.0 - rel_humidity[i]) * 0.03
        out.set(index[i] + days * 0.01 * q10 * dry)


@contextmanager
def timed(label: str, log: dict[str, float]) -> Iterator[None]:
    start = time.perf_counter()
    try:
        yield
    finally:
        log[label] = log.get(label, 0.0) + time.perf_counter() - start


def make_cave(dev: sk.Device, stream: sk.Stream, n: int) -> Callable[[np.ndarray, np.ndarray, float], np.ndarray]:
    prepared = ripen.prepare(simt.LaunchConfig1D.for_len(n, block=BLOCK), dev)
    state = {"index": sk.zeros(n, f32, stream), "spare": sk.zeros(n, f32, stream)}

    def advance(temps: np.ndarray, humidity: np.ndarray, days: float) -> np.ndarray:
        t = sk.to_device(temps.astype(np.float32), stream)
        h = sk.to_device(humidity.astype(np.float32), stream)
        ripen.launch_async(prepared, t, h, state["index"], state["spare"], days).sync_on(stream)
        state["index"], state["spare"] = state["spare"], state["index"]
        return state["index"].to_numpy(stream)

    return advance


def weekly_log(rng: np.random.Generator, weeks: int) -> Iterator[tuple[int, np.ndarray, np.ndarray]]:
    shelf_height = np.linspace(0.0, 1.0, WHEELS)
    for week in range(weeks):
        temps = 11.0 + 2.0 * shelf_height + rng.normal(0.0, 0.3, WHEELS)
        humidity = 92.0 - 6.0 * shelf_height + rng.normal(0.0, 1.0, WHEELS)
        yield week, temps, humidity


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(1680)
    advance = make_cave(dev, stream, WHEELS)
    timings: dict[str, float] = {}
    index = np.zeros(WHEELS, np.float32)
    for week, temps, humidity in weekly_log(rng, weeks=6):
        with timed("ripen", timings):
            index = advance(temps, humidity, days=7.0)
        ready = int((index >= 0.45).sum())
        print(f"week {week + 1}: mean ripeness {index.mean():.3f}, {ready} wheels ready to turn and brush")
    top = np.argsort(index)[-3:][::-1]
    print("ripest wheels (top shelves):", top.tolist(), f"in {timings['ripen']:.2f}s")


if __name__ == "__main__":
    main()
