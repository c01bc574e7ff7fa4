# fresh-expect: E0133 at line 38
# fresh-note: Pipeline leak detection; the fast path calls launch_unchecked inside a helper, while the `with simt.unsafe():` block sits around the helper's call in the caller, which does not cover the helper's body.
"""Locate leaks on a pipeline from the hydraulic gradient between pressure transducers."""
import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.simt import Slice, DisjointSlice, thread
from safekernels.dtypes import f32

STATIONS = 1024          # transducers along the line, one every 250 m
SPACING_KM = 0.25
SCANS = 12               # SCADA scans to average
LEAK_AT = 613


@simt.kernel
@simt.launch_contract(block=128)
def hydraulic_gradient(pressure: Slice[f32], grad: DisjointSlice[f32], inv_dx: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := grad.get_mut(idx)) is not None:
        if i + 1 < len(pressure):
            o.set((pressure[i + 1] - pressure[i]) * inv_dx)
        else:
            o.set(0.0)


def scada_scan(rng: np.random.Generator, leak_bar: float) -> np.ndarray:
    km = np.arange(STATIONS, dtype=np.float32) * SPACING_KM
    head = 80.0 - 0.18 * km                                  # friction loss along the line
    head[LEAK_AT:] -= leak_bar                               # the leak drops pressure downstream
    return (head + rng.normal(0.0, 0.02, STATIONS)).astype(np.float32)


def fast_gradient(config: simt.LaunchConfig1D, stream: sk.Stream, pressure: sk.DeviceBuffer,
                  grad: sk.DeviceBuffer) -> None:
    # the config was validated once at start-up; skip the per-launch checks in the polling loop
    hydraulic_gradient.launch_unchecked(config, stream, pressure, grad, 1.0 / SPACING_KM)


def locate_leak(mean_grad: np.ndarray) -> tuple[int, float]:
    baseline = np.median(mean_grad[:-1])
    excess = mean_grad[:-1] - baseline
    worst = int(np.argmin(excess))
    return worst, float(-excess[worst])


def monitor(dev: sk.Device, stream: sk.Stream, leak_bar: float) -> tuple[int, float]:
    config = simt.LaunchConfig1D.for_len(STATIONS, block=128)
    hydraulic_gradient.prepare(config, dev)                  # validates the contract once
    rng = np.random.default_rng(11)
    pressure = sk.zeros(STATIONS, f32, stream)
    grad = sk.zeros(STATIONS, f32, stream)
    total = np.zeros(STATIONS, dtype=np.float64)
    for _ in range(SCANS):
        pressure.copy_from_numpy(scada_scan(rng, leak_bar))
        with simt.unsafe():
            fast_gradient(config, stream, pressure, grad)
        total += grad.to_numpy(stream)
    return locate_leak((total / SCANS).astype(np.float32))


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    segment, drop = monitor(dev, stream, leak_bar=1.5)
    km = segment * SPACING_KM
    status = "LEAK" if drop > 1.0 else "normal"
    print(f"{status}: strongest gradient anomaly {drop:.2f} bar/km between km {km:.2f} and {km + SPACING_KM:.2f}")


if __name__ == "__main__":
    main()
