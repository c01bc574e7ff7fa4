"""Buffers and the pending `launch_async` ops writing them are kept in two containers filled in a loop (under
computed keys, or appended); a later loop over the buffers moves each one into a tile launch before the ops run
(E0505, as the runtime's `BorrowError` says).  A loop's item of a container is one of the objects stored into it,
so moving it while a pending op borrows one of them is reported, at the move (here inside the helper the loop
calls, where the runtime raises)."""

import math

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

N = 128


@simt.kernel
@simt.launch_contract(block=128)
def decay(dose: Slice[f32], conc: DisjointSlice[f32], t: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (c := conc.get_mut(idx)) is not None:
        c.set(dose[i] * math.exp(-0.2 * t))


@tile.kernel
def above(flags: Partition[f32], conc: Tensor[f32], mic: f32) -> None:
    flags.store(tile.where(tile.load_like(conc, flags) >= mic, 1.0, 0.0))


def fraction_above(conc: sk.DeviceBuffer, stream: sk.Stream, mic: float) -> float:
    flags = tile.zeros((len(conc),), f32).partition((N,))
    flags, _conc, _ = above(flags, conc, mic).sync_on(stream)  # expect: E0505
    return float(flags.unpartition().to_numpy(stream).mean())


def by_name(names: list[str], dose: sk.DeviceBuffer, prepared: simt.PreparedLaunch, stream: sk.Stream) -> None:
    inflight: dict[str, sk.DeviceOp] = {}
    results: dict[str, sk.DeviceBuffer] = {}
    for name in names:
        conc = sk.zeros(N, f32, stream)
        inflight[name] = decay.launch_async(prepared, dose, conc, 4.0)
        results[name] = conc
    coverage = {name: fraction_above(buf, stream, 0.5) for name, buf in results.items()}
    for op in inflight.values():
        op.sync_on(stream)
    print(coverage)


def in_order(count: int, dose: sk.DeviceBuffer, prepared: simt.PreparedLaunch, stream: sk.Stream) -> None:
    pending = []
    outputs = []
    for _ in range(count):
        conc = sk.zeros(N, f32, stream)
        pending.append(decay.launch_async(prepared, dose, conc, 2.0))
        outputs.append(conc)
    for buf in outputs:
        above(tile.zeros((N,), f32).partition((N,)), buf, 0.5).sync_on(stream)  # expect: E0505
    for op in pending:
        op.sync_on(stream)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prepared = decay.prepare(simt.LaunchConfig1D.for_len(N, block=128), dev)
    dose = sk.to_device(np.ones(N, np.float32), stream)
    by_name(["adult", "renal"], dose, prepared, stream)
    in_order(2, dose, prepared, stream)


if __name__ == "__main__":
    main()
