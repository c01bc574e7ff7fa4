"""The training kernels of examples/training/ on the CPU executor, against torch's autograd on the CPU (no GPU).

tests/training/ checks these kernels against float64 numpy and needs no torch; tests/torch/test_training_ops.py
checks them against torch on the GPU.  This is the third side issue 24 asks for: the same kernels, at small
sizes, on the CPU executor, against torch's own gradients (`F.scaled_dot_product_attention`, `F.rms_norm`,
`F.layer_norm` in float32 on bf16-representable inputs) -- flash attention's O, dQ, dK, dV at d = 64 and 128,
causal and not; RMSNorm's y, dx, dw and LayerNorm's y, dx, dw, db on ragged shapes.  Exits non-zero when a
relative error exceeds the bound (bf16 outputs: one rounding, ~2e-3).

    PYTHONPATH=src:. python3 bench/tools/training_grads_vs_torch.py [--bound 1e-2]

torch must be importable (any build: only its CPU path runs).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]


def _rel(got: Any, want: Any) -> float:
    a, b = np.asarray(got, np.float64), np.asarray(want, np.float64)
    return float(np.linalg.norm(a - b) / np.linalg.norm(b))


def attention_errors(torch: Any, d: int, causal: bool, heads: int = 2, seq: int = 256) -> dict[str, float]:
    """Relative errors of the CPU executor's O, dQ, dK, dV against torch's SDPA and its autograd."""
    import safekernels as sk
    from examples.training import attention

    cpu = sk.Device.cpu()
    q, k, v, do = attention.random_inputs(heads, seq, d, seed=d + causal)
    o, lse2 = attention.forward(cpu, q, k, v, seq, causal)
    grads = attention.backward(cpu, q, k, v, o, do, lse2, seq, causal)
    leaves = [torch.tensor(x, dtype=torch.float32).view(1, heads, seq, d).requires_grad_() for x in (q, k, v)]
    out = torch.nn.functional.scaled_dot_product_attention(*leaves, is_causal=causal)
    refs = torch.autograd.grad(out, leaves, torch.tensor(do).view(1, heads, seq, d))
    errs = {"o": _rel(o, out.detach().reshape(-1, d).numpy())}
    for name, got, ref in zip(("dq", "dk", "dv"), grads, refs, strict=True):
        errs[name] = _rel(got, ref.reshape(-1, d).numpy())
    return errs


def norm_errors(torch: Any, rows: int, n: int) -> dict[str, dict[str, float]]:
    """Relative errors of the CPU executor's RMSNorm and LayerNorm, forward and backward, against torch's."""
    import torch.nn.functional as F

    import safekernels as sk
    from examples.training import norms

    cpu = sk.Device.cpu()
    eps = 1e-5
    x, w, b, dy = norms.random_inputs(rows, n, seed=rows)
    tdy = torch.tensor(dy, dtype=torch.float32)
    y, rstd = norms.rmsnorm_forward(cpu, x, w, eps)
    dx, dw = norms.rmsnorm_backward(cpu, x, w, rstd, dy)
    tx, tw = (torch.tensor(a, dtype=torch.float32).requires_grad_() for a in (x, w))
    ty = F.rms_norm(tx, (n,), tw, eps)
    gx, gw = torch.autograd.grad(ty, (tx, tw), tdy)
    rms = {"y": _rel(y, ty.detach().numpy()), "dx": _rel(dx, gx.numpy()), "dw": _rel(dw, gw.numpy())}
    y, mean, rstd = norms.layernorm_forward(cpu, x, w, b, eps)
    dx, dw, db = norms.layernorm_backward(cpu, x, w, mean, rstd, dy)
    tx, tw, tb = (torch.tensor(a, dtype=torch.float32).requires_grad_() for a in (x, w, b))
    ty = F.layer_norm(tx, (n,), tw, tb, eps)
    gx, gw, gb = torch.autograd.grad(ty, (tx, tw, tb), tdy)
    ln = {"y": _rel(y, ty.detach().numpy()), "dx": _rel(dx, gx.numpy()), "dw": _rel(dw, gw.numpy())}
    ln["db"] = _rel(db, gb.numpy())
    return {"RMSNorm": rms, "LayerNorm": ln}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--bound", type=float, default=1e-2, help="largest relative error accepted")
    args = parser.parse_args()
    try:
        import torch
    except ImportError:
        print("torch is not importable here: nothing checked", file=sys.stderr)
        return 2
    worst = 0.0
    for d in (64, 128):
        for causal in (False, True):
            errs = attention_errors(torch, d, causal)
            worst = max(worst, *errs.values())
            print(f"attention d={d} causal={causal}: " + ", ".join(f"{k} {v:.1e}" for k, v in errs.items()))
    for rows, n in ((100, 256), (37, 96)):
        for name, errs in norm_errors(torch, rows, n).items():
            worst = max(worst, *errs.values())
            print(f"{name} {rows}x{n}: " + ", ".join(f"{k} {v:.1e}" for k, v in errs.items()))
    verdict = "PASSED" if worst <= args.bound else "FAILED"
    print(f"{verdict}: worst relative error {worst:.1e} (bound {args.bound:.0e}); torch {torch.__version__}")
    return 0 if verdict == "PASSED" else 1


if __name__ == "__main__":
    sys.exit(main())
