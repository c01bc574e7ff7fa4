"""The clean twin of `e0499_splat_of_a_comprehension_over_literal_keys`: each key holds its own buffer, so the
comprehension's splat spreads two distinct outputs."""

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

PHASES = ("viable", "dormant")


@simt.kernel
@simt.launch_contract(block=32)
def classify(rate: Slice[f32], viable: DisjointSlice[f32], dormant: DisjointSlice[f32]) -> None:
    i = thread.index_1d().get()
    if (v := viable.get_mut(thread.index_1d())) is not None:
        v.set(rate[i])
    if (d := dormant.get_mut(thread.index_1d())) is not None:
        d.set(f32(1.0) - rate[i])


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prepared = classify.prepare(simt.LaunchConfig1D.for_len(64, block=32), dev)
    rate = sk.zeros(64, f32, stream)
    outs = {"viable": sk.zeros(64, f32, stream), "dormant": sk.zeros(64, f32, stream)}
    classify.launch(prepared, stream, rate, *(outs[p] for p in PHASES))


if __name__ == "__main__":
    main()
