# fresh-expect: E0133 at line 18
"""A helper is defined inside `with simt.unsafe():` and called later; the block does not cover the helper's body."""
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, thread


@simt.kernel
def fill(dst: DisjointSlice[f32], value: f32) -> None:
    idx = thread.index_1d()
    if (o := dst.get_mut(idx)) is not None:
        o.set(value)


with simt.unsafe():
    def quick_fill(stream, dst, n: int, value: float) -> None:
        fill.launch_unchecked(simt.LaunchConfig1D.for_len(n, block=64), stream, dst, value)  # BUG


stream = sk.Device.cpu().new_stream()
buf = sk.zeros(128, f32, stream)
quick_fill(stream, buf, 128, 1.5)
print(buf.to_numpy(stream)[:4])
