"""The parity rule on random programs: small tile kernels over the op set (`random_kernels`) must run on the
CPU executor and compile to PTX that nvJitLink assembles for sm_90, and running one twice gives the same
result (each kernel's atomics into the histogram are all adds or all maxes, so they
commute).  Bounded for CI; the GPU comparison is test_gpu_parity.py."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from random_kernels import launch, load, source, write

import safekernels as sk


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False), st.booleans())
def test_random_tile_kernels_run_on_the_cpu_and_compile_for_the_gpu(rng: random.Random, exact: bool) -> None:
    from safekernels.codegen.tile.pipeline import compile_tile
    from safekernels.codegen.tile.specialize import specialize

    text = source(rng, gpu_exact=exact)
    module = load(write(text))
    device = sk.Device.cpu()
    z1, hist1 = launch(module, device, seed=3)
    z2, hist2 = launch(module, device, seed=3)
    np.testing.assert_array_equal(z1, z2)
    np.testing.assert_array_equal(hist1, hist2)
    from safekernels import tile
    from safekernels.dtypes import f32, i32

    args = [
        tile.zeros((200,), f32).partition((64,)),
        tile.zeros((16,), i32),
        tile.zeros((200,), f32),
        tile.zeros((200,), i32),
    ]
    stream = device.new_stream()
    values = [a.sync_on(stream) for a in args]
    params, grid_rank = specialize(module.generated, values)
    compiled = compile_tile(module.generated.fn, params, grid_rank, arch="sm_90")
    assert compiled.cubin, text


def test_the_generator_covers_the_op_set() -> None:
    seen = "".join(source(random.Random(seed)) for seed in range(200))
    for needle in (
        "tile.gather", "tile.atomic_add", "tile.atomic_max", "tile.cumsum", "tile.argmax", "tile.scatter",
        "blend(", " // ", " % ", " << ", " >> ", " ^ ", "~", "tile.where", "tile.sum", "astype",
    ):  # fmt: skip
        assert needle in seen, needle
