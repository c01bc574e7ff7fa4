# fresh-expect: E0502 at line 37
# (fixed: itertools.zip_longest pads with the fillvalue itself: out may be h on the last head)
"""Parallel residual heads: each head adds its branch to the shared residual stream into its own output."""
from __future__ import annotations

from itertools import zip_longest

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

HIDDEN = 256
LAYERS = 4


@simt.kernel
@simt.launch_contract(block=64)
def residual_add(h: Slice[f32], branch: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(h[i] + f32(0.5) * branch[i])


def build_branches(stream: sk.Stream, rng: np.random.Generator) -> list[sk.DeviceBuffer]:
    return [sk.to_device(rng.standard_normal(HIDDEN).astype(np.float32), stream) for _ in range(LAYERS)]


def run_heads(h: sk.DeviceBuffer, branches: list[sk.DeviceBuffer], outs: list[sk.DeviceBuffer],
              prepared: simt.PreparedLaunch, stream: sk.Stream) -> list[np.ndarray]:
    # the final head writes back into the residual stream to save one allocation
    results = []
    for head, (branch, out) in enumerate(zip_longest(branches, outs, fillvalue=h)):
        residual_add.launch(prepared, stream, h, branch, out)
        results.append(out.to_numpy(stream))
        print(f"head {head}: |out| = {float(np.abs(results[-1]).mean()):.3f}")
    return results


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(3)
    h = sk.to_device(rng.standard_normal(HIDDEN).astype(np.float32), stream)
    branches = build_branches(stream, rng)
    outs = [sk.zeros(HIDDEN, f32, stream) for _ in range(LAYERS - 1)]
    prepared = residual_add.prepare(simt.LaunchConfig1D.for_len(HIDDEN, block=64), dev)
    results = run_heads(h, branches, outs, prepared, stream)
    print("mixed head:", np.round(sum(results)[:4] / len(results), 3))


if __name__ == "__main__":
    main()
