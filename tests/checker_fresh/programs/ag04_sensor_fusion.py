# fresh-expect: E0505 at line 57
# robot range-sensor fusion stage object: an async SIMT fusion launch, then a tile clamp pass that publishes the scan
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition

BEAMS = 360
SMOOTH_TILE = 40


@simt.kernel
@simt.launch_contract(block=128)
def fuse(lidar: Slice[f32], radar: Slice[f32], fused: DisjointSlice[f32], lidar_weight: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := fused.get_mut(idx)) is not None:
        lo = lidar[i]
        ra = radar[i]
        if lo <= 0.0:
            out.set(ra)
        else:
            out.set(lidar_weight * lo + (1.0 - lidar_weight) * ra)


@tile.kernel
def clamp_ranges(out: Partition[f32], max_range: f32) -> None:
    r = out.load()
    out.store(tile.minimum(tile.maximum(r, 0.05), max_range))


class FusionStage:
    def __init__(self, dev: sk.Device, stream: sk.Stream, lidar_weight: float) -> None:
        self.dev = dev
        self.stream = stream
        self.lidar_weight = lidar_weight
        self.prepared = fuse.prepare(simt.LaunchConfig1D.for_len(BEAMS, block=128), dev)
        self.fused = sk.zeros(BEAMS, f32, stream)
        self.pending: sk.DeviceOp | None = None

    def start(self, lidar_np: np.ndarray, radar_np: np.ndarray) -> None:
        lidar = sk.to_device(lidar_np, self.stream)
        radar = sk.to_device(radar_np, self.stream)
        self.pending = fuse.launch_async(self.prepared, lidar, radar, self.fused, self.lidar_weight)

    def finish(self) -> None:
        if self.pending is not None:
            self.pending.sync_on(self.stream)
            self.pending = None

    def publish(self, max_range: float) -> np.ndarray:
        parts = self.fused.partition((SMOOTH_TILE,))
        parts, _ = clamp_ranges(parts, max_range).sync_on(self.stream)
        self.fused = parts.unpartition()  # a 1-D tensor over the same memory, still usable by `fuse`
        return self.fused.to_numpy(self.stream)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(3)
    stage = FusionStage(dev, stream, lidar_weight=0.8)
    for frame in range(3):
        lidar = rng.uniform(-0.5, 12.0, BEAMS).astype(np.float32)
        radar = rng.uniform(0.0, 15.0, BEAMS).astype(np.float32)
        stage.start(lidar, radar)
        scan = stage.publish(max_range=10.0)
        stage.finish()
        print(f"frame {frame}: nearest obstacle {scan.min():.2f} m, mean {scan.mean():.2f} m")


if __name__ == "__main__":
    main()
