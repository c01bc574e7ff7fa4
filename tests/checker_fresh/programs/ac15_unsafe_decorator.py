# fresh-expect: E0133 at line 49
# idiom: functools.wraps decorator that wraps the call in a context manager and times it
"""Particle position update in the hot loop of an N-body toy.

The launch contract is validated once up front; inside the loop the step uses
`launch_unchecked` to skip re-validation.  A `@hot_path` decorator opens the unsafe region and
records how long each call takes.
"""

from __future__ import annotations

import functools
import time

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

PARTICLES = 512
TIMINGS: dict[str, list[float]] = {}


@simt.kernel
@simt.launch_contract(block=128)
def advance(pos: Slice[f32], vel: Slice[f32], out: DisjointSlice[f32], dt: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(pos[i] + dt * vel[i])


def hot_path(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        start = time.perf_counter()
        with simt.unsafe():
            result = fn(*args, **kwargs)
        TIMINGS.setdefault(fn.__name__, []).append(time.perf_counter() - start)
        return result

    return wrapper


@hot_path
def step(config, stream: sk.Stream, pos, vel, out, dt: float) -> None:
    advance.launch_unchecked(config, stream, pos, vel, out, dt)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    config = simt.LaunchConfig1D.for_len(PARTICLES, block=128)
    advance.prepare(config, dev)
    rng = np.random.default_rng(0)
    pos = sk.to_device(rng.random(PARTICLES, dtype=np.float32), stream)
    vel = sk.to_device(rng.standard_normal(PARTICLES).astype(np.float32), stream)
    nxt = sk.zeros(PARTICLES, f32, stream)
    for _ in range(4):
        step(config, stream, pos, vel, nxt, 0.01)
        pos, nxt = nxt, pos
    final = pos.to_numpy(stream)
    mean_ms = 1e3 * float(np.mean(TIMINGS["step"]))
    print(f"centroid {final.mean():.4f}, {len(TIMINGS['step'])} steps, {mean_ms:.2f} ms each")


if __name__ == "__main__":
    main()
