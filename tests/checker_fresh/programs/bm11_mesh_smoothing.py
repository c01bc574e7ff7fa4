# fresh-expect: E0502 at line 78
# fresh-known-miss: cli,mypy a one-buffer ring built by a classmethod factory under a `low_memory` property, read at `current` and `next_target`: the ring's length is not computed
# fresh-note: Laplacian smoothing of a closed polyline mesh whose VertexRing.for_config keeps a single vertex buffer when the mesh counts as large (low_memory), so current and next_target are the same buffer in the smoothing launch (E0502).
"""Laplacian mesh smoothing in the SIMT track: vertex positions (xyz, interleaved) live in a ring of vertex
buffers; each iteration reads the current one and writes the next, until the shape stops moving."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, u32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64, requires=("len(src) == len(dst)", "len(src) == vertices * 3"))
def laplacian(vertices: u32, lam: f32, src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    v = i // 3
    c = i % 3
    prev = ((v + vertices - 1) % vertices) * 3 + c
    nxt = ((v + 1) % vertices) * 3 + c
    if (o := dst.get_mut(idx)) is not None:
        mid = 0.5 * (src[prev] + src[nxt])
        o.set(src[i] + lam * (mid - src[i]))


@dataclass(frozen=True)
class MeshConfig:
    vertices: int
    lam: float = 0.5
    max_iterations: int = 12
    tolerance: float = 1e-3
    large_mesh_threshold: int = 100

    @property
    def low_memory(self) -> bool:
        return self.vertices > self.large_mesh_threshold


class VertexRing:
    """A ring of vertex buffers: smoothing reads `current` and writes `next_target`."""

    def __init__(self, buffers: list[sk.DeviceBuffer]) -> None:
        self._buffers = buffers
        self._front = 0

    @classmethod
    def for_config(cls, config: MeshConfig, positions: np.ndarray, stream: sk.Stream) -> "VertexRing":
        size = 1 if config.low_memory else 3  # low memory: smooth in the one buffer we have
        first = sk.to_device(positions.reshape(-1).astype(np.float32), stream)
        rest = [sk.zeros(first.length, f32, stream) for _ in range(size - 1)]
        return cls([first, *rest])

    @property
    def current(self) -> sk.DeviceBuffer:
        return self._buffers[self._front]

    @property
    def next_target(self) -> sk.DeviceBuffer:
        return self._buffers[(self._front + 1) % len(self._buffers)]

    def advance(self) -> None:
        self._front = (self._front + 1) % len(self._buffers)


def smooth(config: MeshConfig, positions: np.ndarray, device: sk.Device) -> tuple[np.ndarray, int]:
    stream = device.new_stream()
    ring = VertexRing.for_config(config, positions, stream)
    prep = laplacian.prepare(simt.LaunchConfig1D.for_len(config.vertices * 3, block=64), device)
    previous = positions.reshape(-1)
    for it in range(config.max_iterations):
        laplacian.launch(prep, stream, config.vertices, config.lam, ring.current, ring.next_target)
        ring.advance()
        now = ring.current.to_numpy(stream)
        if np.abs(now - previous).max() < config.tolerance:
            break
        previous = now
    else:
        it = config.max_iterations - 1
    return ring.current.to_numpy(stream).reshape(-1, 3), it + 1


def noisy_circle(count: int, seed: int = 5) -> np.ndarray:
    rng = np.random.default_rng(seed)
    t = np.linspace(0.0, 2.0 * np.pi, count, endpoint=False)
    r = 1.0 + 0.1 * rng.standard_normal(count)
    return np.stack([r * np.cos(t), r * np.sin(t), 0.05 * rng.standard_normal(count)], axis=1).astype(np.float32)


def main() -> None:
    device = sk.Device.default()
    for count in (48, 128):
        config = MeshConfig(vertices=count)
        mesh = noisy_circle(count)
        smoothed, iterations = smooth(config, mesh, device)
        before = np.std(np.linalg.norm(mesh[:, :2], axis=1))
        after = np.std(np.linalg.norm(smoothed[:, :2], axis=1))
        assert after < before, (before, after)
        print(f"{count} vertices: radius spread {before:.4f} -> {after:.4f} in {iterations} iterations")


if __name__ == "__main__":
    main()
