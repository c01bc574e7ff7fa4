"""`python -m examples.llama_block`: the decoder layer at a small config on the default device, checked.

With torch: `SafeDecoderLayer` against `TorchDecoderLayer` (prefill and a decode step; CUDA when there is a GPU,
else CPU tensors on the CPU executor).  Without torch: the same kernels through the tile API against the float64
numpy reference (`numpy_layer.check`).
"""

from __future__ import annotations

import importlib.util

import safekernels as sk

from .numpy_layer import Config, check

BATCH, SEQ, MAX_POS = 2, 256, 320
TOLERANCE = 2e-2  # relative Frobenius error; bf16 rounding of every intermediate gives about 3e-3


def _with_torch() -> dict[str, float]:
    import torch

    from .layer import caches, make_layers, rel_err

    cfg = Config.tiny()
    device = "cuda" if torch.cuda.is_available() else "cpu"
    ref, layer = make_layers(cfg, MAX_POS, device)
    g = torch.Generator(device="cpu").manual_seed(2)
    x = torch.randn(BATCH, SEQ, cfg.hidden, generator=g).to(device=device, dtype=torch.bfloat16)
    errors = {"prefill": rel_err(layer(x), ref(x))}
    pos = MAX_POS - 40
    ref_k, ref_v, sk_k, sk_v = caches(cfg, BATCH, MAX_POS, pos, device)
    xd = torch.randn(BATCH, cfg.hidden, generator=g).to(device=device, dtype=torch.bfloat16)
    errors["decode"] = rel_err(layer.decode(xd, sk_k, sk_v, pos), ref.decode(xd, ref_k, ref_v, pos))
    new_k = sk_k[pos].view(BATCH, cfg.kv_heads, -1)
    errors["decode cache row"] = rel_err(new_k, ref_k[:, :, pos])
    print(f"llama_block: SafeDecoderLayer vs TorchDecoderLayer on {device}, {cfg}")
    return errors


def main() -> None:
    if importlib.util.find_spec("torch") is not None:
        errors = _with_torch()
    else:
        device = sk.Device.default()
        print(f"llama_block (no torch): the kernels through the tile API on {device!r} vs numpy, {Config.tiny()}")
        errors = check(device, Config.tiny(), BATCH, SEQ, MAX_POS)
    for name, err in errors.items():
        print(f"  {name}: relative error {err:.2e}")
        assert err < TOLERANCE, f"{name}: relative error {err:.2e} >= {TOLERANCE}"
    print("PASSED")


if __name__ == "__main__":
    main()
