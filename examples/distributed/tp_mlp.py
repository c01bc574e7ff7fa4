"""Tensor-parallel MLP: two safekernels GEMMs per rank and one all-reduce, run by `torchrun`.

    torchrun --nproc_per_node 2 examples/distributed/tp_mlp.py            # check against the unsharded MLP
    torchrun --nproc_per_node 8 examples/distributed/tp_mlp.py --bench    # time it (one JSON line from rank 0)

The MLP is `relu(x @ W1) @ W2`. W1 is split by columns and W2 by rows (Megatron's column / row split), so each
rank computes its slice of the hidden layer with no communication, multiplies it by its rows of W2, and one
all-reduce (a sum) of the partial results gives the full output on every rank. The GEMMs are the tile kernel of
linear_ops.py through `safekernels.torch.custom_op`; the collective is torch.distributed's (NCCL on GPUs, gloo on
CPUs: the CPU executor runs the same kernels, so the example is tested without a GPU).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import torch
import torch.distributed as dist

sys.path.insert(0, str(Path(__file__).resolve().parent))
from linear_ops import gemm
from ranks import add_device_argument, join


def mlp_shard(x: torch.Tensor, w1_shard: torch.Tensor, w2_shard: torch.Tensor) -> torch.Tensor:
    """This rank's partial output: relu(x @ W1[:, shard]) @ W2[shard, :] (f32), summed over ranks by the caller."""
    hidden = torch.relu(gemm(x, w1_shard)).to(torch.bfloat16)
    partial: torch.Tensor = gemm(hidden, w2_shard)
    return partial


def tp_mlp(x: torch.Tensor, w1_shard: torch.Tensor, w2_shard: torch.Tensor) -> torch.Tensor:
    out = mlp_shard(x, w1_shard, w2_shard)
    dist.all_reduce(out)
    return out


def weights(hidden: int, ffn: int, device: torch.device) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """The full x, W1, W2 from one seed: every rank builds the same tensors and keeps its shard."""
    g = torch.Generator().manual_seed(1234)
    x = torch.randn(256, hidden, generator=g)
    w1 = torch.randn(hidden, ffn, generator=g) * hidden**-0.5
    w2 = torch.randn(ffn, hidden, generator=g) * ffn**-0.5
    return tuple(t.to(torch.bfloat16).to(device) for t in (x, w1, w2))  # type: ignore[return-value]


def shard(w1: torch.Tensor, w2: torch.Tensor, rank: int, world: int) -> tuple[torch.Tensor, torch.Tensor]:
    ffn = w1.shape[1]
    if ffn % world:
        raise SystemExit(f"the FFN width {ffn} does not split over {world} ranks")
    part = slice(rank * ffn // world, (rank + 1) * ffn // world)
    return w1[:, part].contiguous(), w2[part, :].contiguous()


def check(device: torch.device, hidden: int, ffn: int) -> float:
    """Max relative error of the tensor-parallel result against the same MLP unsharded (on this rank)."""
    x, w1, w2 = weights(hidden, ffn, device)
    w1_shard, w2_shard = shard(w1, w2, dist.get_rank(), dist.get_world_size())
    got = tp_mlp(x, w1_shard, w2_shard)
    want = mlp_shard(x, w1, w2)
    return float((got - want).abs().max() / want.abs().max())


def bench(device: torch.device, tokens: int, hidden: int, ffn: int, iters: int) -> dict[str, float | int | str]:
    """Time one tensor-parallel MLP forward (both GEMMs and the all-reduce) on this rank's shard."""
    rank, world = dist.get_rank(), dist.get_world_size()
    g = torch.Generator(device=device).manual_seed(rank)
    x = torch.randn(tokens, hidden, device=device, generator=g).to(torch.bfloat16)
    w1 = (torch.randn(hidden, ffn // world, device=device, generator=g) * hidden**-0.5).to(torch.bfloat16)
    w2 = (torch.randn(ffn // world, hidden, device=device, generator=g) * ffn**-0.5).to(torch.bfloat16)
    for _ in range(3):
        tp_mlp(x, w1, w2)
    synchronize(device)
    dist.barrier()
    start = time.perf_counter()
    for _ in range(iters):
        tp_mlp(x, w1, w2)
    synchronize(device)
    seconds = (time.perf_counter() - start) / iters
    flops = 2 * 2 * tokens * hidden * ffn  # two GEMMs over the full MLP, split over the ranks
    return {"world": world, "tokens": tokens, "hidden": hidden, "ffn": ffn, "ms": seconds * 1e3,
            "tflops_total": flops / seconds / 1e12, "device": str(device)}  # fmt: skip


def synchronize(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bench", action="store_true", help="time the MLP instead of checking it")
    parser.add_argument("--tokens", type=int, default=8192)
    parser.add_argument("--hidden", type=int, default=None, help="model width (check: 128, bench: 8192)")
    parser.add_argument("--ffn", type=int, default=None, help="MLP width (check: 512, bench: 28672)")
    parser.add_argument("--iters", type=int, default=20)
    add_device_argument(parser)
    args = parser.parse_args(argv)
    device = join(args.device)
    try:
        if args.bench:
            row = bench(device, args.tokens, args.hidden or 8192, args.ffn or 28672, args.iters)
            if dist.get_rank() == 0:
                print(json.dumps(row))
        else:
            error = check(device, args.hidden or 128, args.ffn or 512)
            if dist.get_rank() == 0:
                print(f"tp_mlp: {dist.get_world_size()} ranks, max relative error {error:.2e}")
            if error > 1e-2:
                raise SystemExit(f"rank {dist.get_rank()}: tensor-parallel result differs ({error:.2e})")
            if dist.get_rank() == 0:
                print("PASSED")
    finally:
        dist.destroy_process_group()


if __name__ == "__main__":
    main()
