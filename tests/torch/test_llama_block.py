"""The decoder-layer example (examples/llama_block/) as a torch module: `SafeDecoderLayer` against the same layer in
plain torch (`TorchDecoderLayer`), eagerly, under `torch.compile(fullgraph=True)` (one graph, no break) and
replayed from a CUDA graph, for prefill and a decode step.

Small config (8 heads, 2 KV heads, hidden 1024; two sequences of 256 tokens; a decode step at position 280 of a
320-position cache).  Needs torch (skipped cleanly without it); the `gpu` tests need a CUDA device, the last test
runs the module on CPU tensors (the CPU executor).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

torch = pytest.importorskip("torch")

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from examples.llama_block.layer import caches, make_layers, rel_err  # noqa: E402
from examples.llama_block.numpy_layer import Config  # noqa: E402

BATCH, SEQ, MAX_POS, POS = 2, 256, 320, 280
TOL = 2e-2  # relative Frobenius error; bf16 intermediates give about 3e-3 (a wrong head or position: > 0.3)


def _setup(device: str) -> tuple[Any, Any, Any, Any, tuple[Any, ...]]:
    cfg = Config.tiny()
    ref, layer = make_layers(cfg, MAX_POS, device)
    g = torch.Generator(device="cpu").manual_seed(3)
    x = torch.randn(BATCH, SEQ, cfg.hidden, generator=g).to(device=device, dtype=torch.bfloat16)
    xd = torch.randn(BATCH, cfg.hidden, generator=g).to(device=device, dtype=torch.bfloat16)
    return ref, layer, x, xd, caches(cfg, BATCH, MAX_POS, POS, device)


def _cuda() -> None:
    if not torch.cuda.is_available():
        pytest.skip("torch sees no CUDA device")


@pytest.mark.gpu
def test_prefill_and_decode_match_plain_torch() -> None:
    _cuda()
    ref, layer, x, xd, (ref_k, ref_v, sk_k, sk_v) = _setup("cuda")
    assert rel_err(layer(x), ref(x)) < TOL
    want = ref.decode(xd, ref_k, ref_v, POS)
    got = layer.decode(xd, sk_k, sk_v, POS)
    assert rel_err(got, want) < TOL
    # the new token's K and V rows landed in the cache, the rest of it is untouched
    assert rel_err(sk_k[POS].view(BATCH, 2, -1), ref_k[:, :, POS]) < TOL
    assert rel_err(sk_v[POS].view(BATCH, 2, -1), ref_v[:, :, POS]) < TOL
    assert torch.equal(sk_k[POS + 1 :], torch.zeros_like(sk_k[POS + 1 :]))


@pytest.mark.gpu
def test_whole_layer_compiles_to_one_graph_without_breaks() -> None:
    _cuda()
    ref, layer, x, xd, (_, _, sk_k, sk_v) = _setup("cuda")
    torch._dynamo.reset()
    explained = torch._dynamo.explain(layer)(x)
    assert explained.graph_break_count == 0 and explained.graph_count == 1, explained.break_reasons
    compiled = torch.compile(layer, fullgraph=True)
    assert rel_err(compiled(x), ref(x)) < TOL
    explained = torch._dynamo.explain(layer.decode)(xd, sk_k.clone(), sk_v.clone(), POS)
    assert explained.graph_break_count == 0 and explained.graph_count == 1, explained.break_reasons
    k_eager, v_eager = sk_k.clone(), sk_v.clone()
    eager = layer.decode(xd, k_eager, v_eager, POS)
    k, v = sk_k.clone(), sk_v.clone()
    got = torch.compile(layer.decode, fullgraph=True)(xd, k, v, POS)
    assert torch.equal(got, eager)  # the same kernels on the same inputs
    assert torch.equal(k, k_eager) and torch.equal(v, v_eager)  # the cache rows written in place, as eagerly


@pytest.mark.gpu
def test_cuda_graph_replay_matches_eager() -> None:
    _cuda()
    _, layer, x, xd, (_, _, sk_k, sk_v) = _setup("cuda")
    want, want_d = layer(x), layer.decode(xd, sk_k, sk_v, POS)
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        layer(x), layer.decode(xd, sk_k, sk_v, POS)  # warm-up: compile and load outside the capture
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out = layer(x)
        out_d = layer.decode(xd, sk_k, sk_v, POS)
    graph.replay()
    torch.cuda.synchronize()
    assert torch.equal(out, want) and torch.equal(out_d, want_d)


def test_layer_on_cpu_tensors_matches_plain_torch() -> None:
    ref, layer, x, xd, (ref_k, ref_v, sk_k, sk_v) = _setup("cpu")
    assert rel_err(layer(x), ref(x)) < TOL
    assert rel_err(layer.decode(xd, sk_k, sk_v, POS), ref.decode(xd, ref_k, ref_v, POS)) < TOL


def test_shapes_the_kernels_do_not_take_are_refused_with_a_message() -> None:
    _, layer, x, xd, (_, _, sk_k, sk_v) = _setup("cpu")
    with pytest.raises(ValueError, match="seq a multiple of 128"):
        layer(x[:, :100])
    with pytest.raises(ValueError, match="position 320 is outside the cache"):
        layer.decode(xd, sk_k, sk_v, MAX_POS)
