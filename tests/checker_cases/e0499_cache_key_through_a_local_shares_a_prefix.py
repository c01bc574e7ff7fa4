"""A workspace hands out scratch buffers from a hand-written cache whose key is built through locals (`kind =
name.split("_")[0]`, `key = (kind, n)`): "diag_kinetic" and "diag_potential" share the prefix, so both are one
buffer and one launch writing both gets it twice (E0499, as the runtime's `BorrowError` says)."""

from dataclasses import dataclass, field

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, thread

N = 64


@simt.kernel
@simt.launch_contract(block=32)
def energies(kinetic: DisjointSlice[f32], potential: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    if (k := kinetic.get_mut(idx)) is not None:
        k.set(1.0)
    if (p := potential.get_mut(thread.index_1d())) is not None:
        p.set(2.0)


@dataclass
class Workspace:
    stream: sk.Stream
    cache: dict[tuple[str, int], sk.DeviceBuffer] = field(default_factory=dict)

    def get(self, name: str, n: int) -> sk.DeviceBuffer:
        kind = name.split("_")[0]
        key = (kind, n)
        if key not in self.cache:
            self.cache[key] = sk.zeros(n, f32, self.stream)
        return self.cache[key]


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    ws = Workspace(stream)
    prepared = energies.prepare(simt.LaunchConfig1D.for_len(N, block=32), dev)
    kinetic = ws.get("diag_kinetic", N)
    potential = ws.get("diag_potential", N)
    energies.launch(prepared, stream, kinetic, potential)  # expect: E0499
    print(kinetic.to_numpy(stream)[:2], potential.to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
