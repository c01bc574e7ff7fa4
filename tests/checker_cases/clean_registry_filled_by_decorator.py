"""The clean twin of `e0382_registry_filled_by_decorator`: every function a registry holds only reads its input, or
each call gets an input of its own, so the loop over the registry is clean; a decorated function called by its name
runs its own body."""

from collections.abc import Callable

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

N = 256
PASSES: dict[str, Callable[[sk.Stream, Tensor[f32]], object]] = {}
READERS: list[Callable[[sk.Stream, Tensor[f32]], object]] = []


def register(name: str) -> Callable[[Callable[[sk.Stream, Tensor[f32]], object]], Callable[..., object]]:
    def deco(fn: Callable[[sk.Stream, Tensor[f32]], object]) -> Callable[..., object]:
        PASSES[name] = fn
        return fn

    return deco


def reader(fn: Callable[[sk.Stream, Tensor[f32]], object]) -> Callable[..., object]:
    READERS.append(fn)
    return fn


@tile.kernel
def double(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


@register("double")
def run_double(stream: sk.Stream, x: Tensor[f32]) -> object:
    out, _ = double(tile.zeros((N,), f32).partition((64,)), x).sync_on(stream)
    return out.unpartition()


@register("negate")
def run_negate(stream: sk.Stream, x: Tensor[f32]) -> object:
    out, _ = double(tile.zeros((N,), f32).partition((64,)), x).sync_on(stream)
    return out.unpartition()


@reader
def show(stream: sk.Stream, x: Tensor[f32]) -> object:
    return x.to_numpy(stream)[:2]


@reader
def mean(stream: sk.Stream, x: Tensor[f32]) -> object:
    return float(x.to_numpy(stream).mean())


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    x = tile.arange(N, f32).sync_on(stream)
    for read in READERS:
        print(read(stream, x))
    for name, fn in PASSES.items():
        print(name, fn(stream, tile.arange(N, f32).sync_on(stream)))
    print(run_double(stream, x))


if __name__ == "__main__":
    main()
