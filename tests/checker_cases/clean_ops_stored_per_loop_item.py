"""The clean twin of `e0505_ops_stored_per_loop_item`: ops stored in a container, one per item of a list, each
writing the item's own buffer (`req.out`), are not one buffer borrowed twice, also in a loop over a parameter's
items; once a loop over the container runs them, an item's buffer moves into the tile world."""

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
    for op in in_flight.values():
        op.sync_on(stream)
    parts = first.out.partition((64,))


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
    for op in ops:
        op.sync_on(stream)
    parts = last.out.partition((64,))


def submit(requests: list[Request], table: sk.DeviceBuffer, dev: sk.Device, stream: sk.Stream) -> None:
    prep = embed.prepare(simt.LaunchConfig1D.for_len(128, block=64), dev)
    in_flight: dict[int, sk.DeviceOp] = {}
    for req in requests:
        in_flight[req.rid] = embed.launch_async(prep, req.tokens, table, req.out)
    for op in in_flight.values():
        op.sync_on(stream)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    dict_per_request(dev, stream)
    list_per_request(dev, stream)
    table = sk.to_device(np.ones(128, np.float32), stream)
    submit([Request(r, table, sk.zeros(128, f32, stream)) for r in range(2)], table, dev, stream)


if __name__ == "__main__":
    main()
