"""`from safekernels import tile as t`: the alias decorates the kernel and builds the tensors."""

import safekernels as sk
from safekernels import tile as t
from safekernels.dtypes import f32


@t.kernel
def copy(z: t.Partition[f32], x: t.Tensor[f32]) -> None:
    z.store(t.load_like(x, z))


def main() -> None:
    stream = sk.Device(0).new_stream()
    src = t.arange((1024,), f32)
    dst = t.zeros((1024,), f32).partition((256,))
    op = copy(dst, src)
    print(op.sync_on(stream))
    print(src.sync_on(stream))  # expect: E0382
