# fresh-expect: clean
# fresh-note: pulse-Doppler radar chain (calibrate, Hann window, slow-time DFT, CFAR) with one prepared launch per stage kept in a dict keyed by the stage table, each stage launched with its own entry.
from __future__ import annotations

import math

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

P, R = 16, 32  # pulses (slow time) x range bins; samples are interleaved complex (re, im)
TWO_PI = 6.283185307179586


@simt.kernel
@simt.launch_contract(block=64)
def calibrate(raw: Slice[f32], gain: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(raw[i] * gain[(i // 2) % R])


@simt.kernel
@simt.launch_contract(block=64)
def hann_window(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        p = (i // 2) // R
        o.set(x[i] * (f32(0.5) - f32(0.5) * math.cos(TWO_PI * f32(p) / f32(P - 1))))


@simt.kernel
@simt.launch_contract(block=(16, 4))
def doppler_dft(x: Slice[f32], mag: DisjointSlice[f32]) -> None:
    idx = thread.index_2d(R)
    if idx is not None:
        cell = idx.get()
        d = cell // R
        r = cell % R
        acc_re = f32(0.0)
        acc_im = f32(0.0)
        for p in range(P):
            ang = -TWO_PI * f32(d * p) / f32(P)
            xr = x[2 * (p * R + r)]
            xi = x[2 * (p * R + r) + 1]
            acc_re += xr * math.cos(ang) - xi * math.sin(ang)
            acc_im += xr * math.sin(ang) + xi * math.cos(ang)
        if (o := mag.get_mut(idx)) is not None:
            o.set(math.sqrt(acc_re * acc_re + acc_im * acc_im))


@simt.kernel
@simt.launch_contract(block=64)
def cfar_detect(mag: Slice[f32], hits: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := hits.get_mut(idx)) is not None:
        r = i % R
        noise = f32(0.0)
        count = f32(0.0)
        for off in range(-4, 5):
            if off * off > 1 and 0 <= r + off < R:
                noise += mag[i + off]
                count += f32(1.0)
        o.set(f32(1.0) if mag[i] > alpha * noise / count else f32(0.0))


STAGES = {"calibrate": calibrate, "window": hann_window, "doppler": doppler_dft, "detect": cfar_detect}


def config_for(name: str) -> simt.LaunchConfig1D | simt.LaunchConfig2D:
    if name == "doppler":
        return simt.LaunchConfig2D.for_shape(P, R, block=(16, 4))
    return simt.LaunchConfig1D.for_len(2 * P * R if name in ("calibrate", "window") else P * R, block=64)


def echo(target_range: int, target_bin: int) -> np.ndarray:
    rng = np.random.default_rng(7)
    p = np.arange(P)[:, None]
    sig = np.zeros((P, R), np.complex64)
    sig[:, target_range] = 5.0 * np.exp(2j * np.pi * target_bin * p[:, 0] / P)
    sig += (rng.standard_normal((P, R)) + 1j * rng.standard_normal((P, R))).astype(np.complex64) * 0.2
    return np.stack([sig.real, sig.imag], axis=-1).astype(np.float32).ravel()


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prepared = {name: kernel.prepare(config_for(name), dev) for name, kernel in STAGES.items()}
    raw = sk.to_device(echo(target_range=11, target_bin=3), stream)
    gain = sk.to_device(np.full(R, 1.5, np.float32), stream)
    cal, win = sk.zeros(2 * P * R, f32, stream), sk.zeros(2 * P * R, f32, stream)
    mag, hits = sk.zeros(P * R, f32, stream), sk.zeros(P * R, f32, stream)
    calibrate.launch(prepared["calibrate"], stream, raw, gain, cal)
    hann_window.launch(prepared["window"], stream, cal, win)
    doppler_dft.launch(prepared["doppler"], stream, win, mag)
    cfar_detect.launch(prepared["detect"], stream, mag, hits, 4.0)
    found = np.argwhere(hits.to_numpy(stream).reshape(P, R) > 0)
    assert [3, 11] in found.tolist(), found
    print("detections (doppler bin, range bin):", found.tolist())


if __name__ == "__main__":
    main()
