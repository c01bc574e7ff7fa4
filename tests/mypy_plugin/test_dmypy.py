"""The plugin under the mypy daemon: diagnostics appear and disappear as files are edited between runs.

dmypy re-checks only what an edit affects, with the same AST nodes for unchanged code, which is where a
per-function memo used to drop errors (reference/checker-anchors.md §2.5).  These tests edit a file between
`dmypy run` invocations, in the same file and across modules (a kernel's parameter mode changes, the launch in
another module must be re-checked).
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from mypy_harness import REPO, write_config

pytestmark = pytest.mark.slow

KERNELS = textwrap.dedent(
    """
    from safekernels import simt
    from safekernels.dtypes import f32
    from safekernels.simt import DisjointSlice, Slice, thread


    @simt.kernel
    @simt.launch_contract(block=256)
    def scale(x: Slice[f32], y: {mode}[f32]) -> None:
        idx = thread.index_1d()
        i = idx.get()
        if (out := y.get_mut(idx)) is not None:
            out.set(f32(x[i] * 2.0))
    """
)

HOST = textwrap.dedent(
    """
    import safekernels as sk
    from safekernels import simt
    from safekernels.dtypes import f32

    from kernels import scale


    def main(n: int) -> None:
        dev = sk.Device(0)
        stream = dev.new_stream()
        a = sk.zeros(n, f32, stream)
        plan = scale.prepare(simt.LaunchConfig1D.for_len(n, block=256), dev)
        scale.launch(plan, stream, a, {second})
    """
)


class Daemon:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.status = root / ".dmypy.json"
        self.env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), str(REPO / "src")])}

    def run(self) -> str:
        config = self.root / "mypy-plugin-test.ini"
        proc = subprocess.run(
            [sys.executable, "-m", "mypy.dmypy", "--status-file", str(self.status), "run", "--",
             "--config-file", str(config), "host.py", "kernels.py"],
            cwd=self.root, env=self.env, capture_output=True, text=True, timeout=300,
        )
        assert "INTERNAL ERROR" not in proc.stdout + proc.stderr, proc.stdout + proc.stderr
        return proc.stdout

    def stop(self) -> None:
        subprocess.run(
            [sys.executable, "-m", "mypy.dmypy", "--status-file", str(self.status), "kill"],
            cwd=self.root, env=self.env, capture_output=True, timeout=60,
        )


@pytest.fixture
def daemon(tmp_path: Path) -> Iterator[Daemon]:
    write_config(tmp_path, tmp_path / ".mypy_cache")
    (tmp_path / "kernels.py").write_text(KERNELS.format(mode="DisjointSlice"), encoding="utf-8")
    (tmp_path / "host.py").write_text(HOST.format(second="sk.zeros(n, f32, stream)"), encoding="utf-8")
    d = Daemon(tmp_path)
    try:
        yield d
    finally:
        d.stop()


def _write(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")
    stamp = path.stat().st_mtime + 2  # dmypy compares mtimes and hashes; make the edit unmistakable
    os.utime(path, (stamp, stamp))


def test_diagnostic_appears_and_disappears_with_edits(daemon: Daemon) -> None:
    host = daemon.root / "host.py"
    assert "[E0502]" not in daemon.run()
    _write(host, HOST.format(second="a"))
    out = daemon.run()
    assert "host.py:14:35: error: cannot borrow `a` as mutable because it is also borrowed as immutable  [E0502]" in out
    assert daemon.run().count("[E0502]") == 1  # an unchanged re-run neither drops nor duplicates it
    _write(host, HOST.format(second="sk.zeros(n, f32, stream)"))
    assert "[E0502]" not in daemon.run()


def test_kernel_edit_in_another_module_rechecks_the_launch(daemon: Daemon) -> None:
    host = daemon.root / "host.py"
    _write(host, HOST.format(second="a"))
    assert "[E0502]" in daemon.run()
    _write(daemon.root / "kernels.py", KERNELS.format(mode="Slice"))  # both parameters shared now: no conflict
    out = daemon.run()
    assert "[E0502]" not in out, out
    _write(daemon.root / "kernels.py", KERNELS.format(mode="DisjointSlice"))
    assert "[E0502]" in daemon.run()


def test_kernel_signature_edit_retypes_the_launch(daemon: Daemon) -> None:
    """The typed-launch hooks cache host parameter types per checking pass: an edited kernel is read afresh."""
    assert "[arg-type]" not in daemon.run()
    _write(daemon.root / "kernels.py", KERNELS.format(mode="DisjointSlice").replace("x: Slice[f32]", "x: f32"))
    out = daemon.run()
    assert (
        'host.py:14:32: error: Argument 3 to "launch" of "SimtKernel" has incompatible type "DeviceBuffer[f32]"; '
        'expected "float"  [arg-type]'
    ) in out, out
    assert daemon.run().count("[arg-type]") == 1  # an unchanged re-run neither drops nor duplicates it
    _write(daemon.root / "kernels.py", KERNELS.format(mode="DisjointSlice"))
    assert "[arg-type]" not in daemon.run()


TWO_ERRORS = textwrap.dedent(
    """
    import safekernels as sk
    from safekernels import simt
    from safekernels.dtypes import f32

    from kernels import scale


    def helper(n: int) -> int:
        return n + {bump}


    def main(n: int) -> None:
        dev = sk.Device(0)
        stream = dev.new_stream()
        a = sk.zeros(n, f32, stream)
        b = sk.zeros(n, f32, stream)
        plan = scale.prepare(simt.LaunchConfig1D.for_len(n, block=256), dev)
        scale.launch(plan, stream, a, a)
        scale.launch(plan, stream, b, {second})
        scale.launch(plan, stream, a, b)
    """
)


def test_every_error_of_a_function_survives_rechecks_of_its_module(daemon: Daemon) -> None:
    """The analysis is shared by the hooks of one checking pass only: after an edit elsewhere in the module (dmypy
    re-checks the module, keeping unchanged functions' nodes), an unchanged re-run, and a fix of one of the two
    errors, every remaining error of `main` is still reported, once."""
    host = daemon.root / "host.py"

    def e0502_lines() -> list[int]:
        out = daemon.run()
        return sorted(int(line.split(":")[1]) for line in out.splitlines() if line.endswith("[E0502]"))

    _write(host, TWO_ERRORS.format(bump=1, second="b"))
    assert e0502_lines() == [19, 20]
    _write(host, TWO_ERRORS.format(bump=22, second="b"))  # another function of the module edited
    assert e0502_lines() == [19, 20]
    assert e0502_lines() == [19, 20]  # unchanged re-run
    _write(host, TWO_ERRORS.format(bump=333, second="sk.zeros(n, f32, stream)"))  # one error fixed
    assert e0502_lines() == [19]


FORWARDING = textwrap.dedent(
    """
    import functools
    from collections.abc import Callable
    from typing import Any

    import safekernels as sk
    from safekernels import tile
    from safekernels.dtypes import f32
    from safekernels.tile import Partition, Tensor


    @tile.kernel
    def scale(z: Partition[f32], x: Tensor[f32]) -> None:
        z.store(tile.load_like(x, z) * 2.0)


    def logged(fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            {wrapper_body}

        return wrapper


    @logged
    def double(z: Any, x: Any, stream: sk.Stream) -> Any:
        return scale(z, x).sync_on(stream)


    def main() -> None:
        stream = sk.Device.cpu().new_stream()
        z = tile.zeros((64,), f32).partition((32,)).sync_on(stream)
        x = tile.arange(64, f32).sync_on(stream)
        z2, x2 = double(z, x, stream)
        print(x.to_numpy(stream)[:4])
    """
)


def test_an_edited_decorator_stops_and_starts_forwarding_calls(daemon: Daemon) -> None:
    """The plugin reads which top-level decorators forward calls once per module tree (`_ModuleShape`): an edit
    that makes the decorator stop forwarding its arguments (then forward them again) is seen by the next run."""
    host = daemon.root / "host.py"
    forwarding = FORWARDING.format(wrapper_body="return fn(*args, **kwargs)")
    _write(host, forwarding)
    assert "host.py:35:11: error: use of moved value: `x`  [E0382]" in daemon.run()
    _write(host, FORWARDING.format(wrapper_body="return fn(args[0], tile.ones((64,), f32).sync_on(args[2]), args[2])"))
    out = daemon.run()
    assert "[E0382]" not in out, out
    _write(host, forwarding)
    assert daemon.run().count("[E0382]") == 1
