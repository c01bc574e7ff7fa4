"""Autotuning: time a kernel's candidate configurations on first use, keep the winner on disk.

    @tile.autotune(configs=[tile.Config(BM=128, BN=256), tile.Config(BM=128, BN=128, num_warps=4)], key=["a", "b"])
    @tile.kernel
    def gemm(c: Annotated[Partition[f16], tile.Dims(BM, BN)], a: Tensor[f16], b: Tensor[f16]) -> None: ...

    @simt.autotune(configs=[128, 256, 512], key=["x"])        # block sizes
    @simt.kernel
    @simt.launch_contract(domain=1)                           # any block: the tuner picks it
    def saxpy(...): ...

The flow, per call:

    key values (shapes/dtypes of the `key` tensors, values of `key` scalars, the device)
      -> in-process table -> disk (`<cache dir>/autotune/<hash>.json`) -> tune: `do_bench` each config
         (progress printed), keep the fastest, write it to disk atomically
      -> launch the winner

The disk entry is keyed like a compiled kernel (`codegen.cache`): the kernel's source and reachable
constants, the configurations, the key values, the device (name and arch, or the CPU executor) and, on a GPU,
the compiler's own hash, so a later process reuses the choice and any change that could change it re-tunes.

No `reset_to_zero` is needed: a launch writes whole output tiles, and the outputs' contents before tuning are
saved and restored around the benchmark runs, so even a kernel that accumulates into its output sees exactly
one launch's worth of effect.

Parts: `config` (what a configuration is), `defaults` (shipped tuning spaces: `matmul_configs()` for
`tile.matmul` kernels), `store` (the disk table), `tuner` (benchmark the candidates), and one
front end per track: `tile_autotune`, `simt_autotune`.
"""

from __future__ import annotations

from safekernels.autotune.config import Config
from safekernels.autotune.defaults import MATMUL_TILES, matmul_configs
from safekernels.autotune.store import TuningStore
from safekernels.autotune.tuner import TuneStats

__all__ = ["MATMUL_TILES", "Config", "TuneStats", "TuningStore", "matmul_configs"]
