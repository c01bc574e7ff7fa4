# fresh-expect: E0502 at line 36
# fresh-note: found since: operator.attrgetter(...)(obj), directly or through a name bound once at module level, gives the attributes themselves
"""Apply a bias-and-gain correction to sensor readings, described by a small dataclass job."""
import dataclasses
from operator import attrgetter

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def correct(raw: Slice[f32], bias: Slice[f32], out: DisjointSlice[f32], gain: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set((raw[i] - bias[i]) * gain)


@dataclasses.dataclass(frozen=True)
class Job:
    raw: sk.DeviceBuffer
    bias: sk.DeviceBuffer
    out: sk.DeviceBuffer
    gain: float = 1.0


io_of = attrgetter("raw", "bias", "out", "gain")


def run(job: Job, prep: simt.PreparedLaunch, stream: sk.Stream) -> None:
    correct.launch(prep, stream, *io_of(job))


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    n = 1500
    rng = np.random.default_rng(13)
    raw_np = rng.uniform(10, 20, n).astype(np.float32)
    bias_np = rng.uniform(0, 1, n).astype(np.float32)
    prep = correct.prepare(simt.LaunchConfig1D.for_len(n, block=128), dev)
    job = Job(sk.to_device(raw_np, stream), sk.to_device(bias_np, stream), sk.zeros(n, f32, stream), gain=2.0)
    run(job, prep, stream)
    first = job.out.to_numpy(stream)
    # second pass: recalibrate the corrected values again, in place, with a smaller gain
    again = dataclasses.replace(job, raw=job.out, gain=0.5)
    run(again, prep, stream)
    np.testing.assert_allclose(first, (raw_np - bias_np) * 2.0, rtol=1e-6)
    print("corrected mean", float(again.out.to_numpy(stream).mean()))


if __name__ == "__main__":
    main()
