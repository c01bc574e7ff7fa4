# fresh-expect: E0133 at line 66
# fresh-note: the host wraps its plug-in loop in `with simt.unsafe():`, but the legacy plug-in's `launch_unchecked` sits in its own `render` method, which the caller's unsafe block does not cover.
"""A tiny plug-in host: a chain described as dicts is turned into plug-in objects with `match`, then run over a
block with ping-pong buffers.  One plug-in wraps a legacy kernel that has no launch contract."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

FRAMES = 300


@simt.kernel
@simt.launch_contract(block=64)
def gain(x: Slice[f32], y: DisjointSlice[f32], g: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := y.get_mut(idx)) is not None:
        o.set(x[i] * g)


@simt.kernel
def bitcrush(x: Slice[f32], y: DisjointSlice[f32], levels: f32) -> None:  # legacy: no launch contract
    idx = thread.index_1d()
    i = idx.get()
    if (o := y.get_mut(idx)) is not None:
        o.set(math.floor(x[i] * levels + 0.5) / levels)


class Plugin:
    name = "plugin"

    def render(self, host: PluginHost, inp: sk.DeviceBuffer, out: sk.DeviceBuffer) -> None:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{self.name}>"


class Gain(Plugin):
    name = "gain"

    def __init__(self, db: float) -> None:
        self.factor = 10 ** (db / 20)

    def render(self, host: PluginHost, inp: sk.DeviceBuffer, out: sk.DeviceBuffer) -> None:
        gain.launch(host.prepared(gain), host.stream, inp, out, self.factor)


class LegacyBitcrusher(Plugin):
    name = "bitcrusher (legacy)"

    def __init__(self, bits: int) -> None:
        self.levels = float(2 ** (bits - 1))

    def render(self, host: PluginHost, inp: sk.DeviceBuffer, out: sk.DeviceBuffer) -> None:
        config = simt.LaunchConfig1D.for_len(len(inp), block=64)
        bitcrush.launch_unchecked(config, host.stream, inp, out, self.levels)


def make_plugin(spec: dict[str, Any]) -> Plugin:
    match spec:
        case {"type": "gain", "db": db}:
            return Gain(float(db))
        case {"type": "crush", "bits": int(bits)} if 2 <= bits <= 16:
            return LegacyBitcrusher(bits)
        case _:
            raise ValueError(f"unknown plug-in spec {spec!r}")


class PluginHost:
    def __init__(self, dev: sk.Device, frames: int) -> None:
        self.dev = dev
        self.frames = frames
        self.stream = dev.new_stream()
        self._prepared: dict[Any, Any] = {}

    def prepared(self, kernel: Any) -> Any:
        if kernel not in self._prepared:
            self._prepared[kernel] = kernel.prepare(simt.LaunchConfig1D.for_len(self.frames, block=64), self.dev)
        return self._prepared[kernel]

    def run(self, chain: list[Plugin], block: np.ndarray) -> np.ndarray:
        cur = sk.to_device(block.astype(np.float32), self.stream)
        out = sk.zeros(len(block), f32, self.stream)
        with simt.unsafe():  # the chain may contain legacy plug-ins launched unchecked
            for plugin in chain:
                plugin.render(self, cur, out)
                cur, out = out, cur
        return cur.to_numpy(self.stream)


def main() -> None:
    dev = sk.Device.default()
    host = PluginHost(dev, FRAMES)
    specs = [{"type": "gain", "db": -6.0}, {"type": "crush", "bits": 4}, {"type": "gain", "db": 3.0}]
    chain = [make_plugin(s) for s in specs]
    t = np.arange(FRAMES) / 8000.0
    block = np.sin(2 * np.pi * 200 * t).astype(np.float32)
    got = host.run(chain, block)
    want = block * np.float32(10 ** (-6 / 20))
    want = np.floor(want * 8.0 + 0.5) / 8.0
    want = want * np.float32(10 ** (3 / 20))
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    print(f"plugin host: {chain} over {FRAMES} frames, {len(np.unique(got))} distinct levels")


if __name__ == "__main__":
    main()
