# fresh-expect: clean
# fresh-note: resilient launcher whose fallback helper _launch_raw wraps its own launch_unchecked call in `with simt.unsafe():`, so the unchecked launch of the contract-less legacy kernel is lexically inside an unsafe block.
"""A launcher with a fallback path for legacy preprocessing kernels in a data-loading service.

Newer kernels carry a launch contract and go through `prepare` + `launch`.  Some legacy plugins were
written without one; for those the launcher falls back to `launch_unchecked` inside an unsafe block,
with the block size the plugin documents.  Every attempt and its outcome is recorded for the metrics page.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Sequence

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def normalize(x: Slice[f32], y: DisjointSlice[f32], inv_scale: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := y.get_mut(idx)) is not None:
        out.set(x[i] * inv_scale)


@simt.kernel
def legacy_clip(x: Slice[f32], y: DisjointSlice[f32], hi: f32) -> None:  # no contract: predates them
    idx = thread.index_1d()
    i = idx.get()
    if (out := y.get_mut(idx)) is not None:
        out.set(min(x[i], hi))


class ResilientLauncher:
    PATHS = ("checked", "unchecked")

    def __init__(self, device: sk.Device, legacy_block: int = 64) -> None:
        self.device = device
        self.legacy_block = legacy_block
        self.stats: Counter[str] = Counter()
        self.errors: list[str] = []

    def _prepared_for(self, kernel: Any, n: int) -> Any:
        if kernel.contract is None:
            raise simt.LaunchContractError(f"{kernel.__name__}: no launch contract, cannot prepare")
        block = kernel.contract.block[0]
        return kernel.prepare(simt.LaunchConfig1D.for_len(n, block=block), self.device)

    def _launch_raw(self, kernel: Any, stream: sk.Stream, n: int, args: Sequence[Any]) -> None:
        config = simt.LaunchConfig1D.for_len(n, block=self.legacy_block)
        with simt.unsafe():  # reviewed: legacy kernels bounds-check through get_mut
            kernel.launch_unchecked(config, stream, *args)

    def run(self, kernel: Any, stream: sk.Stream, n: int, *args: Any) -> str:
        for path in self.PATHS:
            try:
                if path == "checked":
                    kernel.launch(self._prepared_for(kernel, n), stream, *args)
                else:
                    self._launch_raw(kernel, stream, n, args)
            except simt.LaunchContractError as err:
                self.errors.append(f"{path}: {err}")
                continue
            self.stats[path] += 1
            return path
        raise RuntimeError(f"no launch path worked for {kernel.__name__}")


def preprocess(batch: np.ndarray, device: sk.Device) -> tuple[np.ndarray, Counter[str]]:
    stream = device.new_stream()
    launcher = ResilientLauncher(device)
    n = len(batch)
    raw = sk.to_device(batch, stream)
    scaled = sk.zeros(n, f32, stream)
    clipped = sk.zeros(n, f32, stream)
    launcher.run(normalize, stream, n, raw, scaled, 1.0 / float(np.abs(batch).max()))
    launcher.run(legacy_clip, stream, n, scaled, clipped, 0.5)
    return clipped.to_numpy(stream), launcher.stats


def main() -> None:
    data = np.random.default_rng(5).standard_normal(300).astype(np.float32)
    out, stats = preprocess(data, sk.Device.cpu())
    assert out.max() <= 0.5
    print("paths used:", dict(stats), "max:", float(out.max()))


if __name__ == "__main__":
    main()
