# fresh-expect: E0382 at line 72
# fresh-note: Disaggregated serving step that zips a prefill tile op and a decode `launch_async` op and ships the results to the client over a flaky link (a `then` callback), retrying on ConnectionError. Bug: the retry loop zips the same two ops again, but the first attempt's `sk.zip` already consumed them (E0382 on the second attempt).
"""One step of a server that runs a prefill chunk and a decode batch together and streams both results to a
remote KV-transfer endpoint.  The link drops the first transfer now and then, so the step retries.
"""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

N = 256
TILE = 64


@tile.kernel
def rms_scale(out: Partition[f32], x: Tensor[f32], gain: f32) -> None:
    t = tile.load_like(x, out)
    out.store(t * gain)


@simt.kernel
@simt.launch_contract(block=128)
def residual(x: Slice[f32], delta: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(x[i] + delta[i])


class FlakyLink:
    def __init__(self, drops: int) -> None:
        self.drops = drops
        self.delivered: list[int] = []

    def deliver(self, results: tuple) -> tuple:
        if self.drops > 0:
            self.drops -= 1
            raise ConnectionError("transfer reset by peer")
        self.delivered.append(len(results))
        return results


class ServingStep:
    def __init__(self, dev: sk.Device, stream: sk.Stream, link: FlakyLink, retries: int = 3) -> None:
        self.stream = stream
        self.link = link
        self.retries = retries
        self.prep = residual.prepare(simt.LaunchConfig1D.for_len(N, block=128), dev)
        self.failures = 0

    def _prefill(self, chunk: np.ndarray) -> sk.DeviceOp:
        out = tile.zeros((N,), f32).partition((TILE,))
        return rms_scale(out, tile.from_numpy(chunk), float(1.0 / np.sqrt(np.mean(chunk**2) + 1e-6)))

    def _decode(self, x: sk.DeviceBuffer, delta: sk.DeviceBuffer, out: sk.DeviceBuffer) -> sk.DeviceOp:
        return residual.launch_async(self.prep, x, delta, out)

    def run(self, chunk: np.ndarray, hidden: np.ndarray, delta: np.ndarray) -> tuple:
        x = sk.to_device(hidden, self.stream)
        d = sk.to_device(delta, self.stream)
        out = sk.zeros(N, f32, self.stream)
        prefill_op = self._prefill(chunk)
        decode_op = self._decode(x, d, out)
        for attempt in range(self.retries):
            try:
                return sk.zip(prefill_op, decode_op).then(self.link.deliver).sync_on(self.stream)
            except ConnectionError:
                self.failures += 1
        raise RuntimeError(f"step failed after {self.retries} attempts")


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(6)
    step = ServingStep(dev, stream, FlakyLink(drops=1))
    (prefilled, _x, _g), (_h, _d, decoded) = step.run(
        rng.standard_normal(N).astype(np.float32),
        rng.standard_normal(N).astype(np.float32),
        rng.standard_normal(N).astype(np.float32) * 0.1,
    )
    print("prefill rms:", round(float(np.sqrt((prefilled.unpartition().to_numpy(stream) ** 2).mean())), 3))
    print("decode mean:", round(float(decoded.to_numpy(stream).mean()), 3), "failures:", step.failures)


if __name__ == "__main__":
    main()
