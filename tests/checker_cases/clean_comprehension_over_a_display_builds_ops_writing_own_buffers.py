"""A list comprehension over a tuple display that builds one `launch_async` op per key, each key with a buffer of
its own: the ops are pending together and write different buffers."""

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
    energy = {lead: sk.zeros(N, f32, stream) for lead in ("I", "II")}
    prepared = scale.prepare(simt.LaunchConfig1D.for_len(N, block=32), stream.device)
    ops = [scale.launch_async(prepared, raw[lead], energy[lead]) for lead in ("I", "II")]
    sk.zip(*ops).sync_on(stream)


if __name__ == "__main__":
    main()
