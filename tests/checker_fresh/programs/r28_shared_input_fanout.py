# fresh-expect: clean
"""Clean: one input op is made `.shared()` and fanned out to several tile launches built in a dict comprehension;
each launch gets its own output partition and every op is run."""
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def scaled(z: Partition[f32], x: Tensor[f32], alpha: f32) -> None:
    z.store(tile.load_like(x, z) * alpha)


def fan_out(stream, n: int, alphas: tuple[float, ...]) -> dict[float, float]:
    x = tile.arange(n, f32).shared()
    ops = {a: scaled(tile.zeros((n,), f32).partition((64,)), x, a) for a in alphas}
    out = {}
    for alpha, op in ops.items():
        z, _, _ = op.sync_on(stream)
        out[alpha] = float(z.unpartition().to_numpy(stream)[1])
    last, _, _ = scaled(tile.zeros((n,), f32).partition((64,)), x, 10.0).sync_on(stream)
    out[10.0] = float(last.unpartition().to_numpy(stream)[1])
    return out


if __name__ == "__main__":
    print("fan-out:", fan_out(sk.Device.cpu().new_stream(), 128, (0.5, 2.0, 4.0)))
