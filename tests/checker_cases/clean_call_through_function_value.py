"""The clean twin of `e0382_call_through_function_value`: each call through a callable value that is one of a known
set of functions of the module gets its own tensor, and a function that only reads its argument may be called
through the value again."""

import sys
from typing import Any

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

N = 256


@tile.kernel
def double(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


@tile.kernel
def negate(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(-tile.load_like(x, z))


def run_double(stream: sk.Stream, x: Tensor[f32]) -> Any:
    out, _ = double(tile.zeros((N,), f32).partition((64,)), x).sync_on(stream)
    return out.unpartition()


def run_negate(stream: sk.Stream, x: Tensor[f32]) -> Any:
    out, _ = negate(tile.zeros((N,), f32).partition((64,)), x).sync_on(stream)
    return out.unpartition()


def peek(stream: sk.Stream, x: Tensor[f32]) -> Any:
    return x.to_numpy(stream)[:2]


def each_of_a_display() -> None:
    stream = sk.Device.cpu().new_stream()
    for fn in (run_double, run_negate):
        x = tile.arange(N, f32).sync_on(stream)
        print(fn(stream, x).to_numpy(stream)[:2])
    y = tile.arange(N, f32).sync_on(stream)
    for look in (peek, peek):
        look(stream, y)
    print(y.to_numpy(stream)[:2])


def entries_of_a_dict() -> None:
    stream = sk.Device.cpu().new_stream()
    x = tile.arange(N, f32).sync_on(stream)
    y = tile.arange(N, f32).sync_on(stream)
    print(x.to_numpy(stream)[:2])
    passes = {"double": run_double, "negate": run_negate}
    passes["double"](stream, x)
    passes["negate"](stream, y)


def chosen_by_a_test() -> None:
    stream = sk.Device.cpu().new_stream()
    x = tile.arange(N, f32).sync_on(stream)
    fn = run_double if len(sys.argv) > 5 else run_negate
    out = fn(stream, x)
    print(out.to_numpy(stream)[:2])


def main() -> None:
    each_of_a_display()
    entries_of_a_dict()
    chosen_by_a_test()


if __name__ == "__main__":
    main()
