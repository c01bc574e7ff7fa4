# fresh-expect: E0502 at line 72
# fresh-known-miss: cli,mypy buses a method adds to a local session's dict under computed keys in a loop, read back with `dict.get(name, self.buses["master"])`: items of a dict filled under computed keys are new values, so the master fallback of both arguments is not one object (a `get` fallback of a followed item is followed)
"""Mix a small multitrack session down to a master bus on the device.

Every track is scaled by its fader and summed into its group bus; the buses are then sent
onward along a routing table (drums -> master, vocals -> reverb -> master).  Buses are looked
up by name, and an unknown name falls back to the master bus so that a track whose group was
never created still ends up audible.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 128
SAMPLE_RATE = 8_000


@simt.kernel
@simt.launch_contract(block=BLOCK, requires=("len(src) >= len(bus)",))
def send(src: Slice[f32], bus: DisjointSlice[f32], gain: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (acc := bus.get_mut(idx)) is not None:
        acc.set(acc.get() + gain * src[i])


@dataclass
class Route:
    src: str
    dst: str
    gain: float


@dataclass
class Session:
    frames: int
    stream: sk.Stream
    buses: dict[str, sk.DeviceBuffer] = field(default_factory=dict)

    def add_bus(self, name: str) -> None:
        self.buses[name] = sk.zeros(self.frames, f32, self.stream)

    def bus(self, name: str) -> sk.DeviceBuffer:
        return self.buses.get(name, self.buses["master"])


def tone(freq: float, frames: int) -> np.ndarray:
    t = np.arange(frames, dtype=np.float32) / SAMPLE_RATE
    return (0.5 * np.sin(2.0 * np.pi * freq * t)).astype(np.float32)


def mixdown(dev: sk.Device, tracks: dict[str, tuple[np.ndarray, float, str]], routes: list[Route],
            groups: tuple[str, ...]) -> np.ndarray:
    frames = len(next(iter(tracks.values()))[0])
    stream = dev.new_stream()
    session = Session(frames, stream)
    for name in ("master", *groups):
        session.add_bus(name)
    prepared = send.prepare(simt.LaunchConfig1D.for_len(frames, block=BLOCK), dev)
    for samples, fader, group in tracks.values():
        src = sk.to_device(samples, stream)
        send.launch(prepared, stream, src, session.bus(group), fader)
    for route in routes:
        send.launch(prepared, stream, session.bus(route.src), session.bus(route.dst), route.gain)
    return session.buses["master"].to_numpy(stream)


def reference(tracks: dict[str, tuple[np.ndarray, float, str]], routes: list[Route]) -> np.ndarray:
    buses: dict[str, np.ndarray] = {}
    for samples, fader, group in tracks.values():
        buses[group] = buses.get(group, 0.0) + fader * samples
    for route in routes:
        buses[route.dst] = buses.get(route.dst, 0.0) + route.gain * buses[route.src]
    return buses["master"]


def main() -> None:
    frames = 1_000
    tracks = {
        "kick": (tone(60.0, frames), 0.9, "drums"),
        "hat": (tone(3_000.0, frames), 0.3, "drums"),
        "lead": (tone(440.0, frames), 0.7, "vocals"),
        "harmony": (tone(660.0, frames), 0.4, "vocals"),
    }
    routes = [Route("drums", "master", 0.8), Route("vocals", "reverb", 0.25),
              Route("vocals", "master", 1.0), Route("reverb", "master", 0.6)]
    groups = ("drums", "vocals")
    mixed = mixdown(sk.Device.cpu(), tracks, routes, groups)
    np.testing.assert_allclose(mixed, reference(tracks, routes), rtol=1e-5, atol=1e-5)
    print(f"mixed {len(tracks)} tracks, peak {float(np.abs(mixed).max()):.3f}")


if __name__ == "__main__":
    main()
