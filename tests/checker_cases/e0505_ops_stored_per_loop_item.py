"""Pending `launch_async` ops stored in a container, one per item of a list (`for req in requests: in_flight[req.rid]
= k.launch_async(..., req.out)`), each borrow the item's own buffer: the container keeps every one of them (not
only the last) until they run, so moving the buffer of any item into the tile world before that (`first =
requests[0]`, then `first.out.partition(...)`) is E0505 (the runtime raises `BorrowError` at each marked line)."""

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition


@simt.kernel
@simt.launch_contract(block=64)
def embed(tokens: Slice[f32], table: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(tokens[i] + table[i])


@tile.kernel
def halve(out: Partition[f32]) -> None:
    out.store(out.load() * 0.5)


@dataclass
class Request:
    rid: int
    tokens: sk.DeviceBuffer
    out: sk.DeviceBuffer


def dict_per_request(dev: sk.Device, stream: sk.Stream) -> None:
    prep = embed.prepare(simt.LaunchConfig1D.for_len(128, block=64), dev)
    table = sk.to_device(np.ones(128, np.float32), stream)
    requests = [
        Request(r, sk.to_device(np.full(128, r, np.float32), stream), sk.zeros(128, f32, stream)) for r in (0, 1)
    ]
    first = requests[0]
    embed.launch(prep, stream, first.tokens, table, first.out)  # a warm-up run
    in_flight: dict[int, sk.DeviceOp] = {}
    for req in requests:
        in_flight[req.rid] = embed.launch_async(prep, req.tokens, table, req.out)
    parts = first.out.partition((64,))  # expect: E0505
    for op in in_flight.values():
        op.sync_on(stream)


def list_per_request(dev: sk.Device, stream: sk.Stream) -> None:
    prep = embed.prepare(simt.LaunchConfig1D.for_len(128, block=64), dev)
    table = sk.to_device(np.ones(128, np.float32), stream)
    requests = [
        Request(r, sk.to_device(np.full(128, r, np.float32), stream), sk.zeros(128, f32, stream)) for r in range(3)
    ]
    last = requests[2]
    embed.launch(prep, stream, last.tokens, table, last.out)  # a warm-up run
    ops = []
    for req in requests:
        ops.append(embed.launch_async(prep, req.tokens, table, req.out))
    parts = last.out.partition((64,))  # expect: E0505
    for op in ops:
        op.sync_on(stream)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    dict_per_request(dev, stream)
    list_per_request(dev, stream)


if __name__ == "__main__":
    main()
