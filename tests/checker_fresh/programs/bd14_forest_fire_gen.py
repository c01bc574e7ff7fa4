# fresh-expect: clean
# fresh-note: A forest-fire cellular automaton is driven by a generator that launches a 2-D SIMT update from the current grid into the next one, swaps the two buffers, and yields host copies of each frame to the consumer.
"""Drossel-Schwabl-style forest fire without regrowth: how far does a fire spread?"""
import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import i32, u32
from safekernels.simt import DisjointSlice, Slice, thread

EMPTY, TREE, FIRE, ASH = 0, 1, 2, 3
NX, NY = 32, 20


@simt.kernel
@simt.launch_contract(block=(16, 16))
def burn(cells: Slice[i32], out: DisjointSlice[i32], nx: u32, ny: u32) -> None:
    idx = thread.index_2d(nx)
    if idx is None or idx.get() >= nx * ny:
        return
    k = idx.get()
    r = k // nx
    c = k % nx
    state = cells[k]
    new = state
    if state == FIRE:
        new = ASH
    elif state == TREE:
        lit = (c > 0 and cells[k - 1] == FIRE) or (c < nx - 1 and cells[k + 1] == FIRE)
        lit = lit or (r > 0 and cells[k - nx] == FIRE) or (r < ny - 1 and cells[k + nx] == FIRE)
        if lit:
            new = FIRE
    if (o := out.get_mut(idx)) is not None:
        o.set(new)


def simulate(forest: np.ndarray, device: sk.Device, max_steps: int):
    stream = device.new_stream()
    cur = sk.to_device(forest.ravel().astype(np.int32), stream)
    nxt = sk.zeros(NX * NY, i32, stream)
    plan = burn.prepare(simt.LaunchConfig2D.for_shape(NY, NX, block=(16, 16)), device)
    for step in range(max_steps):
        burn.launch(plan, stream, cur, nxt, NX, NY)
        cur, nxt = nxt, cur
        frame = cur.to_numpy(stream).reshape(NY, NX)
        yield step, frame
        if not (frame == FIRE).any():
            return


def main() -> None:
    rng = np.random.default_rng(12)
    dev = sk.Device.default()
    for density in (0.45, 0.75):
        forest = np.where(rng.random((NY, NX)) < density, TREE, EMPTY)
        forest[:, 0] = np.where(forest[:, 0] == TREE, FIRE, EMPTY)
        trees = int((forest != EMPTY).sum())
        last = None
        for step, frame in simulate(forest, dev, max_steps=200):
            last = (step, frame)
        steps, final = last
        burned = int((final == ASH).sum()) / trees
        assert not (final == FIRE).any()
        print(f"density {density}: fire out after {steps + 1} steps, burned {burned:.2f}")


if __name__ == "__main__":
    main()
