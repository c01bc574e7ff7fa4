"""A list comprehension over a tuple display that builds one `launch_async` op per key: each op holds its loans
from the iteration that built it, so the second op writing the one buffer `dict.fromkeys` put under every key
conflicts with the first, still pending (the runtime refuses the second launch)."""

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 64


@simt.kernel
@simt.launch_contract(block=32)
def scale(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i] * 2.0)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    raw = {lead: sk.zeros(N, f32, stream) for lead in ("I", "II")}
    energy = dict.fromkeys(("I", "II"), sk.zeros(N, f32, stream))
    prepared = scale.prepare(simt.LaunchConfig1D.for_len(N, block=32), stream.device)
    ops = [scale.launch_async(prepared, raw[lead], energy[lead]) for lead in ("I", "II")]  # expect: E0499
    sk.zip(*ops).sync_on(stream)


if __name__ == "__main__":
    main()
