# fresh-expect: E0502 at line 28
# fresh-note: found since: an attribute holding a callable object runs its class's `__call__`
"""One transformer block's residual path: module objects hold their prepared launches."""
import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

D_MODEL = 256


@simt.kernel
@simt.launch_contract(block=128)
def add_kernel(a: Slice[f32], b: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


class Residual:
    def __init__(self, dev: sk.Device, n: int) -> None:
        self.prepared = add_kernel.prepare(simt.LaunchConfig1D.for_len(n, block=128), dev)

    def __call__(self, stream: sk.Stream, branch: sk.DeviceBuffer, skip: sk.DeviceBuffer, out: sk.DeviceBuffer) -> None:
        add_kernel.launch(self.prepared, stream, branch, skip, out)


class Block:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.attn_residual = Residual(dev, D_MODEL)
        self.mlp_residual = Residual(dev, D_MODEL)
        self.scratch = sk.zeros(D_MODEL, f32, stream)

    def forward(self, hidden: sk.DeviceBuffer, attn_out: sk.DeviceBuffer, mlp_out: sk.DeviceBuffer) -> sk.DeviceBuffer:
        self.attn_residual(self.stream, attn_out, hidden, self.scratch)
        # the port kept PyTorch's `hidden += mlp(hidden)` in-place habit
        self.mlp_residual(self.stream, mlp_out, self.scratch, self.scratch)
        return self.scratch


dev = sk.Device.cpu()
stream = dev.new_stream()
block = Block(dev, stream)
rng = np.random.default_rng(1)
hidden = sk.to_device(rng.standard_normal(D_MODEL).astype(np.float32), stream)
attn = sk.to_device(rng.standard_normal(D_MODEL).astype(np.float32), stream)
mlp = sk.to_device(rng.standard_normal(D_MODEL).astype(np.float32), stream)
result = block.forward(hidden, attn, mlp)
print(result.to_numpy(stream)[:4])
