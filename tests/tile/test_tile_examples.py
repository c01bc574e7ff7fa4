"""Every tile example on random data on the CPU executor, including shapes that do not divide the tiles."""

from __future__ import annotations

import numpy as np
import pytest
from tile_harness import fake_gpu_device, load_example

import safekernels as sk
from safekernels.tile.kernel import GPU_NOT_IMPLEMENTED


@pytest.mark.parametrize("n", [1, 127, 128, 129, 1000, 4096])
@pytest.mark.parametrize("seed", [0, 1])
def test_add_example(n: int, seed: int) -> None:
    example = load_example("add_tile")
    got, want = example.run(sk.Device.cpu(), n, seed)
    assert got.shape == (n,) and got.dtype == np.float32
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize(("m", "n"), [(1, 1), (16, 256), (17, 255), (100, 3), (33, 200)])
def test_softmax_example(m: int, n: int) -> None:
    example = load_example("softmax_tile")
    got, want = example.run(sk.Device.cpu(), m, n, seed=m + n)
    assert got.shape == (m, n)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize(
    ("m", "n", "k"), [(64, 64, 32), (65, 63, 33), (1, 1, 1), (130, 70, 100), (128, 192, 64)]
)
def test_matmul_example(m: int, n: int, k: int) -> None:
    example = load_example("matmul_tile")
    got, want = example.run(sk.Device.cpu(), m, n, k, seed=k)
    assert got.shape == (m, n) and got.dtype == np.float32
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-3)


@pytest.mark.parametrize("name", ["add_tile", "softmax_tile", "matmul_tile"])
def test_example_main_prints_passed(
    name: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SAFEKERNELS_DEVICE", "cpu")
    load_example(name).main()
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "PASSED"
    assert out[-2].startswith(name.split("_")[0])


@pytest.mark.parametrize("name", ["add_tile", "softmax_tile", "matmul_tile"])
def test_example_falls_back_to_cpu_on_a_gpu(
    name: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    gpu = fake_gpu_device()
    monkeypatch.setattr(sk.Device, "default", classmethod(lambda cls: gpu))
    load_example(name).main()
    out = capsys.readouterr().out
    assert f"note: {GPU_NOT_IMPLEMENTED}; falling back to Device.cpu()" in out
    assert out.splitlines()[-1] == "PASSED"


def test_gpu_tile_launch_raises_not_implemented() -> None:
    example = load_example("add_tile")
    with pytest.raises(NotImplementedError, match=r"GPU tile codegen is not implemented yet \(issue 6\)"):
        example.run(fake_gpu_device(), 100)
    assert GPU_NOT_IMPLEMENTED == (
        "GPU tile codegen is not implemented yet (issue 6); run with SAFEKERNELS_DEVICE=cpu"
    )
