# fresh-expect: E0499 at line 73
# fresh-known-miss: cli,mypy views a helper builds in a dict comprehension at computed offsets (`packed.view(k * n, k * n + stride)` over `enumerate(FIELDS)`), spread by `*outs` of a list comprehension: the views of a helper's comprehension are not compared
# fresh-note: 1-D Euler equations (Sod shock tube) with the three conserved fields packed into one buffer per time level; the field-view helper swaps the field length and the padded stride, so the rho and momentum output views overlap in one launch.
"""Lax-Friedrichs solver for the Sod shock tube, with conserved fields packed (and padded) into one buffer."""
from __future__ import annotations
import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 400
PAD = 16  # keeps each field's start 64-byte aligned
GAMMA = 1.4
FIELDS = ("rho", "mom", "energy")


@simt.kernel
@simt.launch_contract(block=128)
def lax_friedrichs(rho: Slice[f32], mom: Slice[f32], ene: Slice[f32], rho_out: DisjointSlice[f32],
                   mom_out: DisjointSlice[f32], ene_out: DisjointSlice[f32], n: int, c: f32) -> None:
    i_rho = thread.index_1d()
    i_mom = thread.index_1d()
    i_ene = thread.index_1d()
    i = i_rho.get()
    if i >= n:
        return
    r0, m0, e0 = rho[i], mom[i], ene[i]
    if 0 < i < n - 1:
        rl, ml, el = rho[i - 1], mom[i - 1], ene[i - 1]
        rr, mr, er = rho[i + 1], mom[i + 1], ene[i + 1]
        pl = (GAMMA - 1.0) * (el - 0.5 * ml * ml / rl)
        pr = (GAMMA - 1.0) * (er - 0.5 * mr * mr / rr)
        r0 = 0.5 * (rl + rr) - c * (mr - ml)
        m0 = 0.5 * (ml + mr) - c * ((mr * mr / rr + pr) - (ml * ml / rl + pl))
        e0 = 0.5 * (el + er) - c * ((er + pr) * mr / rr - (el + pl) * ml / rl)
    if (o := rho_out.get_mut(i_rho)) is not None:
        o.set(r0)
    if (o := mom_out.get_mut(i_mom)) is not None:
        o.set(m0)
    if (o := ene_out.get_mut(i_ene)) is not None:
        o.set(e0)


def field_views(packed: sk.DeviceBuffer, n: int) -> dict[str, sk.DeviceBuffer]:
    stride = n + PAD
    return {name: packed.view(k * n, k * n + stride) for k, name in enumerate(FIELDS)}


def sod_initial(n: int) -> np.ndarray:
    x = np.linspace(0.0, 1.0, n)
    rho = np.where(x < 0.5, 1.0, 0.125)
    p = np.where(x < 0.5, 1.0, 0.1)
    packed = np.zeros(len(FIELDS) * (n + PAD), np.float32)
    packed[0:n] = rho
    packed[2 * (n + PAD): 2 * (n + PAD) + n] = p / (GAMMA - 1.0)  # at rest: all energy is internal
    return packed


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    dx = 1.0 / (N - 1)
    dt = 0.4 * dx  # CFL with max wave speed ~1.2
    levels = [sk.to_device(sod_initial(N), stream), sk.zeros(len(FIELDS) * (N + PAD), f32, stream)]
    cur, nxt = (field_views(buf, N) for buf in levels)
    prepared = lax_friedrichs.prepare(simt.LaunchConfig1D.for_len(N, block=128), dev)
    t = 0.0
    while t < 0.1:
        ins = [cur[name] for name in FIELDS]
        outs = [nxt[name] for name in FIELDS]
        lax_friedrichs.launch(prepared, stream, *ins, *outs, N, 0.5 * dt / dx)
        cur, nxt = nxt, cur
        t += dt
    rho = cur["rho"].to_numpy(stream)[:N]
    print(f"t={t:.3f}: density in [{rho.min():.3f}, {rho.max():.3f}], mass {rho.sum() * dx:.4f}")


if __name__ == "__main__":
    main()
