# fresh-expect: E0502 at line 37
# A helper returns a dataclass whose two fields hold one buffer.
"""A dataclass batch carries its workspace; to save memory the loader hands the input buffer as workspace."""

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def standardise(x: Slice[f32], out: DisjointSlice[f32], mean: f32, inv_std: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set((x[i] - mean) * inv_std)


@dataclass
class Batch:
    features: sk.DeviceBuffer
    labels: sk.DeviceBuffer
    workspace: sk.DeviceBuffer


def load_batch(rows: np.ndarray, labels: np.ndarray, stream) -> Batch:
    feats = sk.to_device(rows, stream)
    return Batch(features=feats, labels=sk.to_device(labels, stream), workspace=feats)  # BUG: aliases features


def preprocess(batch: Batch, prep, stream, mean: float, std: float) -> None:
    standardise.launch(prep, stream, batch.features, batch.workspace, mean, 1.0 / std)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(7)
    prep = standardise.prepare(simt.LaunchConfig1D.for_len(512, block=128), dev)
    for _ in range(2):
        rows = rng.standard_normal(512).astype(np.float32) * 3 + 1
        batch = load_batch(rows, np.zeros(512, np.float32), stream)
        preprocess(batch, prep, stream, mean=1.0, std=3.0)
        print(batch.workspace.to_numpy(stream)[:3])


if __name__ == "__main__":
    main()
