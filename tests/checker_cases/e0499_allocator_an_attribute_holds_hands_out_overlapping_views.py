"""A page allocator held in an attribute (`self.pool.alloc(n)`) whose method hands out more than it advances
(`self.buf[start : start + size + 1]` after `self.top += size`): not a bump allocator, so two of its pages are
views of one buffer whose bounds the checker cannot compare, taken to overlap as the runtime finds here; passing
them as two outputs of one launch is E0499."""

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

PAGE = 64


@simt.kernel
@simt.launch_contract(block=64)
def write_kv(k_new: Slice[f32], k_page: DisjointSlice[f32], v_page: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (kd := k_page.get_mut(idx)) is not None:
        kd.set(k_new[i])


class PagePool:
    def __init__(self, pages: int, stream: sk.Stream) -> None:
        self.buf = sk.zeros(pages * PAGE + 1, f32, stream)
        self.top = 0

    def alloc(self, size: int) -> sk.DeviceBuffer:
        start = self.top
        self.top += size
        return self.buf[start : start + size + 1]  # a sentinel slot past each page


class Cache:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.pool = PagePool(4, stream)
        self.stream = stream
        self.prep = write_kv.prepare(simt.LaunchConfig1D.for_len(PAGE, block=64), dev)

    def append(self, rows: sk.DeviceBuffer) -> None:
        k_page = self.pool.alloc(PAGE)
        v_page = self.pool.alloc(PAGE)
        write_kv.launch(self.prep, self.stream, rows, k_page, v_page)  # expect: E0499


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    Cache(dev, stream).append(sk.zeros(PAGE, f32, stream))


if __name__ == "__main__":
    main()
