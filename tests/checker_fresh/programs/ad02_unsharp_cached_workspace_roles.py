# fresh-expect: clean
# idiom: functools.lru_cache method allocating workspaces keyed by a normalised role name, launches bound with functools.partial
"""Unsharp-mask a batch of 1-D signals on the device.

Each signal is blurred into a workspace buffer and then sharpened as
`signal + amount * (signal - blurred)`.  Workspaces come from a cached allocator so
repeated calls reuse device memory; numbered pass names share one slot.
"""

from __future__ import annotations

import functools

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 1024
BLOCK = 128


@simt.kernel
@simt.launch_contract(block=BLOCK)
def box3(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    n = len(src)
    if (o := dst.get_mut(idx)) is not None:
        lo = i - 1 if i > 0 else i
        hi = i + 1 if i + 1 < n else i
        o.set((src[lo] + src[i] + src[hi]) / 3.0)


@simt.kernel
@simt.launch_contract(block=BLOCK)
def sharpen(src: Slice[f32], blurred: Slice[f32], dst: DisjointSlice[f32], amount: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i] + amount * (src[i] - blurred[i]))


class Workspace:
    """Device scratch memory, allocated lazily and kept for the lifetime of the workspace."""

    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream

    @functools.lru_cache(maxsize=None)
    def _alloc(self, n: int, slot: str) -> sk.DeviceBuffer:
        return sk.zeros(n, f32, self.stream)

    def scratch(self, n: int, role: str) -> sk.DeviceBuffer:
        # "pass1", "pass2", ... are consecutive passes: they can share one slot
        return self._alloc(n, role.rstrip("0123456789"))


class UnsharpMask:
    def __init__(self, dev: sk.Device, stream: sk.Stream, amount: float) -> None:
        cfg = simt.LaunchConfig1D.for_len(N, block=BLOCK)
        self.blur = functools.partial(box3.launch, box3.prepare(cfg, dev), stream)
        self.sharp = functools.partial(sharpen.launch, sharpen.prepare(cfg, dev), stream)
        self.ws = Workspace(stream)
        self.amount = amount

    def __call__(self, signal: sk.DeviceBuffer) -> sk.DeviceBuffer:
        blurred = self.ws.scratch(len(signal), "blur")
        self.blur(signal, blurred)
        out = self.ws.scratch(len(signal), "sharp")
        self.sharp(signal, blurred, out, self.amount)
        return out


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(3)
    t = np.linspace(0.0, 8.0 * np.pi, N, dtype=np.float32)
    signals = [np.sin(t) + 0.1 * rng.standard_normal(N).astype(np.float32) for _ in range(3)]
    mask = UnsharpMask(dev, stream, amount=0.8)
    for k, host in enumerate(signals):
        result = mask(sk.to_device(host, stream)).to_numpy(stream)
        print(f"signal {k}: in std {host.std():.3f} -> out std {result.std():.3f}")


if __name__ == "__main__":
    main()
