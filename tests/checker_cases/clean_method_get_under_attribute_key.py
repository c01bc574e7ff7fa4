"""The clean twin of `e0502_method_get_under_attribute_key`: the fallback of `self.bufs.get(self.settings.key,
...)` is a scratch buffer of its own, never the launch's input, so whichever item the key names (or none) the
launch reads one buffer and writes another."""

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
            "scratch": sk.zeros(N, f32, stream),
        }
        self.plan = correction.prepare(simt.LaunchConfig1D.for_len(N, block=64), dev)

    def output(self) -> sk.DeviceBuffer:
        return self.bufs.get(self.settings.output_key, self.bufs["scratch"])

    def run(self) -> float:
        out = self.output()
        correction.launch(self.plan, self.stream, self.bufs["glucose"], out)
        return float(out.to_numpy(self.stream).sum())


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    print(Planner(dev, stream, Settings(output_key="doses")).run())


if __name__ == "__main__":
    main()
