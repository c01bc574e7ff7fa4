"""`do_bench`: time a callable the way Triton's `triton.testing.do_bench` does, on any safekernels device.

Semantics (kept identical so numbers compare with Triton's and users' habits carry over):

1. call `fn` once and synchronize (compilation, allocation and first-touch costs stay out of the numbers);
2. estimate its time from 5 calls, each after an L2 flush;
3. run `max(1, warmup / estimate)` warm-up calls, then `max(1, rep / estimate)` timed calls, each timed
   call preceded by an L2 flush (so `warmup` and `rep` are budgets in milliseconds, not counts);
4. return milliseconds: the requested `quantiles` (linear interpolation, like `torch.quantile`), else one
   statistic chosen by `return_mode` (`"mean"`, the default, `"median"`, `"min"`, `"max"`, or `"all"`).

On a GPU the clock is a pair of CUDA events per call, recorded on `stream` (default: the device's default
stream, which is also torch's default current stream), so launch overhead between calls is not counted but
anything `fn` does on that stream is; on the CPU executor it is `time.perf_counter` around the call (see
`timers`).  `repetitions` and `summarize` are the pure halves, unit-tested without a device.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final, Literal, overload

import numpy as np

from safekernels.runtime.device import Device, Stream, as_stream
from safekernels.testing.timers import (
    CPU_FLUSH_BYTES,
    GPU_FLUSH_BYTES,
    BenchTimer,
    CudaEventTimer,
    PerfCounterTimer,
)

#: The statistics `return_mode` may name (Triton's set).
RETURN_MODES: Final = ("min", "max", "mean", "median", "all")
_ESTIMATE_CALLS: Final = 5


def repetitions(estimate_ms: float, warmup: float, rep: float) -> tuple[int, int]:
    """(warm-up calls, timed calls) for a call estimated at `estimate_ms` and budgets `warmup`/`rep` in ms."""
    if estimate_ms <= 0.0:  # too fast for the clock: the budgets cannot be divided, take one call each way
        estimate_ms = 1e-6
    return max(1, int(warmup / estimate_ms)), max(1, int(rep / estimate_ms))


def summarize(
    times_ms: Sequence[float], quantiles: Sequence[float] | None = None, return_mode: str = "mean"
) -> float | list[float]:
    """Triton's `_summarize_statistics`: quantiles when asked (one value unwrapped), else `return_mode`."""
    if return_mode not in RETURN_MODES:
        raise ValueError(f"do_bench: return_mode must be one of {', '.join(RETURN_MODES)}; got {return_mode!r}")
    if not times_ms:
        raise ValueError("do_bench: no timings to summarize")
    samples = np.asarray(times_ms, dtype=np.float64)
    if quantiles is not None:
        qs = [float(q) for q in quantiles]
        if any(not 0.0 <= q <= 1.0 for q in qs):
            raise ValueError(f"do_bench: quantiles must lie in [0, 1]; got {list(quantiles)}")
        values = [float(v) for v in np.quantile(samples, qs)]
        return values[0] if len(values) == 1 else values
    if return_mode == "all":
        return [float(v) for v in samples]
    return float(getattr(np, return_mode)(samples))


def _resolve_stream(stream: Any, device: Device | None) -> Stream:
    if stream is not None:
        return as_stream(stream, device)
    return (device if device is not None else Device.default()).default_stream


def _make_timer(stream: Stream, flush_l2: bool) -> BenchTimer:
    if stream.device.is_cpu:
        return PerfCounterTimer(flush_bytes=CPU_FLUSH_BYTES if flush_l2 else 0)
    return CudaEventTimer(stream, flush_bytes=GPU_FLUSH_BYTES if flush_l2 else 0)


def _clear_grads(grad_to_none: Sequence[Any] | None) -> None:
    for tensor in grad_to_none or ():
        tensor.grad = None


Statistic = Literal["min", "max", "mean", "median"]


@overload
def do_bench(
    fn: Callable[[], object],
    warmup: float = ...,
    rep: float = ...,
    grad_to_none: Sequence[Any] | None = ...,
    quantiles: None = ...,
    return_mode: Statistic = ...,
    *,
    stream: Any = ...,
    device: Device | None = ...,
    flush_l2: bool = ...,
) -> float: ...
@overload
def do_bench(
    fn: Callable[[], object],
    warmup: float = ...,
    rep: float = ...,
    grad_to_none: Sequence[Any] | None = ...,
    quantiles: None = ...,
    *,
    return_mode: Literal["all"],
    stream: Any = ...,
    device: Device | None = ...,
    flush_l2: bool = ...,
) -> list[float]: ...
@overload
def do_bench(
    fn: Callable[[], object],
    warmup: float = ...,
    rep: float = ...,
    grad_to_none: Sequence[Any] | None = ...,
    *,
    quantiles: Sequence[float],
    return_mode: str = ...,
    stream: Any = ...,
    device: Device | None = ...,
    flush_l2: bool = ...,
) -> Any: ...  # a list, or a float when one quantile is asked for (Triton's convention)
def do_bench(
    fn: Callable[[], object],
    warmup: float = 25,
    rep: float = 100,
    grad_to_none: Sequence[Any] | None = None,
    quantiles: Sequence[float] | None = None,
    return_mode: str = "mean",
    *,
    stream: Any = None,
    device: Device | None = None,
    flush_l2: bool = True,
) -> float | list[float]:
    """Milliseconds per call of `fn` (see the module docstring for the exact procedure).

    `stream`: a safekernels `Stream`, a torch/CuPy stream or a raw `CUstream`; the events are recorded there,
    so `fn` should enqueue its work on it.  `device`: where to time when no stream is given (default:
    `Device.default()`, the GPU when present, else the CPU executor).  `grad_to_none`: tensors whose `.grad`
    is reset before every timed call (as in Triton).  `flush_l2=False` keeps caches warm between calls.
    """
    if warmup < 0 or rep <= 0:
        raise ValueError(f"do_bench: warmup must be >= 0 and rep > 0 (milliseconds); got warmup={warmup}, rep={rep}")
    if return_mode not in RETURN_MODES:
        raise ValueError(f"do_bench: return_mode must be one of {', '.join(RETURN_MODES)}; got {return_mode!r}")
    bench_stream = _resolve_stream(stream, device)
    timer = _make_timer(bench_stream, flush_l2)

    fn()
    timer.synchronize()

    timer.start()
    for _ in range(_ESTIMATE_CALLS):
        timer.flush()
        fn()
    timer.stop()
    estimate_ms = sum(timer.elapsed_ms()) / _ESTIMATE_CALLS
    n_warmup, n_repeat = repetitions(estimate_ms, warmup, rep)

    for _ in range(n_warmup):
        fn()
    for _ in range(n_repeat):
        _clear_grads(grad_to_none)
        timer.flush()
        timer.start()
        fn()
        timer.stop()
    return summarize(timer.elapsed_ms(), quantiles, return_mode)
