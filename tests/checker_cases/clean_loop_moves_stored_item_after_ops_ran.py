"""The twin of `e0505_loop_moves_stored_item_while_op_borrows`: the pending ops kept in a container all run
(a loop syncing them) before a later loop moves the buffers they wrote, and a loop over a container of buffers
no pending op borrows moves each one freely."""

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
    flags, _conc, _ = above(flags, conc, mic).sync_on(stream)
    return float(flags.unpartition().to_numpy(stream).mean())


def by_name(names: list[str], dose: sk.DeviceBuffer, prepared: simt.PreparedLaunch, stream: sk.Stream) -> None:
    inflight: dict[str, sk.DeviceOp] = {}
    results: dict[str, sk.DeviceBuffer] = {}
    for name in names:
        conc = sk.zeros(N, f32, stream)
        inflight[name] = decay.launch_async(prepared, dose, conc, 4.0)
        results[name] = conc
    for op in inflight.values():
        op.sync_on(stream)
    coverage = {name: fraction_above(buf, stream, 0.5) for name, buf in results.items()}
    print(coverage)


def in_order(count: int, stream: sk.Stream) -> None:
    outputs = []
    for _ in range(count):
        outputs.append(sk.zeros(N, f32, stream))
    for buf in outputs:
        flags, _buf, _ = above(tile.zeros((N,), f32).partition((N,)), buf, 0.5).sync_on(stream)
        print(flags.unpartition().to_numpy(stream).mean())


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prepared = decay.prepare(simt.LaunchConfig1D.for_len(N, block=128), dev)
    dose = sk.to_device(np.ones(N, np.float32), stream)
    by_name(["adult", "renal"], dose, prepared, stream)
    in_order(2, stream)


if __name__ == "__main__":
    main()
