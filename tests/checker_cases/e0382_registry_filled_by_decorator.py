"""A registry the module fills with a decorator (`PASSES[name] = fn` in the decorator a factory returns,
`HOOKS.append(fn)` in a plain decorator) holds every function decorated with it: a loop over the registry
(`PASSES.items()`, `HOOKS`) may call each of them, so a pass that moves its input into a launch leaves the next one a
moved value: E0382 at the call (the runtime raises `UseAfterMoveError` at each marked line)."""

from collections.abc import Callable

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

N = 256
PASSES: dict[str, Callable[[sk.Stream, Tensor[f32]], object]] = {}
HOOKS: list[Callable[[sk.Stream, Tensor[f32]], object]] = []


def register(name: str) -> Callable[[Callable[[sk.Stream, Tensor[f32]], object]], Callable[..., object]]:
    def deco(fn: Callable[[sk.Stream, Tensor[f32]], object]) -> Callable[..., object]:
        PASSES[name] = fn
        return fn

    return deco


def hook(fn: Callable[[sk.Stream, Tensor[f32]], object]) -> Callable[..., object]:
    HOOKS.append(fn)
    return fn


@tile.kernel
def double(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


@register("double")
def run_double(stream: sk.Stream, x: Tensor[f32]) -> object:
    out, _ = double(tile.zeros((N,), f32).partition((64,)), x).sync_on(stream)
    return out.unpartition()


@register("show")
def run_show(stream: sk.Stream, x: Tensor[f32]) -> object:
    return x.to_numpy(stream)[:2]


@hook
def archive(stream: sk.Stream, x: Tensor[f32]) -> object:
    out, _ = double(tile.zeros((N,), f32).partition((64,)), x).sync_on(stream)
    return out.unpartition()


@hook
def log(stream: sk.Stream, x: Tensor[f32]) -> object:
    return float(x.to_numpy(stream).mean())


def passes(stream: sk.Stream) -> None:
    x = tile.arange(N, f32).sync_on(stream)
    for name, fn in PASSES.items():
        print(name, fn(stream, x))  # expect: E0382


def hooks(stream: sk.Stream) -> None:
    x = tile.arange(N, f32).sync_on(stream)
    for fn in HOOKS:
        print(fn(stream, x))  # expect: E0382


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    for step in (passes, hooks):
        try:
            step(stream)
        except sk.UseAfterMoveError as err:
            print("UseAfterMoveError:", err)


if __name__ == "__main__":
    main()
