"""SIMT kernels on a real GPU (`pytest -m gpu`): every catalog kernel against an independent numpy reference
and against the CPU executor, boundary-value traps, examples, DLPack / `__cuda_array_interface__` interop with
torch and CuPy, and trap handling in a subprocess.

Outputs start poisoned (NaN for floats, 0x5A bytes for ints), so an element a kernel never writes fails instead
of passing as a zero.  Comparison rules (`kernels_catalog.assert_matches`, per element): integer kernels and
kernels of plain f32 arithmetic (no contraction into FMA is emitted, and f16 storage rounds once) must be
bit-exact; `math.*` kernels within 4 ulp (libdevice is within 2 ulp of the true result; the references compute
in f64 and round).  Must import neither libcst nor mypy.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import zlib
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import safekernels as sk
from safekernels import simt

pytestmark = pytest.mark.gpu

ROOT = Path(__file__).resolve().parents[2]
SIZES = (1, 31, 256, 1000, 4099)


def _catalog() -> ModuleType:
    if "kernels_catalog" in sys.modules:
        return sys.modules["kernels_catalog"]
    spec = importlib.util.spec_from_file_location("kernels_catalog", ROOT / "tests/codegen/kernels_catalog.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["kernels_catalog"] = module
    spec.loader.exec_module(module)
    return module


def _run(case: Any, host: list[Any], n: int, device: sk.Device) -> list[np.ndarray]:
    kc = _catalog()
    stream = device.new_stream()
    args = [sk.to_device(a, stream) if isinstance(a, np.ndarray) else a for a in kc.poison_outputs(case, host)]
    if case.domain == 2:
        width = host[2]
        config: Any = simt.LaunchConfig2D.for_shape((n + width - 1) // width, width)
    else:
        config = simt.LaunchConfig1D.for_len(n, block=kc.BLOCK)
    prepared = case.kernel.prepare(config, device)
    case.kernel.launch(prepared, stream, *args)
    return [args[i].to_numpy(stream) for i in case.outputs]


def _host(name: str, n: int) -> list[Any]:
    return _catalog().CASES[name].make_args(n, np.random.default_rng(zlib.crc32(f"{name}/{n}".encode())))


@pytest.mark.parametrize("name", sorted(_catalog().CASES))
@pytest.mark.parametrize("n", SIZES)
def test_gpu_matches_numpy_reference(name: str, n: int) -> None:
    kc = _catalog()
    case = kc.CASES[name]
    host = _host(name, n)
    kc.assert_matches(case, _run(case, host, n, sk.Device(0)), case.reference(host), f"GPU {name} n={n}")


@pytest.mark.parametrize("name", sorted(_catalog().CASES))
@pytest.mark.parametrize("n", SIZES)
def test_gpu_matches_cpu_executor(name: str, n: int) -> None:
    kc = _catalog()
    case = kc.CASES[name]
    host = _host(name, n)
    gpu = _run(case, host, n, sk.Device(0))
    cpu = _run(case, host, n, sk.Device.cpu())
    kc.assert_matches(case, gpu, cpu, f"GPU vs CPU executor {name} n={n}")


_PROBE_SCRIPT = """
import importlib.util, sys
spec = importlib.util.spec_from_file_location("kernels_catalog", sys.argv[1])
m = importlib.util.module_from_spec(spec); sys.modules["kernels_catalog"] = m; spec.loader.exec_module(m)
import numpy as np, safekernels as sk
from safekernels import simt
dev = sk.Device(0); s = dev.new_stream(); n = 1000
mode = sys.argv[2]
try:
    if mode.startswith("read_at"):
        k = n - 1 if mode == "read_at_last" else n
        a = sk.to_device(np.arange(n, dtype=np.float32), s); c = sk.to_device(np.full(64, np.nan, np.float32), s)
        m.read_at.launch(m.read_at.prepare(simt.LaunchConfig1D.for_len(64), dev), s, a, c, k)
        s.synchronize()
        print("VALUES", sorted(set(c.to_numpy(s).tolist())))
    else:
        a = sk.to_device(np.array([7, -7, 9, 4], np.int32), s)
        b = sk.to_device(np.array([2, 2, 0 if mode == "divide_zero" else 5, 3], np.int32), s)
        c = sk.zeros(4, "i32", s)
        m.int_divide.launch(m.int_divide.prepare(simt.LaunchConfig1D.for_len(4), dev), s, a, b, c)
        s.synchronize()
        print("VALUES", c.to_numpy(s).tolist())
except sk.DeviceError as exc:
    print(type(exc).__name__, exc)
"""


def _probe(mode: str) -> str:
    env = {**os.environ, "PYTHONPATH": f"{ROOT / 'src'}:{ROOT}"}
    proc = subprocess.run(
        [sys.executable, "-c", _PROBE_SCRIPT, str(ROOT / "tests/codegen/kernels_catalog.py"), mode],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_reading_the_last_element_does_not_trap() -> None:
    assert "VALUES [999.0]" in _probe("read_at_last")


def test_reading_index_len_traps() -> None:
    out = _probe("read_at_len")
    assert "KernelTrapError" in out and "read_at" in out, out


def test_integer_division_by_zero_traps_on_the_gpu_too() -> None:
    assert "VALUES [4, -3, 5, 2]" in _probe("divide_ok")  # 7//2+7%2, -7//2+-7%2, 9//5+9%5, 4//3+4%3
    out = _probe("divide_zero")
    assert "KernelTrapError" in out and "int_divide" in out, out


@pytest.mark.parametrize("example", ["vecadd_simt.py", "saxpy_simt.py"])
def test_example_runs_on_gpu(example: str) -> None:
    env = {**os.environ, "SAFEKERNELS_DEVICE": "gpu", "PYTHONPATH": f"{ROOT / 'src'}:{ROOT}"}
    proc = subprocess.run(
        [sys.executable, str(ROOT / "examples" / example)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert "PASSED" in proc.stdout


_TRAP_SCRIPT = """
import importlib.util, sys
spec = importlib.util.spec_from_file_location("kernels_catalog", sys.argv[1])
m = importlib.util.module_from_spec(spec); sys.modules["kernels_catalog"] = m; spec.loader.exec_module(m)
import numpy as np, safekernels as sk
from safekernels import simt
dev = sk.Device(0); s = dev.new_stream()
a = sk.to_device(np.ones(1000, np.float32), s); c = sk.zeros(1000, "f32", s)
p = m.out_of_bounds.prepare(simt.LaunchConfig1D.for_len(1000), dev)
try:
    m.out_of_bounds.launch(p, s, a, c)
    s.synchronize()
    print("NO ERROR")
except sk.DeviceError as exc:
    print(type(exc).__name__, exc)
"""


def test_trap_surfaces_as_kernel_trap_error_and_process_exits() -> None:
    env = {**os.environ, "PYTHONPATH": f"{ROOT / 'src'}:{ROOT}"}
    proc = subprocess.run(
        [sys.executable, "-c", _TRAP_SCRIPT, str(ROOT / "tests/codegen/kernels_catalog.py")],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "KernelTrapError" in proc.stdout, proc.stdout + proc.stderr
    assert "out_of_bounds" in proc.stdout


def test_torch_tensors_as_arguments_without_copies() -> None:
    torch = pytest.importorskip("torch")
    kc = _catalog()
    dev = sk.Device(0)
    n = 10_001
    a = torch.rand(n, device="cuda")
    b = torch.rand(n, device="cuda")
    c = torch.zeros(n, device="cuda")
    stream = sk.as_stream(torch.cuda.current_stream(), dev)
    prepared = kc.vecadd.prepare(simt.LaunchConfig1D.for_len(n), dev)
    kc.vecadd.launch(prepared, stream, a, b, c)
    torch.cuda.synchronize()
    assert torch.equal(c, a + b)
    assert sk.as_buffer(c, dev).ptr == c.data_ptr()
    with pytest.raises(sk.AliasingError):
        kc.vecadd.launch(prepared, stream, a, b, a)


def test_cupy_arrays_as_arguments() -> None:
    cp = pytest.importorskip("cupy")
    kc = _catalog()
    dev = sk.Device(0)
    n = 4099
    a = cp.arange(n, dtype=cp.float32)
    b = cp.ones(n, dtype=cp.float32)
    c = cp.zeros(n, dtype=cp.float32)
    stream = sk.as_stream(cp.cuda.get_current_stream(), dev)
    prepared = kc.vecadd.prepare(simt.LaunchConfig1D.for_len(n), dev)
    kc.vecadd.launch(prepared, stream, a, b, c)
    cp.cuda.get_current_stream().synchronize()
    assert bool(cp.all(c == a + b))


def test_dlpack_both_directions() -> None:
    torch = pytest.importorskip("torch")
    from safekernels.runtime.interop import DLPackView, buffer_from_dlpack

    t = torch.arange(1000, dtype=torch.int32, device="cuda")
    buf = buffer_from_dlpack(t)
    assert buf.ptr == t.data_ptr() and buf.dtype.name == "i32" and len(buf) == 1000
    np.testing.assert_array_equal(buf.to_numpy(), np.arange(1000, dtype=np.int32))
    bf = torch.ones(16, dtype=torch.bfloat16, device="cuda")
    assert buffer_from_dlpack(bf).dtype.name == "bf16"
    out = sk.to_device(np.arange(77, dtype=np.float32), sk.Device(0).new_stream())
    back = torch.from_dlpack(DLPackView(out))
    assert back.data_ptr() == out.ptr
    assert torch.equal(back.cpu(), torch.arange(77, dtype=torch.float32))
    via_cai = torch.as_tensor(out, device="cuda")
    assert via_cai.data_ptr() == out.ptr


def test_function_limits_and_device_limits() -> None:
    from safekernels.simt.gpu_launch import function_limits

    kc = _catalog()
    dev = sk.Device(0)
    limits = dev.limits
    assert limits.compute_capability >= (8, 0) and limits.multiprocessor_count > 0
    fl = function_limits(kc.block_sum, dev)
    assert fl.static_shared_bytes >= kc.BLOCK * 8
    assert 0 < fl.max_threads_per_block <= limits.max_threads_per_block
