"""Helpers for measuring kernels: `do_bench`, with Triton's semantics, on the GPU and on the CPU executor.

    import safekernels as sk
    ms = sk.testing.do_bench(lambda: k(...).sync_on(stream), stream=stream)

Every benchmark script in `bench/` and the autotuner (`tile.autotune`, `simt.autotune`) time through this one
function, so their numbers are comparable and a reader knows what each number means.
"""

from __future__ import annotations

from safekernels.testing.benchmark import RETURN_MODES, do_bench, repetitions, summarize

__all__ = ["RETURN_MODES", "do_bench", "repetitions", "summarize"]
