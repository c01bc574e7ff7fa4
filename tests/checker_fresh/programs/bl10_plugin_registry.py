# fresh-expect: clean
# fresh-note: plugin registry whose plan cache is keyed by (plugin name, n, block), so each registered kernel is launched only with the PreparedLaunch its own prepare returned.
"""Activation plugins for a post-processing service, registered by name and launched through a shared plan cache.

Each plugin is a SIMT kernel registered with `@REGISTRY.register(name)`.  Requests name a chain of plugins;
the registry prepares launch plans on demand and caches them so repeated requests skip `prepare`.
"""

from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


class PluginRegistry:
    def __init__(self) -> None:
        self._kernels: dict[str, Any] = {}
        self._blocks: dict[str, int] = {}
        self._plans: dict[tuple[str, int, int], Any] = {}
        self.device: sk.Device | None = None

    def register(self, name: str, block: int = 64) -> Callable[[Any], Any]:
        def deco(kernel: Any) -> Any:
            if name in self._kernels:
                raise KeyError(f"plugin {name!r} registered twice")
            self._kernels[name] = kernel
            self._blocks[name] = block
            return kernel

        return deco

    def bind(self, device: sk.Device) -> None:
        self.device = device
        self._plans.clear()

    def plan(self, name: str, n: int) -> Any:
        """A prepared launch for `name` over `n` elements (validated once per launch shape)."""
        assert self.device is not None, "bind() the registry to a device first"
        block = self._blocks[name]
        key = (name, n, block)
        if key not in self._plans:
            config = simt.LaunchConfig1D.for_len(n, block=block)
            self._plans[key] = self._kernels[name].prepare(config, self.device)
        return self._plans[key]

    def apply(self, name: str, stream: sk.Stream, src: sk.DeviceBuffer, dst: sk.DeviceBuffer) -> None:
        kernel = self._kernels[name]
        kernel.launch(self.plan(name, len(src)), stream, src, dst)

    @property
    def names(self) -> list[str]:
        return sorted(self._kernels)


REGISTRY = PluginRegistry()


@REGISTRY.register("leaky_relu")
@simt.kernel
@simt.launch_contract(block=64)
def leaky_relu(x: Slice[f32], y: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := y.get_mut(idx)) is not None:
        v = x[i]
        if v < 0.0:
            v = v * 0.01
        out.set(v)


@REGISTRY.register("gelu_tanh")
@simt.kernel
@simt.launch_contract(block=64)
def gelu_tanh(x: Slice[f32], y: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := y.get_mut(idx)) is not None:
        v = x[i]
        out.set(0.5 * v * (1.0 + math.tanh(0.7978846 * (v + 0.044715 * v * v * v))))


def run_chain(chain: list[str], data: np.ndarray, device: sk.Device) -> np.ndarray:
    stream = device.new_stream()
    cur = sk.to_device(data, stream)
    nxt = sk.zeros(len(data), f32, stream)
    for name in chain:
        REGISTRY.apply(name, stream, cur, nxt)
        cur, nxt = nxt, cur
    return cur.to_numpy(stream)


def main() -> None:
    device = sk.Device.cpu()
    REGISTRY.bind(device)
    data = np.linspace(-3.0, 3.0, 150, dtype=np.float32)
    out = run_chain(["leaky_relu", "gelu_tanh"], data, device)
    print("plugins:", REGISTRY.names, "-> out[:3] =", out[:3], "out[-1] =", out[-1])


if __name__ == "__main__":
    main()
