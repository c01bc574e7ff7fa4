"""Pending ops over views of one buffer, one per iteration of a counting loop: `range(n)` (also with a literal
start and step) or `enumerate(xs)`, the bounds written inline or through locals the body binds first
(`lo, hi = k * SEG, (k + 1) * SEG`, a module constant `SEG`).  Each iteration's view starts where the previous one
ended, so the views never overlap: clean, as at run time, and the ops are all synced before the buffer is read."""

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

SEG = 32
SHAFTS = ("north", "east", "old", "decline")


@simt.kernel
@simt.launch_contract(block=32)
def scale(src: Slice[f32], d: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := d.get_mut(idx)) is not None:
        o.set(src[i] * 2.0)


def per_shaft(p: simt.PreparedLaunch, src: sk.DeviceBuffer, d: sk.DeviceBuffer, s: sk.Stream) -> None:
    inflight: dict[str, sk.DeviceOp] = {}
    for k, shaft in enumerate(SHAFTS):
        lo, hi = k * SEG, (k + 1) * SEG
        inflight[shaft] = scale.launch_async(p, src.view(lo, hi), d.view(lo, hi))
    for op in inflight.values():
        op.sync_on(s)


def strided(p: simt.PreparedLaunch, src: sk.DeviceBuffer, d: sk.DeviceBuffer, s: sk.Stream) -> None:
    ops = []
    for k in range(0, 4, 2):
        ops.append(scale.launch_async(p, src[k * SEG : k * SEG + SEG], d[k * SEG : (k + 2) * SEG - SEG]))
    for op in ops:
        op.sync_on(s)


dev = sk.Device.cpu()
stream = dev.new_stream()
prepared = scale.prepare(simt.LaunchConfig1D.for_len(SEG, block=32), dev)
source = sk.zeros(len(SHAFTS) * SEG, f32, stream)
out = sk.zeros(len(SHAFTS) * SEG, f32, stream)
per_shaft(prepared, source, out, stream)
strided(prepared, source, out, stream)
print(out.to_numpy(stream).sum())
