"""A method returns `self.bufs.get(self.settings.output_key, self.bufs["glucose"])`: the key is read from the
object's settings, so the checker cannot tell which item it names, but the fallback is the input buffer itself.
A settings object whose key names no item makes the launch read and write one buffer (E0502, as the runtime's
`AliasingError` says): the call is the item under that key (not followed) or the fallback, as the same `get`
written at the call would be."""

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 64


@simt.kernel
@simt.launch_contract(block=64)
def correction(glucose: Slice[f32], dose: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := dose.get_mut(idx)) is not None:
        out.set(glucose[i] * f32(0.5))


@dataclass
class Settings:
    output_key: str = "dose"


class Planner:
    def __init__(self, dev: sk.Device, stream: sk.Stream, settings: Settings) -> None:
        self.stream = stream
        self.settings = settings
        self.bufs = {
            "glucose": sk.to_device(np.ones(N, np.float32), stream),
            "dose": sk.zeros(N, f32, stream),
        }
        self.plan = correction.prepare(simt.LaunchConfig1D.for_len(N, block=64), dev)

    def output(self) -> sk.DeviceBuffer:
        return self.bufs.get(self.settings.output_key, self.bufs["glucose"])

    def run(self) -> float:
        out = self.output()
        correction.launch(self.plan, self.stream, self.bufs["glucose"], out)  # expect: E0502
        return float(out.to_numpy(self.stream).sum())


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    print(Planner(dev, stream, Settings(output_key="doses")).run())


if __name__ == "__main__":
    main()
