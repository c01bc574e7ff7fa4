# fresh-expect: clean
# fresh-note: A Monte-Carlo estimate of pi launches one asynchronous SIMT batch per seed, each counting hits into its own atomic counter, zips the pending ops and runs them in one sync.
"""Dart-throwing pi estimator, ported from a CuPy ElementwiseKernel + reduction."""
import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, u32
from safekernels.simt import AtomicSlice, thread

SAMPLES = 512
BLOCK = 128


@simt.device
def hash_u32(x: u32) -> u32:
    x = x ^ (x >> u32(16))
    x = x * u32(0x7FEB352D)
    x = x ^ (x >> u32(15))
    x = x * u32(0x846CA68B)
    return x ^ (x >> u32(16))


@simt.device
def uniform(x: u32) -> f32:
    return f32(x & u32(0xFFFFFF)) / f32(16777216.0)


@simt.kernel
@simt.launch_contract(block=BLOCK)
def darts(hits: AtomicSlice[u32], seed: u32) -> None:
    i = thread.index_1d().get()
    if i < SAMPLES:
        h = hash_u32(u32(i) * u32(2) + seed * u32(2654435761))
        x = uniform(h)
        y = uniform(hash_u32(h + u32(1)))
        if x * x + y * y <= 1.0:
            hits.fetch_add(0, u32(1))


def launch_batches(seeds, device: sk.Device, stream: sk.Stream):
    plan = darts.prepare(simt.LaunchConfig1D.for_len(SAMPLES, block=BLOCK), device)
    counters = {seed: sk.zeros(1, u32, stream) for seed in seeds}
    pending = [darts.launch_async(plan, counters[seed], seed) for seed in seeds]
    return counters, pending


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    seeds = [11, 23, 37, 41]
    counters, pending = launch_batches(seeds, dev, stream)
    everything = sk.zip(*pending).then(lambda results: len(results))
    batches_run = everything.sync_on(stream)
    assert batches_run == len(seeds)
    per_seed = {seed: int(buf.to_numpy(stream)[0]) for seed, buf in counters.items()}
    estimates = [4.0 * hits / SAMPLES for hits in per_seed.values()]
    pi_hat = float(np.mean(estimates))
    assert abs(pi_hat - np.pi) < 0.3, pi_hat
    print("per seed:", per_seed, "pi ~", round(pi_hat, 3))


if __name__ == "__main__":
    main()
