"""A callable value that is one of a known set of functions of the module runs one of them at its call: a name a
`for` binds to each item of a display of them, an entry of a dict display of them under literal keys, a name bound
to either of them by a conditional expression.  Each function moves its argument into a tile launch, so a second
call through the value (or a use after it) uses a moved value.  A call that runs one known function is reported
at that function's launch, where the runtime raises (`passes["negate"](stream, x)`: inside `run_negate_pass`); a
call that may run either is reported at the call."""

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


def run_negate_pass(stream: sk.Stream, x: Tensor[f32]) -> Any:
    out = tile.zeros((N,), f32).partition((64,))
    out, _ = negate(out, x).sync_on(stream)  # expect: E0382
    return out.unpartition()


def each_of_a_display() -> None:
    stream = sk.Device.cpu().new_stream()
    x = tile.arange(N, f32).sync_on(stream)
    for fn in (run_double, run_negate):
        fn(stream, x)  # expect: E0382


def entries_of_a_dict() -> None:
    stream = sk.Device.cpu().new_stream()
    x = tile.arange(N, f32).sync_on(stream)
    print(x.to_numpy(stream)[:2])
    passes = {"double": run_double, "negate": run_negate_pass}
    passes["double"](stream, x)
    passes["negate"](stream, x)


def chosen_by_a_test() -> None:
    stream = sk.Device.cpu().new_stream()
    x = tile.arange(N, f32).sync_on(stream)
    fn = run_double if len(sys.argv) > 5 else run_negate
    fn(stream, x)
    fn(stream, x)  # expect: E0382


def main() -> None:
    each_of_a_display()
    entries_of_a_dict()
    chosen_by_a_test()


if __name__ == "__main__":
    main()
