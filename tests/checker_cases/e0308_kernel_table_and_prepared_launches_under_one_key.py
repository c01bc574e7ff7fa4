"""A kernel and its prepared launch looked up under one key (`KERNELS[metric].launch(prepared[metric], ...)`):
the launch runs the kernel under that key with the prepared launch under the same key.  `prepared` pairs
`sorted(KERNELS)` with `KERNELS.values()`, two orders, so under `"var"` it holds the launch prepared for `es_k`
while `KERNELS["var"]` is `var_k`: E0308, as the runtime's brand check says."""

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def var_k(a: Slice[f32], c: DisjointSlice[f32], s: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] * s)


@simt.kernel
@simt.launch_contract(block=64)
def es_k(a: Slice[f32], c: DisjointSlice[f32], s: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] + s)


KERNELS = {"var": var_k, "es": es_k}


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    cfg = simt.LaunchConfig1D.for_len(64, block=64)
    prepared = {name: kernel.prepare(cfg, dev) for name, kernel in zip(sorted(KERNELS), KERNELS.values())}
    a = sk.zeros(64, f32, stream)
    for metric in ("var", "es"):
        out = sk.zeros(64, f32, stream)
        KERNELS[metric].launch(prepared[metric], stream, a, out, 2.0)  # expect: E0308


if __name__ == "__main__":
    main()
