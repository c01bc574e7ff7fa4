# fresh-expect: E0502 at line 67
# fresh-note: Table-driven image filter graph over a dict workspace of named buffers; the posterize row of GRAPH names "image" as both source and destination, so the generic loop launches it reading and writing one buffer.
"""A table-driven image filter graph: separable blur then posterize, over a workspace of named buffers."""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32, u32
from safekernels.simt import DisjointSlice, Slice, thread

H, W = 24, 36
LEVELS = 4.0


@simt.kernel
@simt.launch_contract(block=128)
def blur_x(src: Slice[f32], dst: DisjointSlice[f32], width: u32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        col = i % width
        left = i - 1 if col > 0 else i
        right = i + 1 if col + 1 < width else i
        o.set(0.25 * src[left] + 0.5 * src[i] + 0.25 * src[right])


@simt.kernel
@simt.launch_contract(block=128)
def blur_y(src: Slice[f32], dst: DisjointSlice[f32], width: u32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        up = i - width if i >= width else i
        down = i + width if i + width < len(src) else i
        o.set(0.25 * src[up] + 0.5 * src[i] + 0.25 * src[down])


@simt.kernel
@simt.launch_contract(block=128)
def posterize(src: Slice[f32], dst: DisjointSlice[f32], width: u32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(f32(i32(src[i] * LEVELS + 0.5)) / LEVELS)


KERNELS = {"blur_x": blur_x, "blur_y": blur_y, "posterize": posterize}
GRAPH = [
    ("blur_x", "image", "scratch"),
    ("blur_y", "scratch", "image"),
    ("posterize", "image", "image"),
]


def run_graph(host: np.ndarray, dev: sk.Device, stream: sk.Stream) -> np.ndarray:
    cfg = simt.LaunchConfig1D.for_len(H * W, block=128)
    plans = {name: kernel.prepare(cfg, dev) for name, kernel in KERNELS.items()}
    ws = {
        "image": sk.to_device(host.ravel(), stream),
        "scratch": sk.zeros(H * W, f32, stream),
        "poster": sk.zeros(H * W, f32, stream),
    }
    for name, src, dst in GRAPH:
        KERNELS[name].launch(plans[name], stream, ws[src], ws[dst], W)
    return ws[GRAPH[-1][2]].to_numpy(stream).reshape(H, W)


def reference(img: np.ndarray) -> np.ndarray:
    p = np.pad(img, 1, mode="edge")
    bx = 0.25 * p[1:-1, :-2] + 0.5 * p[1:-1, 1:-1] + 0.25 * p[1:-1, 2:]
    q = np.pad(bx, ((1, 1), (0, 0)), mode="edge")
    by = 0.25 * q[:-2] + 0.5 * q[1:-1] + 0.25 * q[2:]
    return np.trunc(by * LEVELS + 0.5) / LEVELS


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(6)
    host = rng.random((H, W), dtype=np.float32)
    out = run_graph(host, dev, stream)
    np.testing.assert_allclose(out, reference(host), atol=1e-6)
    print(f"posterized {H}x{W} into {len(np.unique(out))} grey levels")


if __name__ == "__main__":
    main()
