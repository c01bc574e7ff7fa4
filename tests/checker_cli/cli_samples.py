"""Sample sources for the CLI tests (one bug each, on a known line) and a helper to lay out a project."""

from __future__ import annotations

from pathlib import Path

TILE_HEADER = """\
from safekernels import tile
from safekernels.tile import Partition, Tensor
from safekernels.dtypes import f32


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


"""

#: E0382 on line 15 (`add(z, x, z)`), column 15.
TILE_BAD = (
    TILE_HEADER
    + """\
def main(stream: object) -> None:
    x = tile.ones((1024,), f32)
    y = tile.ones((1024,), f32)
    z = tile.zeros((1024,), f32).partition((128,))
    add(z, x, z).sync()
"""
)

TILE_CLEAN = (
    TILE_HEADER
    + """\
def main(stream: object) -> None:
    x = tile.ones((1024,), f32)
    y = tile.ones((1024,), f32)
    z = tile.zeros((1024,), f32).partition((128,))
    z, x, y = add(z, x, y).sync_on(stream)
    print(z, x, y)
"""
)

SIMT_HEADER = """\
import safekernels as sk
from safekernels import simt
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.dtypes import f32


@simt.kernel
@simt.launch_contract(block=256)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] + b[i])


"""

#: E0502 on line 23, column 36 (the second `c`).
SIMT_BAD = (
    SIMT_HEADER
    + """\
def main(n: int) -> None:
    dev = sk.Device(0)
    stream = dev.new_stream()
    a = sk.zeros(n, f32, stream)
    b = sk.zeros(n, f32, stream)
    c = sk.zeros(n, f32, stream)
    p = vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=256), dev)
    vecadd.launch(p, stream, c, b, c)
"""
)

NOT_SAFEKERNELS = """\
def partition(line: str) -> tuple[str, str]:
    key, _, value = line.partition("=")
    return key, value
"""


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
