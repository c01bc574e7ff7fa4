# fresh-expect: E0505 at line 83
# fresh-note: Forest-fire cellular automaton whose class-based context manager starts the spread step asynchronously in __enter__ and syncs it in __exit__; inside the block the driver counts burning cells per row by moving the step's output buffer into a tile reduction while the step still writes it.
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

WIDTH = 64
EMPTY, TREE, FIRE = 0, 1, 2


@simt.kernel
@simt.launch_contract(block=(16, 16))
def spread(state: Slice[i32], noise: Slice[f32], out: DisjointSlice[i32], width: i32,
           p_catch: f32, p_grow: f32) -> None:
    idx = thread.index_2d(width)
    if idx is None:
        return
    k = idx.get()
    if k >= len(state):
        return
    col = k % width
    cell = state[k]
    nxt = cell
    if cell == FIRE:
        nxt = i32(EMPTY)
    elif cell == TREE:
        burning = (col > 0 and state[k - 1] == FIRE) or (col + 1 < width and state[k + 1] == FIRE)
        burning = burning or (k >= width and state[k - width] == FIRE)
        burning = burning or (k + width < len(state) and state[k + width] == FIRE)
        if burning and noise[k] < p_catch:
            nxt = i32(FIRE)
    elif noise[k] < p_grow:
        nxt = i32(TREE)
    if (o := out.get_mut(idx)) is not None:
        o.set(nxt)


@tile.kernel
def burning_per_row(counts: Partition[i32], state: Tensor[i32]) -> None:
    row = state.partition((WIDTH,)).load((tile.bid(0),))
    counts.store(tile.sum((row == FIRE).astype(i32), axis=0, keepdims=True))


class SpreadStep:
    """Runs one spread step in the background for the duration of a `with` block."""

    def __init__(self, prepared: simt.PreparedLaunch, state: sk.DeviceBuffer, noise: sk.DeviceBuffer,
                 out: sk.DeviceBuffer, stream: sk.Stream) -> None:
        self.prepared, self.state, self.noise, self.out, self.stream = prepared, state, noise, out, stream
        self.op: sk.DeviceOp | None = None

    def __enter__(self) -> SpreadStep:
        self.op = spread.launch_async(self.prepared, self.state, self.noise, self.out, WIDTH, 0.7, 0.01)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.op is not None:
            self.op.sync_on(self.stream)
            self.op = None


def burn(rows: int, steps: int, seed: int = 3) -> list[int]:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(seed)
    grid = np.where(rng.random(rows * WIDTH) < 0.6, TREE, EMPTY).astype(np.int32)
    grid[(rows // 2) * WIDTH + WIDTH // 2] = FIRE
    state = sk.to_device(grid, stream)
    out = sk.zeros(rows * WIDTH, i32, stream)
    noise = sk.zeros(rows * WIDTH, f32, stream)
    prepared = spread.prepare(simt.LaunchConfig2D.for_shape(rows, WIDTH, block=(16, 16)), dev)
    front = []
    for _ in range(steps):
        noise.copy_from_numpy(rng.random(rows * WIDTH).astype(np.float32), stream)
        with SpreadStep(prepared, state, noise, out, stream) as step:
            counts = tile.zeros((rows,), i32).partition((1,))
            counts, out = burning_per_row(counts, step.out).sync_on(stream)
            front.append(int(counts.unpartition().to_numpy(stream).max()))
        state, out = out, state
    return front


if __name__ == "__main__":
    print("widest fire front per step:", burn(rows=48, steps=5))
