# fresh-expect: E0502 at line 67
# fresh-note: Sign-language hand-keypoint capture; the EMA smoother is launched in place (state is both the `prev` input and the output), a read/write alias.
"""Smooth noisy hand keypoints from a glove/camera rig and segment signs by motion energy."""
import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.simt import Slice, DisjointSlice, thread
from safekernels.dtypes import f32

HANDS = 2
KEYPOINTS = 21
COORDS = 3
FRAME_LEN = HANDS * KEYPOINTS * COORDS   # 126 floats per captured frame
ALPHA = 0.35


@simt.kernel
@simt.launch_contract(block=128, requires=("len(prev) >= len(out)", "len(raw) >= len(out)"))
def ema_filter(raw: Slice[f32], prev: Slice[f32], out: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(alpha * raw[i] + (1.0 - alpha) * prev[i])


@simt.kernel
@simt.launch_contract(block=128)
def motion(cur: Slice[f32], prev: Slice[f32], speed: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := speed.get_mut(idx)) is not None:
        d = cur[i] - prev[i]
        o.set(d * d)


def synth_capture(frames: int, seed: int = 7) -> np.ndarray:
    rng = np.random.default_rng(seed)
    t = np.linspace(0.0, 4.0 * np.pi, frames, dtype=np.float32)[:, None]
    base = np.sin(t * (1.0 + np.arange(FRAME_LEN, dtype=np.float32) / FRAME_LEN))
    jitter = rng.normal(0.0, 0.05, size=(frames, FRAME_LEN)).astype(np.float32)
    return (base + jitter).astype(np.float32)


def segment(energies: list[float], threshold: float) -> list[tuple[int, int]]:
    segments, start = [], None
    for i, e in enumerate(energies):
        if e > threshold and start is None:
            start = i
        elif e <= threshold and start is not None:
            segments.append((start, i))
            start = None
    if start is not None:
        segments.append((start, len(energies)))
    return segments


def track_sequence(capture: np.ndarray, dev: sk.Device, stream: sk.Stream) -> list[float]:
    cfg = simt.LaunchConfig1D.for_len(FRAME_LEN, block=128)
    smooth_launch = ema_filter.prepare(cfg, dev)
    motion_launch = motion.prepare(cfg, dev)
    state = sk.to_device(capture[0], stream)
    previous = sk.to_device(capture[0], stream)
    speed = sk.zeros(FRAME_LEN, f32, stream)
    energies = []
    for frame in capture[1:]:
        frame_buf = sk.to_device(frame, stream)
        ema_filter.launch(smooth_launch, stream, frame_buf, state, state, ALPHA)
        motion.launch(motion_launch, stream, state, previous, speed)
        energies.append(float(speed.to_numpy(stream).sum()))
        previous.copy_from_numpy(state.to_numpy(stream))
    return energies


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    capture = synth_capture(48)
    energies = track_sequence(capture, dev, stream)
    threshold = float(np.median(energies))
    signs = segment(energies, threshold)
    print(f"{len(capture)} frames, {len(signs)} candidate signs: {signs[:4]}")


if __name__ == "__main__":
    main()
