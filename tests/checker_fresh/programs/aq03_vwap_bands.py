# fresh-expect: E0499 at line 80
# fresh-note: Intraday VWAP bands for several symbols with a two-output SIMT kernel; bug: `Workspace.buffer` caches by length only (the role is just counted), so `upper` and `lower` in `bands_for` are the same buffer and the launch at line 80 borrows it mutably twice.
"""Intraday VWAP bands: upper and lower bands around the volume-weighted average price per tick.

Band buffers come from a small workspace so repeated sessions of the same length reuse device memory.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def vwap_bands(
    cum_pv: Slice[f32], cum_vol: Slice[f32], upper: DisjointSlice[f32], lower: DisjointSlice[f32], width: f32
) -> None:
    idx = thread.index_1d()
    i = idx.get()
    vwap = cum_pv[i] / max(cum_vol[i], f32(1.0))
    if (u := upper.get_mut(idx)) is not None:
        u.set(vwap * (f32(1.0) + width))
    lo = thread.index_1d()
    if (d := lower.get_mut(lo)) is not None:
        d.set(vwap * (f32(1.0) - width))


class Workspace:
    """Hands out device buffers by length, allocating each size once."""

    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        self._by_len: dict[int, sk.DeviceBuffer] = {}
        self.requests: Counter[str] = Counter()

    def buffer(self, n: int, role: str) -> sk.DeviceBuffer:
        self.requests[role] += 1
        if n not in self._by_len:
            self._by_len[n] = sk.zeros(n, f32, self.stream)
        return self._by_len[n]


@dataclass
class Session:
    symbol: str
    prices: np.ndarray
    volumes: np.ndarray

    @property
    def ticks(self) -> int:
        return len(self.prices)

    @property
    def cumulative(self) -> tuple[np.ndarray, np.ndarray]:
        pv = np.cumsum(self.prices * self.volumes).astype(np.float32)
        return pv, np.cumsum(self.volumes).astype(np.float32)


def synthetic_session(symbol: str, ticks: int, rng: np.random.Generator) -> Session:
    prices = 100.0 + np.cumsum(rng.normal(0.0, 0.05, ticks))
    volumes = rng.integers(1, 500, ticks).astype(np.float64)
    return Session(symbol, prices, volumes)


def bands_for(session: Session, ws: Workspace, device: sk.Device, width: float) -> tuple[np.ndarray, np.ndarray]:
    stream = ws.stream
    pv, vol = session.cumulative
    cum_pv, cum_vol = sk.to_device(pv, stream), sk.to_device(vol, stream)
    upper = ws.buffer(session.ticks, "upper")
    lower = ws.buffer(session.ticks, "lower")
    prepared = vwap_bands.prepare(simt.LaunchConfig1D.for_len(session.ticks, block=128), device)
    vwap_bands.launch(prepared, stream, cum_pv, cum_vol, upper, lower, width)
    return upper.to_numpy(stream), lower.to_numpy(stream)


def main() -> None:
    device = sk.Device.cpu()
    stream = device.new_stream()
    rng = np.random.default_rng(3)
    ws = Workspace(stream)
    for symbol in ("ACME", "GLOBX", "INITK"):
        session = synthetic_session(symbol, 1024, rng)
        hi, lo = bands_for(session, ws, device, width=0.002)
        breaches = int((session.prices > hi).sum() + (session.prices < lo).sum())
        print(f"{symbol}: last band [{lo[-1]:.2f}, {hi[-1]:.2f}], {breaches} breaches")
    print("workspace requests:", dict(ws.requests))


if __name__ == "__main__":
    main()
