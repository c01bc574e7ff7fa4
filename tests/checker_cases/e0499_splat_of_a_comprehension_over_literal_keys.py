"""A splat of a comprehension over a tuple of literal keys (`*(outs[p] for p in PHASES)`) spreads one item per
key, in order, as if each were written out (`outs["viable"], outs["dormant"]`): a dict whose two keys hold one
buffer gives it as both mutable outputs of the launch, E0499."""

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
    scores = sk.zeros(64, f32, stream)
    outs = {"viable": scores, "dormant": scores}
    classify.launch(prepared, stream, rate, *(outs[p] for p in PHASES))  # expect: E0499


if __name__ == "__main__":
    main()
