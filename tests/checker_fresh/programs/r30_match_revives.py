# fresh-expect: clean
"""Clean: a `match` on an op name dispatches to one of two tile kernels; every arm rebinds the moved names from
`sync_on`, so the tensors used after the match are the live ones."""
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def double(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


@tile.kernel
def negate(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(-tile.load_like(x, z))


def apply(stream, schedule: list[str], n: int) -> float:
    z = tile.zeros((n,), f32).partition((64,))
    x = tile.arange(n, f32)
    for name in schedule:
        match name.split(":"):
            case ["double"]:
                z, x = double(z, x).sync_on(stream)
            case ["negate", *_]:
                z, x = negate(z, x).sync_on(stream)
            case _:
                raise ValueError(name)
        z, x = x.partition((64,)), z.unpartition()
    return float(x.to_numpy(stream)[3])


if __name__ == "__main__":
    print(apply(sk.Device.cpu().new_stream(), ["double", "negate:fast", "double"], 128))
