# fresh-expect: E0502 at line 26
"""Two windows of one buffer that overlap, one read and one written."""
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
bias = sk.to_device(np.ones(600, np.float32), stream)
window_in = signal.view(400, 1000)
window_out = signal.view(0, 600)
launch = shift_add.prepare(simt.LaunchConfig1D.for_len(600, block=128), dev)
shift_add.launch(launch, stream, window_in, bias, window_out)  # BUG E0502
