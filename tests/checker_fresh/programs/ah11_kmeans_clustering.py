# fresh-expect: E0133 at line 78
# fresh-known-miss: cli,mypy a `functools.partial(assign.launch_unchecked, ...)` built inside `with simt.unsafe()` in a helper that returns it in a dict display, called outside an unsafe block as `launchers["assign"](...)`: calls through a dict item of partials are not followed
"""K-means clustering of 2-D points with the assignment step on the SIMT track.

The assignment kernel is launched unchecked inside the iteration loop to keep launch overhead down (its
block size is fixed and the buffers are sized by the same `n`); the centroid update runs on the host.
"""

from __future__ import annotations

import functools

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 128
K = 4


@simt.kernel
@simt.launch_contract(block=BLOCK)
def assign(px: Slice[f32], py: Slice[f32], cx: Slice[f32], cy: Slice[f32], labels: DisjointSlice[i32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := labels.get_mut(idx)) is not None:
        best = i32(0)
        best_d = f32(3.0e38)
        for c in range(len(cx)):
            dx = px[i] - cx[c]
            dy = py[i] - cy[c]
            d = dx * dx + dy * dy
            if d < best_d:
                best_d = d
                best = i32(c)
        out.set(best)


def build_launchers(n: int, stream: sk.Stream) -> dict:
    config = simt.LaunchConfig1D.for_len(n, block=BLOCK)
    with simt.unsafe():
        return {"assign": functools.partial(assign.launch_unchecked, config, stream)}


def update_centroids(points: np.ndarray, labels: np.ndarray, old: np.ndarray) -> np.ndarray:
    new = old.copy()
    for c in range(len(old)):
        members = points[labels == c]
        if len(members):
            new[c] = members.mean(axis=0)
    return new.astype(np.float32)


def make_blobs(n: int, seed: int = 4) -> np.ndarray:
    rng = np.random.default_rng(seed)
    centers = np.array([[-3.0, -3.0], [3.0, -2.0], [-2.0, 3.0], [3.0, 3.0]])
    which = rng.integers(0, len(centers), n)
    return (centers[which] + rng.normal(0.0, 0.7, (n, 2))).astype(np.float32)


def main() -> None:
    device = sk.Device.default()
    stream = device.new_stream()
    points = make_blobs(1_200)
    n = len(points)
    px = sk.to_device(np.ascontiguousarray(points[:, 0]), stream)
    py = sk.to_device(np.ascontiguousarray(points[:, 1]), stream)
    centroids = points[:K].copy()
    cx = sk.to_device(np.ascontiguousarray(centroids[:, 0]), stream)
    cy = sk.to_device(np.ascontiguousarray(centroids[:, 1]), stream)
    labels = sk.zeros(n, i32, stream)
    launchers = build_launchers(n, stream)
    previous = None
    for iteration in range(25):
        launchers["assign"](px, py, cx, cy, labels)
        current = labels.to_numpy(stream)
        if previous is not None and np.array_equal(current, previous):
            break
        centroids = update_centroids(points, current, centroids)
        cx.copy_from_numpy(np.ascontiguousarray(centroids[:, 0]))
        cy.copy_from_numpy(np.ascontiguousarray(centroids[:, 1]))
        previous = current
    sizes = np.bincount(current, minlength=K)
    print(f"converged after {iteration + 1} iterations; cluster sizes {sizes.tolist()}")
    print("centroids:", np.round(centroids, 2).tolist())


if __name__ == "__main__":
    main()
