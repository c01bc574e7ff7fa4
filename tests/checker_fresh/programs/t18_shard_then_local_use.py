# fresh-expect: E0382 at line 33
"""Pipeline-parallel toy: the second layer's weights are shipped to device 1, then device 0 still reads them."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def mul(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] * b[i])


def main() -> None:
    n = 512
    dev0, dev1 = sk.Device.cpu(), sk.Device.cpu(1)
    s0, s1 = dev0.new_stream(), dev1.new_stream()
    w0 = sk.to_device(np.full(n, 2.0, np.float32), s0)
    w1 = sk.to_device(np.full(n, 3.0, np.float32), s0)
    w1_remote = w1.to(dev1, s1)
    x = sk.to_device(np.ones(n, np.float32), s0)
    h = sk.zeros(n, f32, s0)
    prep0 = mul.prepare(simt.LaunchConfig1D.for_len(n, block=128), dev0)
    mul.launch(prep0, s0, x, w0, h)
    check = sk.zeros(n, f32, s0)
    mul.launch(prep0, s0, h, w1, check)  # BUG: w1 now lives on dev1 as `w1_remote`
    h1 = h.to(dev1, s1)
    y = sk.zeros(n, f32, s1)
    mul.launch(mul.prepare(simt.LaunchConfig1D.for_len(n, block=128), dev1), s1, h1, w1_remote, y)
    print(y.to_numpy(s1)[:3], check.to_numpy(s0)[:3])


if __name__ == "__main__":
    main()
