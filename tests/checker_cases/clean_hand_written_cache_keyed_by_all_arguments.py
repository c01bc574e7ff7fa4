"""The clean twin of `e0502_hand_written_cache_keyed_by_part_of_arguments`: each cache is keyed by the role
too, so the two calls give two buffers."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

_SCRATCH: dict[tuple[int, str], sk.DeviceBuffer] = {}


@simt.kernel
@simt.launch_contract(block=64)
def double(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i] * f32(2.0))


def scratch(length: int, stream: sk.Stream, role: str = "tmp", _pool: dict = {}) -> sk.DeviceBuffer:  # noqa: B006
    if (length, role) not in _pool:
        _pool[length, role] = sk.zeros(length, f32, stream)
    return _pool[length, role]


def module_scratch(length: int, stream: sk.Stream, role: str) -> sk.DeviceBuffer:
    key = (length, role)
    if key in _SCRATCH:
        return _SCRATCH[key]
    buf = sk.zeros(length, f32, stream)
    _SCRATCH[key] = buf
    return buf


class Pool:
    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        self.free: dict[tuple[str, int], sk.DeviceBuffer] = {}

    def get(self, role: str, n: int) -> sk.DeviceBuffer:
        if (role, n) not in self.free:
            self.free[role, n] = sk.zeros(n, f32, self.stream)
        return self.free[role, n]


def run(prepared: simt.PreparedLaunch, stream: sk.Stream, n: int) -> None:
    src = scratch(n, stream, role="input")
    src.copy_from_numpy(np.ones(n, np.float32), stream)
    dst = scratch(n, stream, role="output")
    double.launch(prepared, stream, src, dst)


def run_module(prepared: simt.PreparedLaunch, stream: sk.Stream, n: int) -> None:
    src = module_scratch(n, stream, "input")
    dst = module_scratch(n, stream, "output")
    double.launch(prepared, stream, src, dst)


def run_pool(prepared: simt.PreparedLaunch, pool: Pool, n: int) -> None:
    src = pool.get("input", n)
    dst = pool.get("output", n)
    double.launch(prepared, pool.stream, src, dst)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prepared = double.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    run(prepared, stream, 64)
    run_module(prepared, stream, 64)
    run_pool(prepared, Pool(stream), 64)


if __name__ == "__main__":
    main()
