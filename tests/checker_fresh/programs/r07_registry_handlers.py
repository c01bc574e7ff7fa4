# fresh-expect: E0382 at line 49
"""Post-processing passes register themselves in a module-level registry with a decorator; the driver applies
every registered pass to the same input tensor, but each pass moves it into its launch."""
from collections.abc import Callable

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

N = 256
PASSES: dict[str, Callable] = {}


def register(name: str):
    def deco(fn: Callable) -> Callable:
        PASSES[name] = fn
        return fn
    return deco


@tile.kernel
def double(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


@tile.kernel
def negate(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(-tile.load_like(x, z))


@register("double")
def run_double(stream, x):
    out, _ = double(tile.zeros((N,), f32).partition((64,)), x).sync_on(stream)
    return out.unpartition()


@register("negate")
def run_negate(stream, x):
    out, _ = negate(tile.zeros((N,), f32).partition((64,)), x).sync_on(stream)
    return out.unpartition()


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    x = tile.arange(N, f32)
    results = {}
    for name, fn in PASSES.items():
        results[name] = fn(stream, x)  # BUG
    print("results:", {k: v.to_numpy(stream)[1] for k, v in results.items()})


if __name__ == "__main__":
    main()
