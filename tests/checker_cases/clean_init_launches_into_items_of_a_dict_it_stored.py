"""`__init__` stores a dict comprehension that gives each lead a buffer of its own and launches into two of its
items: the two pending ops write different buffers."""

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

LEADS = ("I", "II", "V1")
N = 64


@simt.kernel
@simt.launch_contract(block=32)
def energy_of(x: Slice[f32], energy: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := energy.get_mut(idx)) is not None:
        o.set(x[i] * x[i])


class Monitor:
    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        self.raw = {lead: sk.zeros(N, f32, stream) for lead in LEADS}
        self.energy = {lead: sk.zeros(N, f32, stream) for lead in LEADS}
        prepared = energy_of.prepare(simt.LaunchConfig1D.for_len(N, block=32), stream.device)
        first = energy_of.launch_async(prepared, self.raw["I"], self.energy["I"])
        second = energy_of.launch_async(prepared, self.raw["II"], self.energy["II"])
        sk.zip(first, second).sync_on(stream)


def main() -> None:
    monitor = Monitor(sk.Device.cpu().new_stream())
    print(monitor.energy["I"].to_numpy(monitor.stream)[:4])


if __name__ == "__main__":
    main()
