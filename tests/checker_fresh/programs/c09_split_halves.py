# fresh-expect: clean
"""The two halves of split_at are disjoint: read one, write the other."""
import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def shift_add(src: Slice[f32], bias: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i] + bias[i])


dev = sk.Device.cpu()
stream = dev.new_stream()
signal = sk.to_device(np.arange(1000, dtype=np.float32), stream)
bias = sk.to_device(np.ones(500, np.float32), stream)
low, high = signal.split_at(500)
launch = shift_add.prepare(simt.LaunchConfig1D.for_len(500, block=128), dev)
shift_add.launch(launch, stream, low, bias, high)
assert signal.to_numpy(stream)[500] == 1.0
