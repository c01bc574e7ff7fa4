"""`safekernels.testing.do_bench`: Triton's procedure and statistics, on the CPU executor (and a GPU when present).

The pure halves (`repetitions`, `summarize`) are checked against hand-computed values; the timed loop is checked
by counting the calls it makes and by timing a callable whose duration is known (it sleeps).
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import pytest

import safekernels as sk
from safekernels.testing import do_bench, repetitions, summarize


def test_repetitions_divide_the_budgets_by_the_estimate() -> None:
    assert repetitions(2.0, 25, 100) == (12, 50)
    assert repetitions(500.0, 25, 100) == (1, 1)  # slower than the budget: still one call each way
    assert repetitions(0.0, 25, 100)[1] >= 1  # too fast to measure: no division by zero


def test_summarize_statistics_like_triton() -> None:
    times = [4.0, 1.0, 3.0, 2.0]
    assert summarize(times) == 2.5
    assert summarize(times, return_mode="median") == 2.5
    assert summarize(times, return_mode="min") == 1.0
    assert summarize(times, return_mode="max") == 4.0
    assert summarize(times, return_mode="all") == times
    # linear interpolation between order statistics, as torch.quantile: 0.2 -> 1 + 0.6 * (2 - 1)
    assert summarize(times, quantiles=[0.5, 0.2, 0.8]) == pytest.approx([2.5, 1.6, 3.4])
    assert summarize(times, quantiles=[0.5]) == 2.5  # one quantile comes back unwrapped


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"return_mode": "average"}, "return_mode must be one of min, max, mean, median, all"),
        ({"quantiles": [0.5, 1.5]}, "quantiles must lie in [0, 1]"),
    ],
)
def test_summarize_rejects_bad_requests(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]")):
        summarize([1.0, 2.0], **kwargs)


def test_bad_budgets_are_refused_before_anything_runs() -> None:
    calls: list[int] = []
    with pytest.raises(ValueError, match="rep > 0"):
        do_bench(lambda: calls.append(1), rep=0, device=sk.Device.cpu())
    with pytest.raises(ValueError, match="return_mode"):
        do_bench(lambda: calls.append(1), return_mode="mode", device=sk.Device.cpu())
    assert calls == []


def test_cpu_executor_follows_the_triton_call_pattern() -> None:
    calls: list[int] = []
    do_bench(lambda: calls.append(1), warmup=1, rep=3, device=sk.Device.cpu(), flush_l2=False)
    # 1 first call + 5 estimate calls + warm-up and timed calls; near-instant calls use the whole budgets
    assert len(calls) > 1 + 5 + 2
    few: list[int] = []
    do_bench(lambda: (few.append(1), time.sleep(0.004)), warmup=1, rep=3, device=sk.Device.cpu(), flush_l2=False)
    assert len(few) == 1 + 5 + 1 + 1  # slower than both budgets: one warm-up call and one timed call


def test_cpu_executor_measures_wall_time_of_the_call() -> None:
    samples = do_bench(
        lambda: time.sleep(0.003), warmup=2, rep=20, device=sk.Device.cpu(), return_mode="all", flush_l2=False
    )
    assert isinstance(samples, list) and len(samples) >= 2
    assert all(2.9 <= t < 1000 for t in samples), samples  # the flush and the loop are outside the timed window
    lo, mid, hi = do_bench(lambda: time.sleep(0.002), warmup=1, rep=10, quantiles=[0.2, 0.5, 0.8],
                           device=sk.Device.cpu())  # fmt: skip
    assert 1.9 <= lo <= mid <= hi


def test_grad_to_none_is_cleared_before_each_timed_call() -> None:
    class Param:
        grad: object = None

    param = Param()
    seen: list[object] = []

    def step() -> None:
        seen.append(param.grad)
        param.grad = np.ones(1)

    do_bench(step, warmup=0.01, rep=0.01, grad_to_none=[param], device=sk.Device.cpu(), flush_l2=False)
    assert seen[-1] is None  # the last call is a timed one, preceded by the reset


def test_times_a_tile_kernel_on_the_cpu_executor() -> None:
    from safekernels import tile
    from safekernels.dtypes import f32
    from safekernels.tile import Partition, Tensor

    @tile.kernel
    def double(z: Partition[f32], x: Tensor[f32]) -> None:
        z.store(tile.load_like(x, z) * 2.0)

    stream = sk.Device.cpu().new_stream()
    state: dict[str, Any] = {
        "z": tile.zeros((256,), f32).partition((64,)).sync_on(stream),
        "x": tile.ones((256,), f32).sync_on(stream),
    }

    def run() -> None:  # launches move their arguments and hand them back: no reset between calls needed
        state["z"], state["x"] = double(state["z"], state["x"]).sync_on(stream)

    ms = do_bench(run, warmup=1, rep=5, stream=stream)
    assert isinstance(ms, float) and ms > 0
    np.testing.assert_array_equal(state["z"].unpartition().to_numpy(stream), np.full(256, 2.0, np.float32))


@pytest.mark.gpu
def test_gpu_events_time_a_memset_at_plausible_bandwidth() -> None:
    device = sk.Device(0)
    stream = device.new_stream()
    nbytes = 512 << 20
    buf = sk.zeros(nbytes // 4, sk.dtypes.f32, stream)
    backend: Any = device.backend
    raw = backend.raw_stream(stream.handle)

    def fill() -> None:
        from cuda.bindings import driver

        driver.cuMemsetD32Async(buf.ptr, 0, nbytes // 4, raw)

    lo, mid, hi = do_bench(fill, quantiles=[0.2, 0.5, 0.8], stream=stream)
    gbps = nbytes / (mid * 1e-3) / 1e9
    assert 0 < lo <= mid <= hi
    assert 100 < gbps < 20000, gbps  # an H200 writes ~4 TB/s; events that timed nothing would be far off
