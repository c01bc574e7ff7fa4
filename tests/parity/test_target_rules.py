"""Target rules refused by the shared front end (`codegen.tile.target_rules`), so both executors refuse alike.

An fp8 `tile.matmul` runs on sm_90a warpgroup MMA only, in the GEMM main-loop form; anything else is refused
by the front end with SK004 at the matmul call, on the CPU executor (which checks the reference target sm_90a)
and on every GPU target, at the same `file:line:col`.  A kernel in that form runs on the CPU and compiles for
sm_90a; older targets refuse it by their own rules (sm_90: sm_90a only, at the matmul; sm_80: fp8 needs sm_89,
at the first fp8 parameter).  No GPU needed.
"""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np
import pytest

import safekernels as sk
from safekernels import tile
from safekernels.codegen.tile.pipeline import compile_tile
from safekernels.codegen.tile.specialize import param_info
from safekernels.dtypes import dtype_of, f8e4m3, f8e5m2, f32
from safekernels.tile import Partition, Tensor

F32 = dtype_of("f32")


@tile.kernel
def one_shot(z: Partition[f32], x: Tensor[f8e4m3], y: Tensor[f8e4m3]) -> None:
    acc = tile.zeros((64, 64), f32)
    z.store(tile.matmul(x.load((tile.bid(0), 0), (64, 128)), tile.transpose(y.load((tile.bid(1), 0), (64, 128))), acc))


@tile.kernel
def main_loop(z: Partition[f32], x: Tensor[f8e5m2], y: Tensor[f8e5m2]) -> None:
    acc = tile.zeros((64, 64), f32)
    for k in range(x.shape[1] // 128):
        acc = tile.matmul(x.load((tile.bid(0), k), (64, 128)), tile.transpose(y.load((tile.bid(1), k), (64, 128))), acc)
    z.store(acc)


@tile.kernel(num_warps=8)
def main_loop_8_warps(z: Partition[f32], x: Tensor[f8e4m3], y: Tensor[f8e4m3]) -> None:
    acc = tile.zeros((64, 64), f32)
    for k in range(x.shape[1] // 128):
        acc = tile.matmul(x.load((tile.bid(0), k), (64, 128)), tile.transpose(y.load((tile.bid(1), k), (64, 128))), acc)
    z.store(acc)


@tile.kernel
def b_not_k_major(z: Partition[f32], x: Tensor[f8e4m3], y: Tensor[f8e4m3]) -> None:
    acc = tile.zeros((64, 64), f32)
    for k in range(x.shape[1] // 128):
        acc = tile.matmul(x.load((tile.bid(0), k), (64, 128)), y.load((k, tile.bid(1)), (128, 64)), acc)
    z.store(acc)


@tile.kernel
def fp8_round_trip(z: Partition[f8e4m3], x: Tensor[f8e4m3]) -> None:
    z.store((tile.load_like(x, z).astype(f32) * 2.0).astype(f8e4m3))


#: kernel -> (M, N, K, y given as (N, K)?)
SHAPES: dict[Any, tuple[int, int, int, bool]] = {
    one_shot: (128, 128, 128, True),
    main_loop: (128, 64, 256, True),
    main_loop_8_warps: (128, 64, 256, True),
    b_not_k_major: (128, 64, 256, False),
}


def _tensors(kernel: Any, k_override: int | None = None) -> list[tuple[str, Any, tuple[int, ...], Any]]:
    m, n, k, nk = SHAPES[kernel]
    k = k_override or k
    dt = kernel.params[1].dtype
    y_shape = (n, k) if nk else (k, n)
    return [("partition", F32, (m, n), (64, 64)), ("tensor", dt, (m, k), None), ("tensor", dt, y_shape, None)]


def _verdict(call: Any) -> tuple[str, str, str]:
    """("accept", "", "") or ("reject", code, path:line:col) with the refusal's message checked for form."""
    from ownership_check.diagnostics import DiagnosticError

    try:
        call()
    except DiagnosticError as exc:
        d = exc.diagnostics[0]
        assert str(exc).startswith(f"{d.path}:"), str(exc)
        return "reject", d.code, str(exc).split(": ")[0]
    return "accept", "", ""


def _on_cpu(kernel: Any, spec: list[tuple[str, Any, tuple[int, ...], Any]]) -> tuple[str, str, str]:
    dev = sk.Device.cpu()
    rng = np.random.default_rng(8)

    def run() -> None:
        args: list[Any] = []
        for kind, dt, shape, tile_shape in spec:
            if kind == "partition":
                args.append(tile.zeros(shape, dt, device=dev).partition(tile_shape))
            else:
                args.append(tile.from_numpy(rng.uniform(-2, 2, shape).astype(np.float32), dtype=dt, device=dev))
        kernel(*args).sync_on(dev.new_stream())

    return _verdict(run)


def _on_gpu_compiler(kernel: Any, spec: list[tuple[str, Any, tuple[int, ...], Any]], arch: str) -> tuple[str, str, str]:
    infos = [param_info(f"p{i}", kind, dt, shape, t) for i, (kind, dt, shape, t) in enumerate(spec)]
    return _verdict(lambda: compile_tile(kernel.fn, infos, 2, arch=arch, num_warps=kernel.num_warps, use_cache=False))


def _line_of(kernel: Any, text: str) -> int:
    lines, first = inspect.getsourcelines(kernel.fn)
    return first + next(i for i, line in enumerate(lines) if text in line)


@pytest.mark.parametrize(
    ("kernel", "k"),
    [(one_shot, None), (main_loop_8_warps, None), (b_not_k_major, None), (main_loop, 200)],
    ids=["one-shot", "8-warps-for-BM-64", "B-not-K-major", "K-rows-not-16-byte-multiples"],
)
def test_an_fp8_matmul_outside_the_warpgroup_form_is_refused_alike_everywhere(kernel: Any, k: int | None) -> None:
    spec = _tensors(kernel, k)
    cpu = _on_cpu(kernel, spec)
    assert cpu[:2] == ("reject", "SK004"), cpu
    assert f"test_target_rules.py:{_line_of(kernel, 'tile.matmul(')}:" in cpu[2], cpu
    for arch in ("sm_90a", "sm_90", "sm_80"):
        assert _on_gpu_compiler(kernel, spec, arch) == cpu, arch


def test_the_warpgroup_form_runs_on_the_cpu_and_each_older_target_refuses_by_its_own_rule() -> None:
    spec = _tensors(main_loop)
    assert _on_cpu(main_loop, spec) == ("accept", "", "")
    assert _on_gpu_compiler(main_loop, spec, "sm_90a") == ("accept", "", "")
    kind, code, where = _on_gpu_compiler(main_loop, spec, "sm_90")
    assert (kind, code) == ("reject", "SK004") and f":{_line_of(main_loop, 'tile.matmul(')}:" in where
    kind, code, where = _on_gpu_compiler(main_loop, spec, "sm_80")
    assert (kind, code) == ("reject", "SK004") and f":{_line_of(main_loop, 'def main_loop')}:" in where


def test_fp8_without_matmul_runs_on_the_cpu_and_sm_90a_and_sm_80_refuses_at_the_parameter() -> None:
    f8 = dtype_of("f8e4m3")
    spec: list[tuple[str, Any, tuple[int, ...], Any]] = [("partition", f8, (300,), (128,))]
    spec.append(("tensor", f8, (300,), None))
    assert _on_cpu(fp8_round_trip, spec) == ("accept", "", "")
    assert _on_gpu_compiler(fp8_round_trip, spec, "sm_90a") == ("accept", "", "")
    kind, code, where = _on_gpu_compiler(fp8_round_trip, spec, "sm_80")
    assert (kind, code) == ("reject", "SK004") and f":{_line_of(fp8_round_trip, 'def fp8_round_trip')}:" in where
