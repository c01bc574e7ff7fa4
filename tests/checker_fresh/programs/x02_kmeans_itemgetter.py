# fresh-expect: E0502 at line 55
# fresh-known-miss: cli,mypy buffers picked from a dict by operator.itemgetter(*names)(state) splatted into a launch (pick = operator.itemgetter(*STEP_ROLES[name]); k.launch(prep, s, *pick(state))): a splat of a table's tuple under a literal key is followed, but here the key is a parameter (any of the tuples) and state a parameter dict, whose items a helper's summary does not follow
"""One k-means update step; the buffers a step reads and writes are picked from a state dict by name."""
import operator

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

K = 4


@simt.kernel
@simt.launch_contract(block=128)
def nearest(points: Slice[f32], centroids: Slice[f32], labels: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := labels.get_mut(idx)) is not None:
        best = f32(0.0)
        dist = abs(points[i] - centroids[0])
        for k in range(1, K):
            d = abs(points[i] - centroids[k])
            if d < dist:
                dist = d
                best = f32(k)
        o.set(best)


STEP_ROLES = {
    "assign": ("points", "centroids", "labels"),
    "reassign": ("points", "centroids", "points"),  # copy-paste slip: writes into the points
}


def run_step(name: str, state: dict[str, sk.DeviceBuffer[f32]], prep: simt.PreparedLaunch, stream: sk.Stream) -> None:
    pick = operator.itemgetter(*STEP_ROLES[name])
    nearest.launch(prep, stream, *pick(state))


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    n = 1000
    rng = np.random.default_rng(3)
    state = {
        "points": sk.to_device(rng.random(n, dtype=np.float32), stream),
        "centroids": sk.to_device(np.linspace(0, 1, K, dtype=np.float32), stream),
        "labels": sk.zeros(n, f32, stream),
    }
    prep = nearest.prepare(simt.LaunchConfig1D.for_len(n, block=128), dev)
    for name in ("assign", "reassign"):
        run_step(name, state, prep, stream)
    print(np.bincount(state["labels"].to_numpy(stream).astype(np.int64)))


if __name__ == "__main__":
    main()
