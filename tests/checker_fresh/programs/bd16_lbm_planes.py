# fresh-expect: clean
# fresh-note: A D1Q3 lattice-Boltzmann solver stores its three populations as planes of one allocation, hands a fused stream-and-collide kernel three disjoint plane views of the source and of the destination lattice, and swaps the two lattices each step.
"""D1Q3 lattice Boltzmann (BGK) for a diffusing density bump on a periodic line."""
import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 240
Q = 3
W0, W1 = 2.0 / 3.0, 1.0 / 6.0


@simt.device
def post_collision(f0: f32, fp: f32, fm: f32, direction: int, omega: f32) -> f32:
    rho = f0 + fp + fm
    u = (fp - fm) / rho
    if direction == 0:
        return f0 - omega * (f0 - W0 * rho * (1.0 - 1.5 * u * u))
    if direction == 1:
        return fp - omega * (fp - W1 * rho * (1.0 + 3.0 * u + 3.0 * u * u))
    return fm - omega * (fm - W1 * rho * (1.0 - 3.0 * u + 3.0 * u * u))


@simt.kernel
@simt.launch_contract(block=64)
def stream_collide(f0: Slice[f32], fp: Slice[f32], fm: Slice[f32], g0: DisjointSlice[f32], gp: DisjointSlice[f32], gm: DisjointSlice[f32], omega: f32) -> None:
    i = thread.index_1d().get()
    n = len(f0)
    if i >= n:
        return
    l = (i + n - 1) % n
    r = (i + 1) % n
    if (a := g0.get_mut(thread.index_1d())) is not None:
        a.set(post_collision(f0[i], fp[i], fm[i], 0, omega))
    if (b := gp.get_mut(thread.index_1d())) is not None:
        b.set(post_collision(f0[l], fp[l], fm[l], 1, omega))
    if (c := gm.get_mut(thread.index_1d())) is not None:
        c.set(post_collision(f0[r], fp[r], fm[r], 2, omega))


class Lattice:
    def __init__(self, n: int, stream: sk.Stream) -> None:
        self.n = n
        self.buf = sk.zeros(Q * n, f32, stream)

    def plane(self, q: int):
        return self.buf.view(q * self.n, (q + 1) * self.n)

    def planes(self):
        rest, moving = self.buf.split_at(self.n)
        right, left = moving.split_at(self.n)
        return rest, right, left

    def density(self, stream: sk.Stream) -> np.ndarray:
        return self.buf.to_numpy(stream).reshape(Q, self.n).sum(axis=0)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rho0 = 1.0 + 0.5 * np.exp(-((np.arange(N) - N / 2) ** 2) / 50.0)
    src, dst = Lattice(N, stream), Lattice(N, stream)
    src.buf.copy_from_numpy(np.concatenate([W0 * rho0, W1 * rho0, W1 * rho0]).astype(np.float32), stream)
    plan = stream_collide.prepare(simt.LaunchConfig1D.for_len(N, block=64), dev)
    for step in range(40):
        outputs = dst.planes() if step % 2 else (dst.plane(0), dst.plane(1), dst.plane(2))
        stream_collide.launch(plan, stream, src.plane(0), src.plane(1), src.plane(2), *outputs, 1.2)
        src, dst = dst, src
    rho = src.density(stream)
    assert abs(rho.sum() - rho0.sum()) < 1e-2 * rho0.sum()
    assert rho.max() < rho0.max()
    print(f"mass {rho.sum():.3f} (was {rho0.sum():.3f}), peak {rho.max():.4f} (was {rho0.max():.4f})")


if __name__ == "__main__":
    main()
