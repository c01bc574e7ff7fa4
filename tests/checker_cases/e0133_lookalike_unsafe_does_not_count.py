"""Only `safekernels.simt.unsafe` opens an unsafe block; a local context manager of the same name does not."""

import contextlib
from collections.abc import Iterator

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, thread


@contextlib.contextmanager
def unsafe() -> Iterator[None]:
    yield


@simt.kernel
@simt.launch_contract(block=64)
def pretend(dst: DisjointSlice[f32]) -> None:
    with unsafe():
        scratch = simt.shared_array(f32, 64)  # expect: E0133
    idx = thread.index_1d()
    if (o := dst.get_mut(idx)) is not None:
        o.set(f32(0.0))
    print(scratch)


def main() -> None:
    print(sk, pretend)
