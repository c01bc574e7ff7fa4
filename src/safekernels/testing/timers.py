"""Where `do_bench` gets its clock: CUDA events on a stream, or `perf_counter` on the CPU executor.

A timer brackets one call of the benchmarked function (`start()` ... `stop()`), and clears the cache between
calls (`flush()`), so every repetition starts from a cold cache as in Triton's `do_bench`:

    flush()  start()  fn()  stop()      x n      then  elapsed_ms()  (one synchronize, then read all pairs)

- `CudaEventTimer` records `cuEventRecord` pairs on the benchmark's stream and reads them after one final
  synchronize, so the host never waits between repetitions; its flush zeroes a 256 MiB buffer with
  `cuMemsetD32Async` on the same stream (larger than the H200's 50 MiB L2, the size Triton uses).
- `PerfCounterTimer` is the CPU executor's: work runs eagerly, so wall time around the call is the kernel's
  time; its flush rewrites a buffer larger than a typical last-level cache share.
"""

from __future__ import annotations

import time
from typing import Any, Protocol

import numpy as np

from safekernels.runtime.device import Stream

#: Bytes zeroed between GPU repetitions (Triton's `get_empty_cache_for_benchmark` uses 256 MB too).
GPU_FLUSH_BYTES = 256 * 1024 * 1024
#: Bytes rewritten between CPU-executor repetitions: past a server core's L2 and its share of L3, yet cheap
#: enough (a few ms) that CPU benchmarks in CI stay quick.
CPU_FLUSH_BYTES = 32 * 1024 * 1024


class BenchTimer(Protocol):
    """What `do_bench` needs from a clock."""

    def flush(self) -> None: ...

    def start(self) -> None: ...

    def stop(self) -> None: ...

    def synchronize(self) -> None: ...

    def elapsed_ms(self) -> list[float]:
        """Milliseconds of each start/stop pair since the last call, in order (after synchronizing)."""
        ...


class PerfCounterTimer:
    """Wall-clock timer for the CPU executor (work runs eagerly, so the call's wall time is its run time)."""

    def __init__(self, *, flush_bytes: int = CPU_FLUSH_BYTES) -> None:
        self._scratch = np.zeros(flush_bytes // 8, dtype=np.int64) if flush_bytes > 0 else None
        self._starts: list[float] = []
        self._stops: list[float] = []

    def flush(self) -> None:
        if self._scratch is not None:
            self._scratch.fill(0)

    def start(self) -> None:
        self._starts.append(time.perf_counter())

    def stop(self) -> None:
        self._stops.append(time.perf_counter())

    def synchronize(self) -> None:
        pass

    def elapsed_ms(self) -> list[float]:
        times = [(stop - start) * 1e3 for start, stop in zip(self._starts, self._stops, strict=True)]
        self._starts.clear()
        self._stops.clear()
        return times


class CudaEventTimer:
    """CUDA-event timer on one stream of a GPU `Device` (events are created lazily and reused)."""

    def __init__(self, stream: Stream, *, flush_bytes: int = GPU_FLUSH_BYTES) -> None:
        from safekernels.runtime.cuda_backend import CudaBackend, _driver, check

        backend = stream.device.backend
        assert isinstance(backend, CudaBackend)
        self._backend = backend
        self._driver = _driver()
        self._check = check
        self._raw_stream = backend.raw_stream(stream.handle)
        self._stream = stream
        backend.make_current()
        self._scratch = backend.allocate(flush_bytes) if flush_bytes > 0 else None
        self._events: list[Any] = []
        self._used = 0

    def _event(self) -> Any:
        if self._used == len(self._events):
            self._events.append(self._check(self._driver.cuEventCreate(0), "cuEventCreate"))
        event = self._events[self._used]
        self._used += 1
        return event

    def _record(self) -> None:
        self._check(self._driver.cuEventRecord(self._event(), self._raw_stream), "cuEventRecord")

    def flush(self) -> None:
        if self._scratch is not None:
            self._check(
                self._driver.cuMemsetD32Async(self._scratch.ptr, 0, self._scratch.nbytes // 4, self._raw_stream),
                "cuMemsetD32Async (L2 flush)",
            )

    def start(self) -> None:
        self._record()

    def stop(self) -> None:
        self._record()

    def synchronize(self) -> None:
        self._stream.synchronize()

    def elapsed_ms(self) -> list[float]:
        self.synchronize()
        times: list[float] = []
        for i in range(0, self._used - 1, 2):
            ms = self._check(
                self._driver.cuEventElapsedTime(self._events[i], self._events[i + 1]), "cuEventElapsedTime"
            )
            times.append(float(ms))
        self._used = 0
        return times

    def close(self) -> None:
        for event in self._events:
            self._driver.cuEventDestroy(event)
        self._events.clear()
        self._scratch = None

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass
