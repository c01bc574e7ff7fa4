# fresh-expect: E0502 at line 24
# fresh-note: found since: a helper's **kwargs dict holds the caller's keyword arguments (bufs["dry"] is the dry= buffer) and a kernel handed to a helper launches as that kernel there (kernel.launch in run_effect), so dry=mixed, out=mixed conflict at the call
"""An audio effects chain: each effect is launched through one helper that takes its buffers by keyword."""
from typing import Any

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=256)
def mix(dry: Slice[f32], wet: Slice[f32], out: DisjointSlice[f32], amount: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(dry[i] * (f32(1.0) - amount) + wet[i] * amount)


def run_effect(kernel: Any, prep: Any, stream: sk.Stream, amount: float, **bufs: sk.DeviceBuffer[f32]) -> None:
    kernel.launch(prep, stream, bufs["dry"], bufs["wet"], bufs["out"], amount)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rate = 8000
    t = np.arange(rate, dtype=np.float32) / rate
    signal = sk.to_device(np.sin(2 * np.pi * 440 * t).astype(np.float32), stream)
    reverb = sk.to_device(np.roll(np.sin(2 * np.pi * 440 * t), 400).astype(np.float32), stream)
    mixed = sk.zeros(rate, f32, stream)
    prep = mix.prepare(simt.LaunchConfig1D.for_len(rate, block=256), dev)
    run_effect(mix, prep, stream, 0.3, dry=signal, wet=reverb, out=mixed)
    # second pass mixes the reverb in again, "in place" on the mixed track
    run_effect(mix, prep, stream, 0.1, dry=mixed, wet=reverb, out=mixed)
    print(float(np.abs(mixed.to_numpy(stream)).max()))


if __name__ == "__main__":
    main()
