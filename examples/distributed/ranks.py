"""What every rank of the distributed examples does first: pick its device and join the process group.

One process per GPU (`LOCAL_RANK` from `torchrun`) over NCCL, or CPU processes over gloo, where the kernels run on
the CPU executor; `--device auto` takes the GPUs when there are any.
"""

from __future__ import annotations

import argparse
import os

import torch
import torch.distributed as dist


def add_device_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--device",
        choices=("auto", "cuda", "cpu"),
        default="auto",
        help="cuda: one GPU per rank and NCCL; cpu: the CPU executor and gloo; auto: cuda if present",
    )


def join(choice: str) -> torch.device:
    """This rank's device (made current) after `init_process_group`; call `dist.destroy_process_group()` at the
    end."""
    cuda = choice == "cuda" or (choice == "auto" and torch.cuda.is_available())
    device = torch.device("cuda", int(os.environ.get("LOCAL_RANK", "0"))) if cuda else torch.device("cpu")
    if cuda:
        torch.cuda.set_device(device)
    dist.init_process_group("nccl" if cuda else "gloo")
    return device
