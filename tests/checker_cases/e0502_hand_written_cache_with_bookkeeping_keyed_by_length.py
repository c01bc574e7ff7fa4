"""A hand-written cache that also keeps books (a counter of misses, the roles each buffer served) around its store
and before its return: keyed by the length alone, two calls asking for different roles get one buffer, so the
launch reads and writes it (E0502, as the runtime's `AliasingError` says)."""

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def double(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i] * f32(2.0))


class Workspace:
    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        self.pool: dict[object, sk.DeviceBuffer] = {}
        self.roles: dict[object, list[str]] = {}
        self.misses = 0

    def scratch(self, n: int, role: str) -> sk.DeviceBuffer:
        key = n
        if key not in self.pool:
            self.misses += 1
            self.pool[key] = sk.zeros(n, f32, self.stream)
            self.roles[key] = []
        self.roles[key].append(role)
        return self.pool[key]


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prepared = double.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    ws = Workspace(stream)
    src = ws.scratch(64, "input")
    dst = ws.scratch(64, "output")
    double.launch(prepared, stream, src, dst)  # expect: E0502
    print(dst.to_numpy(stream)[:4], ws.misses)


if __name__ == "__main__":
    main()
