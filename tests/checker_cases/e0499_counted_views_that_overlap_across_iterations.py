"""Views over a counting loop's counter, held by pending ops across iterations: each iteration's view is compared
with the earlier iterations' as the same view moving past itself only when its width fits its stride.  A window one
element wider than its stride (`view(k * 32, k * 32 + 33)`), two views whose iterations meet (`[k, k + 1)` now and
`[k + 1, k + 2)` the iteration before), and a counting loop run again by an outer loop all overlap an op still
pending: E0499 each, as the runtime raises."""

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, thread

N = 256


@simt.kernel
@simt.launch_contract(block=32)
def fill(d: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    if (o := d.get_mut(idx)) is not None:
        o.set(f32(1.0))


def wider_than_stride(p: simt.PreparedLaunch, d: sk.DeviceBuffer, s: sk.Stream) -> None:
    ops = []
    for k in range(4):
        ops.append(fill.launch_async(p, d.view(k * 32, k * 32 + 33)))  # expect: E0499
    for op in ops:
        op.sync_on(s)


def two_views_meet(p: simt.PreparedLaunch, d: sk.DeviceBuffer, s: sk.Stream) -> None:
    ops = []
    for k in range(4):
        ops.append(fill.launch_async(p, d.view(k, k + 1)))  # expect: E0499
        ops.append(fill.launch_async(p, d.view(k + 1, k + 2)))  # expect: E0499
    for op in ops:
        op.sync_on(s)


def loop_run_again(p: simt.PreparedLaunch, d: sk.DeviceBuffer, s: sk.Stream) -> None:
    ops = []
    for _round in range(2):
        for k in range(4):
            lo = k * 32
            ops.append(fill.launch_async(p, d.view(lo, lo + 32)))  # expect: E0499
    for op in ops:
        op.sync_on(s)


def run(which: str) -> None:
    dev = sk.Device.cpu()
    s = dev.new_stream()
    d = sk.zeros(N, f32, s)
    p = fill.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev)
    {"wider": wider_than_stride, "meet": two_views_meet, "again": loop_run_again}[which](p, d, s)


if __name__ == "__main__":
    import sys

    run(sys.argv[1] if len(sys.argv) > 1 else "wider")
