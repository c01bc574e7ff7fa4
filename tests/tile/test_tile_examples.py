"""Every tile example on random data on the CPU executor, including shapes that do not divide the tiles."""

from __future__ import annotations

import numpy as np
import pytest
from tile_harness import load_example

import safekernels as sk


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
