# fresh-expect: W0003 at line 77
# fresh-known-miss: cli,mypy ops staged in a list for every camera and run only by the `match` arms of some roles: ops kept in a list and dropped at the function's end are not must-use checked
# fresh-note: the rig stages a normalisation launch for every camera, but the match in `process` only runs the ops of navigation cameras and of the debug camera when debugging is on, so the debug camera's launch is dropped unrun.
"""Exposure normalisation for a multi-camera perception rig (tile track).

Raw frames from each camera arrive as 12-bit values; each is black-level corrected, scaled by its auto
exposure gain and clamped to [0, 1] on the device before the detector sees it.  The rig has navigation
cameras (always consumed) and an optional debug camera whose frames are only kept for recording.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import count
from typing import Iterator

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

HEIGHT, WIDTH = 24, 32
TILE = (8, 16)


@tile.kernel
def normalize(out: Partition[f32], raw: Tensor[f32], black: f32, gain: f32) -> None:
    px = tile.load_like(raw, out)
    v = (px - black) * gain
    out.store(tile.minimum(tile.maximum(v, 0.0), 1.0))


@dataclass(frozen=True)
class Camera:
    name: str
    role: str  # "nav" or "debug"
    black_level: float
    white_level: float = 4095.0


@dataclass
class Frame:
    camera: Camera
    seq: int
    pixels: np.ndarray


class AutoExposure:
    """Per-camera gain that maps the 98th percentile of the frame to 0.9."""

    def __init__(self) -> None:
        self.gains: dict[str, float] = {}

    def update(self, frame: Frame) -> float:
        cam = frame.camera
        p98 = float(np.percentile(frame.pixels, 98)) - cam.black_level
        target = 0.9 / max(p98, 1.0)
        prev = self.gains.get(cam.name, target)
        self.gains[cam.name] = 0.7 * prev + 0.3 * target
        return self.gains[cam.name]


class CameraRig:
    def __init__(self, cameras: list[Camera], stream: sk.Stream, debug: bool = False) -> None:
        self.cameras = cameras
        self.stream = stream
        self.debug = debug
        self.exposure = AutoExposure()
        self.recorded: list[tuple[str, int]] = []

    def stage(self, frame: Frame) -> sk.DeviceOp:
        gain = self.exposure.update(frame)
        out = tile.zeros((HEIGHT, WIDTH), f32).partition(TILE)
        raw = tile.from_numpy(frame.pixels.astype(np.float32))
        return normalize(out, raw, frame.camera.black_level, gain)

    def process(self, frames: list[Frame]) -> dict[str, np.ndarray]:
        staged = [(f, self.stage(f)) for f in frames]
        images: dict[str, np.ndarray] = {}
        for frame, op in staged:
            match frame.camera.role:
                case "nav":
                    out, _raw, _b, _g = op.sync_on(self.stream)
                    images[frame.camera.name] = out.unpartition().to_numpy(self.stream)
                case "debug" if self.debug:
                    out, _raw, _b, _g = op.sync_on(self.stream)
                    self.recorded.append((frame.camera.name, frame.seq))
        return images


def synthetic_frames(cameras: list[Camera], seed: int = 2) -> Iterator[list[Frame]]:
    rng = np.random.default_rng(seed)
    ys, xs = np.mgrid[0:HEIGHT, 0:WIDTH]
    for seq in count():
        batch = []
        for k, cam in enumerate(cameras):
            scene = 800.0 + 600.0 * np.sin(0.2 * xs + 0.3 * ys + 0.5 * k + 0.1 * seq)
            noise = rng.normal(0.0, 12.0, scene.shape)
            batch.append(Frame(cam, seq, np.clip(scene + noise + cam.black_level, 0, cam.white_level)))
        yield batch


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    cameras = [Camera("front", "nav", 64.0), Camera("rear", "nav", 60.0), Camera("mast", "debug", 64.0)]
    rig = CameraRig(cameras, stream, debug=False)
    frames = synthetic_frames(cameras)
    brightness = []
    for _ in range(3):
        images = rig.process(next(frames))
        assert set(images) == {"front", "rear"}
        assert all(0.0 <= img.min() and img.max() <= 1.0 for img in images.values())
        brightness.append(np.mean([img.mean() for img in images.values()]))
    print("mean brightness per cycle:", " ".join(f"{b:.3f}" for b in brightness), "recorded:", rig.recorded)


if __name__ == "__main__":
    main()
