"""Strong scaling of the tensor-parallel MLP (examples/distributed/tp_mlp.py) over 1, 2, 4 and 8 GPUs.

    python bench/tp_mlp_scaling.py [--tokens 8192 --hidden 8192 --ffn 28672] [--out results.json]

Each world size is one `torchrun` of the example with `--bench` (one rank per GPU, NCCL, NVLink multicast off);
rank 0 reports the time of one forward (two safekernels GEMMs on its shard and the all-reduce). The efficiency of
N GPUs is T(1) / (N · T(N)): 1.0 is perfect scaling. World sizes above the machine's GPU count are not run.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import torch

REPO = Path(__file__).resolve().parents[1]
SCRIPT = REPO / "examples" / "distributed" / "tp_mlp.py"


def run(world: int, args: argparse.Namespace) -> dict[str, float | int | str]:
    env = dict(os.environ, NCCL_NVLS_ENABLE="0")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO / "src"), env.get("PYTHONPATH")]))
    argv = [sys.executable, "-m", "torch.distributed.run", "--standalone", f"--nproc_per_node={world}", str(SCRIPT)]
    argv += ["--bench", "--device", "cuda", "--tokens", str(args.tokens), "--hidden", str(args.hidden)]
    argv += ["--ffn", str(args.ffn), "--iters", str(args.iters)]
    proc = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=900)
    if proc.returncode != 0:
        raise SystemExit(f"{world} GPUs failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}")
    row: dict[str, float | int | str] = json.loads(proc.stdout.strip().splitlines()[-1])
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=8192)
    parser.add_argument("--hidden", type=int, default=8192)
    parser.add_argument("--ffn", type=int, default=28672)
    parser.add_argument("--iters", type=int, default=20)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    gpus = torch.cuda.device_count()
    if gpus == 0:
        raise SystemExit("no CUDA device: the scaling benchmark needs GPUs")
    rows = [run(world, args) for world in (1, 2, 4, 8) if world <= gpus]
    base = float(rows[0]["ms"])
    print(f"tensor-parallel MLP, {args.tokens} tokens, hidden {args.hidden}, ffn {args.ffn}, bf16, "
          f"{torch.cuda.get_device_name(0)}, torch {torch.__version__}")  # fmt: skip
    print("| GPUs | ms / forward | TFLOP/s (all GPUs) | efficiency |")
    print("|---|---|---|---|")
    for row in rows:
        world = int(row["world"])
        row["efficiency"] = base / (world * float(row["ms"]))
        print(f"| {world} | {float(row['ms']):.3f} | {float(row['tflops_total']):.0f} | {row['efficiency']:.2f} |")
    if args.out:
        args.out.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
