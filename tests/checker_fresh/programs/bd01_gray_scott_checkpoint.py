# fresh-expect: clean
# fresh-note: A 1-D Gray-Scott reaction-diffusion solver runs each step as an asynchronous SIMT launch held in an attribute, overlaps only host-side bookkeeping with it, and serialises checkpoints with np.savez after the step has been synced.
"""Gray-Scott u/v system on a periodic line, with in-memory npz checkpoints every few steps."""
import io

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 200
DU, DV, FEED, KILL = 0.16, 0.08, 0.035, 0.065


@simt.kernel
@simt.launch_contract(block=64)
def react(u: Slice[f32], v: Slice[f32], u_out: DisjointSlice[f32], v_out: DisjointSlice[f32], dt: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    n = len(u)
    if i >= n:
        return
    l = (i + n - 1) % n
    r = (i + 1) % n
    uvv = u[i] * v[i] * v[i]
    du = DU * (u[l] - 2.0 * u[i] + u[r]) - uvv + FEED * (1.0 - u[i])
    dv = DV * (v[l] - 2.0 * v[i] + v[r]) + uvv - (FEED + KILL) * v[i]
    if (a := u_out.get_mut(idx)) is not None:
        a.set(u[i] + dt * du)
    j = thread.index_1d()
    if (b := v_out.get_mut(j)) is not None:
        b.set(v[i] + dt * dv)


class GrayScott:
    def __init__(self, device: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        u0 = np.ones(N, np.float32)
        v0 = np.zeros(N, np.float32)
        v0[N // 2 - 5 : N // 2 + 5] = 0.5
        self.fields = {"u": sk.to_device(u0, stream), "v": sk.to_device(v0, stream)}
        self.spare = {"u": sk.zeros(N, f32, stream), "v": sk.zeros(N, f32, stream)}
        self.plan = react.prepare(simt.LaunchConfig1D.for_len(N, block=64), device)
        self.pending = None
        self.steps = 0

    def start_step(self, dt: float) -> None:
        f, s = self.fields, self.spare
        self.pending = react.launch_async(self.plan, f["u"], f["v"], s["u"], s["v"], dt)

    def finish_step(self) -> None:
        self.pending.sync_on(self.stream)
        self.pending = None
        self.fields, self.spare = self.spare, self.fields
        self.steps += 1

    def checkpoint(self) -> bytes:
        blob = io.BytesIO()
        np.savez(blob, step=self.steps, **{k: buf.to_numpy(self.stream) for k, buf in self.fields.items()})
        return blob.getvalue()


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    sim = GrayScott(dev, stream)
    archive, wall = [], []
    for step in range(1, 61):
        sim.start_step(1.0)
        wall.append(step * 1.0)
        sim.finish_step()
        if step % 20 == 0:
            archive.append(sim.checkpoint())
    restored = np.load(io.BytesIO(archive[-1]))
    assert int(restored["step"]) == 60 and np.all(np.isfinite(restored["v"]))
    print("checkpoints:", len(archive), "v max:", round(float(restored["v"].max()), 4), "t =", wall[-1])


if __name__ == "__main__":
    main()
