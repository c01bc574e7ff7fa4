# fresh-expect: E0133 at line 74
# idiom: decorator-based registry of benchmark cases, a @contextlib.contextmanager that enters simt.unsafe() for its caller
"""Micro-benchmark: checked `launch` against `launch_unchecked` for saxpy.

Cases register themselves with `@case(name)`; each one runs inside a timing context
manager that records the best wall time over a few repeats.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 2048
BLOCK = 256
REPEATS = 3

CASES: dict[str, Callable[..., None]] = {}


def case(name: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    def register(fn: Callable[..., None]) -> Callable[..., None]:
        CASES[name] = fn
        return fn

    return register


@simt.kernel
@simt.launch_contract(block=BLOCK)
def saxpy(x: Slice[f32], y: Slice[f32], out: DisjointSlice[f32], a: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(a * x[i] + y[i])


@contextlib.contextmanager
def timed(label: str, results: dict[str, float]) -> Iterator[None]:
    start = time.perf_counter()
    try:
        yield
    finally:
        elapsed = time.perf_counter() - start
        results[label] = min(results.get(label, elapsed), elapsed)


@contextlib.contextmanager
def raw_section(label: str, results: dict[str, float]) -> Iterator[None]:
    """A timed section in which launch checks are switched off."""
    with simt.unsafe(), timed(label, results):
        yield


@case("checked")
def run_checked(dev, stream, x, y, out, results) -> None:
    prepared = saxpy.prepare(simt.LaunchConfig1D.for_len(N, block=BLOCK), dev)
    with timed("checked", results):
        saxpy.launch(prepared, stream, x, y, out, 2.0)


@case("unchecked")
def run_unchecked(dev, stream, x, y, out, results) -> None:
    config = simt.LaunchConfig1D(grid=N // BLOCK, block=BLOCK)
    with raw_section("unchecked", results):
        saxpy.launch_unchecked(config, stream, x, y, out, 2.0)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    x = sk.to_device(np.linspace(0.0, 1.0, N, dtype=np.float32), stream)
    y = sk.to_device(np.ones(N, np.float32), stream)
    results: dict[str, float] = {}
    for name, run in CASES.items():
        out = sk.zeros(N, f32, stream)
        for _ in range(REPEATS):
            run(dev, stream, x, y, out, results)
        assert np.allclose(out.to_numpy(stream), 2.0 * x.to_numpy(stream) + 1.0), name
    for name, best in sorted(results.items(), key=lambda kv: kv[1]):
        print(f"{name:>10}: {best * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
