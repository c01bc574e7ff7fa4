"""The clean twin of `e0502_loop_over_list_built_by_appends`: each item the loop takes from the list built by
`append` statements is launched as the input of a kernel writing a third buffer that is none of them."""

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 64


@simt.kernel
@simt.launch_contract(block=64, requires=("len(a) >= len(out)",))
def scale(a: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (slot := out.get_mut(idx)) is not None:
        slot.set(a[i] * 2.0)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = scale.prepare(simt.LaunchConfig1D.for_len(N, block=64), dev)
    left = sk.zeros(N, f32, stream)
    right = sk.zeros(N, f32, stream)
    mixed = sk.zeros(N, f32, stream)
    channels = []
    channels.append(left)
    channels.append(right)
    for channel in channels:
        scale.launch(prep, stream, channel, mixed)
    print(mixed.to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
