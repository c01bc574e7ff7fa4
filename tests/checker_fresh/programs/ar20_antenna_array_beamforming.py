# fresh-expect: E0382 at line 37
# fresh-note: phased antenna array delay-and-sum beamformer; inside the kernel the apodization step asks the thread-index witness for its index again after get_mut has consumed it.
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread

ELEMENTS = 16
SNAPSHOTS = 8
ANGLES = 64


@simt.kernel
@simt.launch_contract(block=64)
def delay_and_sum(re: Slice[f32], im: Slice[f32], power: DisjointSlice[f32], n_elem: i32, spacing: f32) -> None:
    idx = thread.index_1d()
    a = idx.get()
    theta = f32(-1.5) + f32(3.0) * f32(a) / f32(63.0)
    k = f32(2.0 * math.pi) * spacing * math.sin(theta)
    acc = f32(0.0)
    for s in range(len(re) // n_elem):
        sr = f32(0.0)
        si = f32(0.0)
        for e in range(n_elem):
            c, d = math.cos(k * f32(e)), -math.sin(k * f32(e))
            sr += re[s * n_elem + e] * c - im[s * n_elem + e] * d
            si += re[s * n_elem + e] * d + im[s * n_elem + e] * c
        acc += sr * sr + si * si
    if (p := power.get_mut(idx)) is not None:
        edge = f32(0.5) if idx.get() == 0 or idx.get() == len(power) - 1 else f32(1.0)
        p.set(edge * acc / f32(n_elem * n_elem))


@dataclass
class Emitter:
    label: str
    angle_rad: float
    amplitude: float


def snapshots(emitters: list[Emitter], spacing: float, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    e = np.arange(ELEMENTS)
    x = np.zeros((SNAPSHOTS, ELEMENTS), np.complex64)
    for em in emitters:
        steer = np.exp(1j * 2 * np.pi * spacing * np.sin(em.angle_rad) * e)
        phases = np.exp(1j * rng.uniform(0, 2 * np.pi, SNAPSHOTS))
        x += em.amplitude * phases[:, None] * steer[None, :]
    x += 0.05 * (rng.standard_normal(x.shape) + 1j * rng.standard_normal(x.shape))
    return x.real.astype(np.float32).ravel(), x.imag.astype(np.float32).ravel()


def scan(dev: sk.Device, emitters: list[Emitter], spacing: float = 0.5) -> np.ndarray:
    stream = dev.new_stream()
    re, im = snapshots(emitters, spacing, np.random.default_rng(6))
    d_re, d_im = sk.to_device(re, stream), sk.to_device(im, stream)
    power = sk.zeros(ANGLES, f32, stream)
    plan = delay_and_sum.prepare(simt.LaunchConfig1D.for_len(ANGLES, block=64), dev)
    delay_and_sum.launch(plan, stream, d_re, d_im, power, ELEMENTS, spacing)
    return power.to_numpy(stream)


def main() -> None:
    targets = [Emitter("uplink", 0.35, 1.0), Emitter("jammer", -0.8, 0.6)]
    spectrum = scan(sk.Device.cpu(), targets)
    angles = np.linspace(-1.5, 1.5, ANGLES)
    local = [k for k in range(1, ANGLES - 1) if spectrum[k - 1] <= spectrum[k] >= spectrum[k + 1]]
    peaks = sorted(local, key=lambda k: -spectrum[k])[:2]
    for k in sorted(peaks):
        print(f"peak at {np.degrees(angles[k]):6.1f} deg, power {spectrum[k]:.3f}")


if __name__ == "__main__":
    main()
