"""SIMT buffers are typed for mypy (issue 25 item 3): `sk.zeros(n, f32, s)` is a `DeviceBuffer[f32]`, and
`sk.to_device(array, s)` takes its element type from a numpy array whose dtype mypy knows, so an f64 buffer
passed for a `Slice[f32]` is a mypy error, as the tile track's tensors already were.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

PROGRAM = """\
import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f16, f32, f64, i32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=256)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] + b[i])


dev = sk.Device.cpu()
stream = dev.new_stream()
n = 16
launch = vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=256), dev)
a = sk.to_device(np.arange(n, dtype=np.float32), stream)
b = sk.to_device(np.ones(n), stream)                            # float64 by numpy's default
c = sk.zeros(n, f32, stream)
reveal_type(a)
reveal_type(b)
reveal_type(c)
reveal_type(sk.zeros(n, f64, stream))
reveal_type(sk.empty(n, i32, stream))
reveal_type(sk.to_device(np.ones(n, dtype=np.float16), stream))
reveal_type(sk.to_device(np.arange(n, dtype=np.int32), stream))
reveal_type(sk.to_device(np.random.rand(n).astype(np.float32), stream))
reveal_type(sk.to_device(np.ones(n), stream, dtype=f32))
reveal_type(sk.to_device([1.0, 2.0], stream))
reveal_type(sk.zeros(n, "f32", stream))
vecadd.launch(launch, stream, a, a, c)                          # fine
vecadd.launch(launch, stream, a, b, c)                          # line 36: f64 for Slice[f32]
vecadd.launch(launch, stream, a, a, sk.zeros(n, f16, stream))   # line 37: f16 for DisjointSlice[f32]
"""

EXPECTED_REVEALS = {
    24: "f32",
    25: "f64",
    26: "f32",
    27: "f64",
    28: "i32",
    29: "f16",
    30: "i32",
    31: "f32",
    32: "f32",
    33: "Any",
    34: "Any",
}


def test_buffers_are_typed_from_dtype_and_numpy_arrays(tmp_path: Path) -> None:
    pytest.importorskip("mypy")
    (tmp_path / "prog.py").write_text(PROGRAM, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text(
        "[tool.mypy]\n"
        'plugins = ["mypy_plugin"]\n'
        "check_untyped_defs = true\n"
        f"mypy_path = {json.dumps(str(REPO / 'src'))}\n"
        "[[tool.mypy.overrides]]\n"
        'module = ["safekernels.*", "ownership_check.*", "llvmlite.*", "cuda.*"]\n'
        'follow_imports = "silent"\n'
        "ignore_missing_imports = true\n",
        encoding="utf-8",
    )
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental", "--no-error-summary", "prog.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    reveals = {
        int(m.group(1)): m.group(2)
        for m in re.finditer(
            r'^prog\.py:(\d+): note: Revealed type is "[\w.]*DeviceBuffer\[(?:[\w.]*\.)?(\w+)\]"', proc.stdout, re.M
        )
    }
    assert reveals == EXPECTED_REVEALS, proc.stdout
    errors = [line for line in proc.stdout.splitlines() if ": error:" in line]
    assert [e.split(":")[1] for e in errors] == ["36", "37"], proc.stdout
    assert 'incompatible type "DeviceBuffer[f64]"; expected "DeviceBuffer[f32]"' in errors[0]
    # mypy solves the dtype of the inline `zeros` from the launch: the error names the dtype argument
    assert 'incompatible type "type[f16]"; expected "type[f32]"' in errors[1]


def test_the_overloads_do_not_change_what_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    import numpy as np

    import safekernels as sk
    from safekernels.dtypes import f32, i32

    stream = sk.Device.cpu().new_stream()
    assert sk.zeros(4, f32, stream).dtype.name == "f32"
    assert sk.empty(3, "i32", stream).dtype.name == "i32"
    assert sk.to_device(np.ones(5), stream).dtype.name == "f64"
    assert sk.to_device(np.ones(5), stream, dtype=f32).dtype.name == "f32"
    assert sk.to_device([1, 2], stream, dtype=i32).to_numpy(stream).tolist() == [1, 2]
