"""The torch.distributed examples (examples/distributed/), run the way their docstrings say: `torchrun`.

Without a GPU the ranks are CPU processes talking over gloo and the kernels run on the CPU executor: the
tensor-parallel MLP must equal the unsharded one, and data-parallel training over two ranks must follow the loss
curve of one process on the whole batch. With GPUs the same scripts run one rank per GPU over NCCL (two GPUs
needed for the parallel runs; on one GPU the single-rank NCCL run is compared with the CPU ranks' curve). torch is
not a dependency of safekernels: everything here skips without it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
if not torch.distributed.is_available():
    pytest.skip("this torch build has no torch.distributed", allow_module_level=True)

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples" / "distributed"
#: Loss curves of two runs that differ only in how the batch is split agree to float-summation order.
PARITY_RTOL = 1e-3


def _torchrun(script: str, ranks: int, *args: str, cpu: bool, tmp: Path) -> str:
    env = dict(os.environ, NCCL_NVLS_ENABLE="0", OMP_NUM_THREADS="1", SAFEKERNELS_CACHE_DIR=str(tmp / "kernels"))
    if cpu:
        env["SAFEKERNELS_DEVICE"] = "cpu"
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO / "src"), env.get("PYTHONPATH")]))
    argv = [sys.executable, "-m", "torch.distributed.run", "--standalone", f"--nproc_per_node={ranks}"]
    argv += [str(EXAMPLES / script), "--device", "cpu" if cpu else "cuda", *args]
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=900, env=env, cwd=tmp)
    assert proc.returncode == 0, f"{script} on {ranks} ranks failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-6000:]}"
    return proc.stdout


def _losses(ranks: int, cpu: bool, tmp: Path) -> list[float]:
    out = tmp / f"losses-{ranks}-{'cpu' if cpu else 'cuda'}.json"
    _torchrun("ddp_train.py", ranks, "--json", str(out), cpu=cpu, tmp=tmp)
    record = json.loads(out.read_text())
    assert record["world"] == ranks
    return [float(v) for v in record["losses"]]


def _assert_same_curve(got: list[float], want: list[float], rtol: float) -> None:
    assert len(got) == len(want) >= 3
    assert want[-1] < want[0], f"the loss does not go down: {want}"
    for a, b in zip(got, want, strict=True):
        assert abs(a - b) <= rtol * abs(b), (got, want)


@pytest.fixture(scope="module")
def cpu_curve(tmp_path_factory: pytest.TempPathFactory) -> list[float]:
    return _losses(1, cpu=True, tmp=tmp_path_factory.mktemp("ddp_cpu1"))


def test_tensor_parallel_mlp_equals_the_unsharded_one_on_two_cpu_ranks(tmp_path: Path) -> None:
    out = _torchrun("tp_mlp.py", 2, cpu=True, tmp=tmp_path)
    assert "tp_mlp: 2 ranks" in out and "PASSED" in out, out


def test_ddp_on_two_cpu_ranks_follows_the_single_process_loss_curve(cpu_curve: list[float], tmp_path: Path) -> None:
    _assert_same_curve(_losses(2, cpu=True, tmp=tmp_path), cpu_curve, PARITY_RTOL)


@pytest.mark.gpu
def test_ddp_over_nccl_follows_the_cpu_loss_curve(cpu_curve: list[float], tmp_path: Path) -> None:
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device")
    ranks = min(2, torch.cuda.device_count())  # one GPU: a single NCCL rank still runs the whole GPU path
    # GPU and CPU executor kernels round alike but sum in other orders: a looser bound than two CPU runs.
    _assert_same_curve(_losses(ranks, cpu=False, tmp=tmp_path), cpu_curve, 1e-2)


@pytest.mark.gpu
def test_tensor_parallel_mlp_over_nccl(tmp_path: Path) -> None:
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device")
    ranks = min(2, torch.cuda.device_count())
    out = _torchrun("tp_mlp.py", ranks, cpu=False, tmp=tmp_path)
    assert f"tp_mlp: {ranks} ranks" in out and "PASSED" in out, out
