"""`tile.autotune` / `simt.autotune` on the CPU executor: tuning per key, the in-process table, the disk table
(reused by a fresh kernel object and by a new process), pruning of configs that cannot run, and outputs
left exactly as one launch leaves them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Annotated, Any

import numpy as np
import pytest

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, u32
from safekernels.simt import AtomicSlice, DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

BT = 64
FAST = {"warmup": 0.2, "rep": 1.0}
REPO = Path(__file__).resolve().parents[2]


@tile.kernel
def scale(z: Annotated[Partition[f32], tile.Dims(BT)], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 3.0)


@tile.kernel
def accumulate(z: Annotated[Partition[f32], tile.Dims(BT)], x: Tensor[f32]) -> None:
    z.store(z.load() + tile.load_like(x, z))


@tile.kernel
def fixed_input(z: Annotated[Partition[f32], tile.Dims(BT)], x: Annotated[Tensor[f32], tile.Dims(BT)]) -> None:
    z.store(tile.load_like(x, z))


@simt.kernel
@simt.launch_contract(domain=1)
def saxpy(x: Slice[f32], y: Slice[f32], out: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(alpha * x[i] + y[i])


@simt.kernel
@simt.launch_contract(domain=1)
def count(values: Slice[u32], bins: AtomicSlice[u32]) -> None:
    i = thread.index_1d().get()
    if i < len(values):
        bins.fetch_add(values[i] % len(bins), u32(1))


@simt.kernel
@simt.launch_contract(block=128)
def fixed_block(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(x[i])


@pytest.fixture(autouse=True)
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SAFEKERNELS_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("SAFEKERNELS_NO_CACHE", raising=False)
    return tmp_path


@pytest.fixture
def stream() -> sk.Stream:
    return sk.Device.cpu().new_stream()


def tuned_scale() -> Any:
    return tile.autotune(configs=[tile.Config(BT=32), tile.Config(BT=128, num_warps=4)], key=["x"], **FAST)(scale)


def test_tile_tunes_once_per_key_and_reuses_the_winner(stream: sk.Stream, capsys: pytest.CaptureFixture[str]) -> None:
    k = tuned_scale()
    x = tile.from_numpy(np.arange(1000, dtype=np.float32))
    z, x = k(tile.zeros((1000,), f32), x).sync_on(stream)
    np.testing.assert_array_equal(z.to_numpy(stream), np.arange(1000, dtype=np.float32) * 3)
    err = capsys.readouterr().err
    assert "safekernels autotune: scale key=(((1000,), 'f32'),): config 1/2 (BT=32): " in err
    assert "config 2/2 (BT=128, num_warps=4)" in err and "best is config" in err
    assert (k.tune_stats.tunings, k.tune_stats.memory_hits) == (1, 0)
    z, x = k(z, x).sync_on(stream)
    assert (k.tune_stats.tunings, k.tune_stats.memory_hits) == (1, 1)
    assert capsys.readouterr().err == ""  # nothing printed when the winner is known
    k(tile.zeros((300,), f32), tile.ones((300,), f32)).sync_on(stream)  # a new key: tuned again
    assert k.tune_stats.tunings == 2


def test_tile_winner_persists_on_disk_for_a_fresh_kernel(stream: sk.Stream, cache_dir: Path) -> None:
    first = tuned_scale()
    first(tile.zeros((500,), f32), tile.ones((500,), f32)).sync_on(stream)
    entries = list((cache_dir / "autotune").glob("*.json"))
    assert len(entries) == 1
    stored = json.loads(entries[0].read_text())
    assert stored["best"] in (0, 1) and stored["kernel"] == "scale" and len(stored["timings_ms"]) == 2
    again = tuned_scale()  # a new object, as in a new process: reads the disk table
    z, _ = again(tile.zeros((500,), f32), tile.ones((500,), f32)).sync_on(stream)
    assert (again.tune_stats.tunings, again.tune_stats.disk_hits) == (0, 1)
    np.testing.assert_array_equal(z.to_numpy(stream), np.full(500, 3.0, np.float32))
    entries[0].write_text("{not json")  # a corrupt entry is a miss, then rewritten
    third = tuned_scale()
    third(tile.zeros((500,), f32), tile.ones((500,), f32)).sync_on(stream)
    assert third.tune_stats.tunings == 1
    assert json.loads(entries[0].read_text())["kernel"] == "scale"


def test_no_cache_env_keeps_nothing_on_disk(
    stream: sk.Stream, cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SAFEKERNELS_NO_CACHE", "1")
    tuned_scale()(tile.zeros((200,), f32), tile.ones((200,), f32)).sync_on(stream)
    assert not (cache_dir / "autotune").exists()


def test_winner_is_reused_by_a_new_process(tmp_path: Path) -> None:
    script = tmp_path / "tuned.py"
    script.write_text(
        textwrap.dedent(
            """
            from typing import Annotated
            import safekernels as sk
            from safekernels import tile
            from safekernels.dtypes import f32
            from safekernels.tile import Partition, Tensor
            BT = 64
            @tile.autotune(configs=[tile.Config(BT=32), tile.Config(BT=128)], key=["x"], warmup=0.2, rep=1.0)
            @tile.kernel
            def double(z: Annotated[Partition[f32], tile.Dims(BT)], x: Tensor[f32]) -> None:
                z.store(tile.load_like(x, z) * 2.0)
            stream = sk.Device.cpu().new_stream()
            z, x = double(tile.zeros((256,), f32), tile.ones((256,), f32)).sync_on(stream)
            assert (z.to_numpy(stream) == 2.0).all()
            print("tunings", double.tune_stats.tunings, "disk", double.tune_stats.disk_hits)
            """
        )
    )
    env = {**os.environ, "SAFEKERNELS_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": str(REPO / "src")}
    runs = [subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env) for _ in range(2)]
    assert [r.returncode for r in runs] == [0, 0], runs[0].stderr + runs[1].stderr
    assert runs[0].stdout.strip() == "tunings 1 disk 0" and "config 1/2" in runs[0].stderr
    assert runs[1].stdout.strip() == "tunings 0 disk 1" and runs[1].stderr == ""


def test_outputs_see_exactly_one_launch_despite_the_benchmark_runs(stream: sk.Stream) -> None:
    k = tile.autotune(configs=[tile.Config(BT=32), tile.Config(BT=64)], key=["x"], **FAST)(accumulate)
    z, _ = k(tile.full((256,), 5.0, f32), tile.ones((256,), f32)).sync_on(stream)
    np.testing.assert_array_equal(z.to_numpy(stream), np.full(256, 6.0, np.float32))  # no reset_to_zero needed


def test_partitions_come_back_with_the_callers_tile_shape(stream: sk.Stream) -> None:
    k = tuned_scale()
    z, x = k(tile.zeros((256,), f32).partition((16,)), tile.ones((256,), f32)).sync_on(stream)
    assert isinstance(z, Partition) and z.tile_shape == (16,)
    np.testing.assert_array_equal(z.unpartition().to_numpy(stream), np.full(256, 3.0, np.float32))
    zz, _ = k(tile.zeros((256,), f32), x).sync_on(stream)
    assert isinstance(zz, Tensor)
    with pytest.raises(sk.UseAfterMoveError):
        k(zz, x)  # `x` was moved by the launch above: autotuned launches move like any launch


def test_configs_that_cannot_run_are_skipped(stream: sk.Stream, capsys: pytest.CaptureFixture[str]) -> None:
    k = tile.autotune(configs=[tile.Config(BT=32), tile.Config(BT=64)], key=[], **FAST)(fixed_input)
    z, _ = k(tile.zeros((64,), f32), tile.ones((64,), f32)).sync_on(stream)  # BT=32 wants x of shape (32,)
    assert "config 1/2 (BT=32) failed: ShapeError" in capsys.readouterr().err
    assert k.best and next(iter(k.best.values())) == 1
    np.testing.assert_array_equal(z.to_numpy(stream), np.ones(64, np.float32))


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: tile.autotune(configs=[tile.Config(NOPE=1)])(scale), "NOPE is not a module-level constant"),
        (lambda: tile.autotune(configs=[tile.Config(BT=8)], key=["w"])(scale), "key names 'w', not parameters"),
        (lambda: tile.autotune(configs=[])(scale), "configs must be a non-empty list"),
        (lambda: tile.autotune(configs=[tile.Config()])(saxpy), "tile.autotune decorates a @tile.kernel"),
        (lambda: simt.autotune(configs=[64, 256])(fixed_block), "the launch contract fixes block=128"),
        (lambda: simt.autotune(configs=[64], key=["n"])(saxpy), "key names 'n', not parameters"),
    ],
)
def test_decoration_errors_are_clear(make: Any, message: str) -> None:
    with pytest.raises((TypeError, ValueError), match=message.replace("(", r"\(").replace(".", r"\.")):
        make()


def test_simt_tunes_block_size_and_persists(stream: sk.Stream, capsys: pytest.CaptureFixture[str]) -> None:
    k = simt.autotune(configs=[64, 256], key=["x"], **FAST)(saxpy)
    n = 700
    x = sk.to_device(np.arange(n, dtype=np.float32), stream)
    y = sk.to_device(np.ones(n, np.float32), stream)
    out = sk.zeros(n, f32, stream)
    k.launch(stream, x, y, out, 2.0)
    np.testing.assert_array_equal(out.to_numpy(stream), 2.0 * np.arange(n, dtype=np.float32) + 1)
    assert "saxpy key=((700, 'f32'),): config 1/2 (block=64)" in capsys.readouterr().err
    k.launch(stream, x, y, out, 3.0)
    assert (k.tune_stats.tunings, k.tune_stats.memory_hits) == (1, 1)
    fresh = simt.autotune(configs=[64, 256], key=["x"], **FAST)(saxpy)
    fresh.launch(stream, x, y, out, 2.0)
    assert (fresh.tune_stats.tunings, fresh.tune_stats.disk_hits) == (0, 1)


def test_simt_atomic_output_sees_one_launch(stream: sk.Stream) -> None:
    k = simt.autotune(
        configs=[32, 128],
        key=["values"],
        grid=lambda values, bins, block: simt.LaunchConfig1D.for_len(len(values), block=block),
        **FAST,
    )(count)
    host = np.arange(300, dtype=np.uint32)
    bins = sk.zeros(10, u32, stream)
    k.launch(stream, sk.to_device(host, stream), bins)
    np.testing.assert_array_equal(bins.to_numpy(stream), np.bincount(host % 10, minlength=10))
