# fresh-expect: clean
# fresh-note: Same dataclass-driven tone-mapping chain with each Stage holding the launch its own kernel prepared, ping-ponging two distinct buffers.
"""Tone-mapping chain for a grey image: brighten, contrast and gamma stages described by dataclass records."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

H, W = 30, 50


@simt.kernel
@simt.launch_contract(block=256)
def brighten(src: Slice[f32], dst: DisjointSlice[f32], amount: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(min(src[i] + amount, 1.0))


@simt.kernel
@simt.launch_contract(block=256)
def contrast(src: Slice[f32], dst: DisjointSlice[f32], k: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(min(max((src[i] - 0.5) * k + 0.5, 0.0), 1.0))


@simt.kernel
@simt.launch_contract(block=256)
def gamma(src: Slice[f32], dst: DisjointSlice[f32], g: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(math.pow(src[i], g))


@dataclass
class Stage:
    name: str
    kernel: simt.SimtKernel
    plan: simt.PreparedLaunch
    param: float


def build_stages(dev: sk.Device, n: int) -> list[Stage]:
    cfg = simt.LaunchConfig1D.for_len(n, block=256)
    brighten_plan = brighten.prepare(cfg, dev)
    contrast_plan = contrast.prepare(cfg, dev)
    gamma_plan = gamma.prepare(cfg, dev)
    return [
        Stage("brighten", brighten, brighten_plan, 0.05),
        Stage("contrast", contrast, contrast_plan, 1.4),
        Stage("gamma", gamma, gamma_plan, 0.8),
    ]


def tone_map(img: sk.DeviceBuffer, stages: list[Stage], stream: sk.Stream) -> np.ndarray:
    src, dst = img, sk.zeros(H * W, f32, stream)
    for stage in stages:
        stage.kernel.launch(stage.plan, stream, src, dst, stage.param)
        src, dst = dst, src
    return src.to_numpy(stream)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(4)
    host = (0.3 + 0.4 * rng.random(H * W)).astype(np.float32)
    stages = build_stages(dev, H * W)
    out = tone_map(sk.to_device(host, stream), stages, stream)
    want = np.minimum(host + np.float32(0.05), 1.0)
    want = np.clip((want - 0.5) * np.float32(1.4) + 0.5, 0.0, 1.0)
    want = np.power(want, np.float32(0.8))
    np.testing.assert_allclose(out, want, rtol=1e-5, atol=1e-6)
    print(f"tone-mapped {H}x{W}: mean {host.mean():.3f} -> {out.mean():.3f}, "
          f"stages {[s.name for s in stages]}")


if __name__ == "__main__":
    main()
