"""Data-parallel training with safekernels ops: DDP over `torchrun`, one process per GPU (NCCL) or per CPU (gloo).

    torchrun --nproc_per_node 2 examples/distributed/ddp_train.py --json losses.json
    torchrun --nproc_per_node 1 examples/distributed/ddp_train.py --json single.json   # the same global batch

The model is one pre-norm transformer block, every kernel of it a safekernels op with its backward: RMSNorm and
causal flash attention from examples/training (forward and backward kernels), the projections and the MLP through
the tile GEMM of linear_ops.py. Parameters are kept in f32 (the optimizer's copy) and cast to bf16 for the
kernels. Each rank trains on its slice of one fixed global batch; DDP averages the gradients, so the loss curve
matches a single process training on the whole batch (up to the order of the floating-point sums). The CPU
executor runs the same kernels on CPU tensors, which is how the loss parity is tested without a GPU.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]  # linear_ops beside this file, `training` in examples/
from linear_ops import Linear  # noqa: E402
from ranks import add_device_argument, join  # noqa: E402
from training.torch_ops import flash_attention, rms_norm  # noqa: E402


class Block(torch.nn.Module):
    """x + attn(norm(x)), then + mlp(norm(.)); (batch, seq, width) bf16 activations."""

    def __init__(self, width: int, heads: int, ffn: int, generator: torch.Generator) -> None:
        super().__init__()
        self.heads = heads
        self.norm1 = torch.nn.Parameter(torch.ones(width))
        self.norm2 = torch.nn.Parameter(torch.ones(width))
        self.qkv = Linear(width, 3 * width, generator=generator)
        self.out = Linear(width, width, generator=generator)
        self.up = Linear(width, ffn, generator=generator)
        self.down = Linear(ffn, width, generator=generator)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        batch, seq, width = x.shape
        d = width // self.heads
        q, k, v = self.qkv(rms_norm(x, self.norm1.to(torch.bfloat16))).split(width, dim=-1)
        q, k, v = (t.reshape(batch, seq, self.heads, d).transpose(1, 2).contiguous() for t in (q, k, v))
        attended = flash_attention(q, k, v, causal=True).transpose(1, 2).reshape(batch, seq, width)
        x = x + self.out(attended)
        return x + self.down(torch.relu(self.up(rms_norm(x, self.norm2.to(torch.bfloat16)))))


class Model(torch.nn.Module):
    def __init__(self, width: int, heads: int, ffn: int, seed: int) -> None:
        super().__init__()
        generator = torch.Generator().manual_seed(seed)
        self.block = Block(width, heads, ffn, generator)
        self.head = Linear(width, width, generator=generator)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out: torch.Tensor = self.head(self.block(x.to(torch.bfloat16)))
        return out


def global_batch(batch: int, seq: int, width: int) -> tuple[torch.Tensor, torch.Tensor]:
    g = torch.Generator().manual_seed(99)
    x = torch.randn(batch, seq, width, generator=g)
    return x, torch.roll(x, shifts=1, dims=1)  # learn to predict the previous position


def train(args: argparse.Namespace, device: torch.device) -> list[float]:
    rank, world = dist.get_rank(), dist.get_world_size()
    if args.batch % world:
        raise SystemExit(f"the global batch {args.batch} does not split over {world} ranks")
    model = Model(args.width, args.heads, args.ffn, seed=0).to(device)
    ddp = DistributedDataParallel(model, device_ids=[device.index] if device.type == "cuda" else None)
    optimizer = torch.optim.SGD(ddp.parameters(), lr=args.lr)
    x, y = global_batch(args.batch, args.seq, args.width)
    part = slice(rank * args.batch // world, (rank + 1) * args.batch // world)
    x, y = x[part].to(device), y[part].to(device)
    losses = []
    for _ in range(args.steps):
        optimizer.zero_grad(set_to_none=True)
        loss = torch.nn.functional.mse_loss(ddp(x).float(), y)
        loss.backward()
        optimizer.step()
        mean = loss.detach().clone()
        dist.all_reduce(mean)
        losses.append(float(mean) / world)
    return losses


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=5)
    parser.add_argument("--batch", type=int, default=4, help="the global batch (split over the ranks)")
    parser.add_argument("--seq", type=int, default=128)
    parser.add_argument("--width", type=int, default=128)
    parser.add_argument("--heads", type=int, default=2)
    parser.add_argument("--ffn", type=int, default=256)
    parser.add_argument("--lr", type=float, default=0.05)
    parser.add_argument("--json", type=Path, help="rank 0 writes the loss curve here")
    add_device_argument(parser)
    args = parser.parse_args(argv)
    device = join(args.device)
    try:
        losses = train(args, device)
        if dist.get_rank() == 0:
            print(
                f"ddp_train: {dist.get_world_size()} ranks on {device.type}, losses "
                + " ".join(f"{v:.5f}" for v in losses)
            )
            if args.json:
                args.json.write_text(json.dumps({"world": dist.get_world_size(), "losses": losses}))
    finally:
        dist.destroy_process_group()


if __name__ == "__main__":
    main()
