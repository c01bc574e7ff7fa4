"""`.to(...)` of values that are not safekernels buffers (torch-like tensors of another library, annotated with its
`Tensor` class, or built by its functions) does not move them: only safekernels device buffers move."""

from __future__ import annotations

import tensorlib
from tensorlib import Tensor

import safekernels as sk


def copies(t: Tensor, u: tensorlib.Tensor) -> tuple[Tensor, Tensor]:
    first = t.to("cuda:1")
    again = t.to("cuda:0", non_blocking=True)
    print(t.data, u.to("cuda:1").device, u.data)
    return first, again


def main() -> None:
    t = tensorlib.zeros(2)
    a, b = copies(t, t)
    moved = t.to("cuda:1")
    print(t.data, a.device, b.device, moved.device, t.to("cpu").data)
    host = sk.Device.cpu(1)
    print(host, t.to(str(host)).device)
