# fresh-expect: clean
# fresh-note: the small-batch strategy wraps its own launch_unchecked call in `with simt.unsafe():`, so the unsafe operation is lexically covered.
"""Dictionary decoding of an encoded column with a latency fast path for tiny batches.

Low-cardinality columns are stored as i32 codes into a per-column dictionary of values.  Decoding gathers
`dictionary[code]` per row on the device.  Point lookups decode a handful of rows, where validating the launch
costs more than the kernel, so a strategy for small batches launches a one-block grid without `prepare`.
"""

from __future__ import annotations

import abc
from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 128
NULL_CODE = -1


@simt.kernel
@simt.launch_contract(block=BLOCK, requires=("len(codes) == len(out)",))
def dict_decode(codes: Slice[i32], dictionary: Slice[f32], out: DisjointSlice[f32], null_value: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        c = codes[i]
        if c == NULL_CODE:
            o.set(null_value)
        else:
            o.set(dictionary[c])


class LaunchStrategy(abc.ABC):
    @abc.abstractmethod
    def launch(self, stream: sk.Stream, codes: sk.DeviceBuffer, dictionary: sk.DeviceBuffer,
               out: sk.DeviceBuffer, null_value: float) -> None: ...


@dataclass
class ValidatedStrategy(LaunchStrategy):
    dev: sk.Device
    prepared: dict[int, simt.PreparedLaunch] = field(default_factory=dict)

    def launch(self, stream: sk.Stream, codes: sk.DeviceBuffer, dictionary: sk.DeviceBuffer,
               out: sk.DeviceBuffer, null_value: float) -> None:
        rows = len(codes)
        if rows not in self.prepared:
            self.prepared[rows] = dict_decode.prepare(simt.LaunchConfig1D.for_len(rows, block=BLOCK), self.dev)
        dict_decode.launch(self.prepared[rows], stream, codes, dictionary, out, null_value)


class SingleBlockStrategy(LaunchStrategy):
    """At most BLOCK rows: one block covers them, so the contract holds by construction."""

    config = simt.LaunchConfig1D(1, BLOCK)

    def launch(self, stream: sk.Stream, codes: sk.DeviceBuffer, dictionary: sk.DeviceBuffer,
               out: sk.DeviceBuffer, null_value: float) -> None:
        assert len(codes) <= BLOCK and len(out) == len(codes)
        with simt.unsafe():  # skips prepare(): the assert above is the reviewed precondition
            dict_decode.launch_unchecked(self.config, stream, codes, dictionary, out, null_value)


@dataclass
class ColumnDecoder:
    dev: sk.Device
    stream: sk.Stream
    dictionaries: dict[str, sk.DeviceBuffer] = field(default_factory=dict)
    decoded_rows: int = 0

    def __post_init__(self) -> None:
        self.small = SingleBlockStrategy()
        self.validated = ValidatedStrategy(self.dev)

    def register(self, column: str, values: np.ndarray) -> None:
        self.dictionaries[column] = sk.to_device(values.astype(np.float32), self.stream)

    def _strategy(self, rows: int) -> LaunchStrategy:
        return self.small if rows <= BLOCK else self.validated

    def decode(self, column: str, codes: np.ndarray, null_value: float = float("nan")) -> np.ndarray:
        d_codes = sk.to_device(codes.astype(np.int32), self.stream)
        out = sk.empty(len(codes), f32, self.stream)
        strategy = self._strategy(len(codes))
        strategy.launch(self.stream, d_codes, self.dictionaries[column], out, null_value)
        self.decoded_rows += len(codes)
        return out.to_numpy(self.stream)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(21)
    decoder = ColumnDecoder(dev, stream)
    cities = np.array([12.5, 7.25, 3.0, 99.0, 41.5], np.float32)  # per-city tax rates, dictionary order
    decoder.register("city_rate", cities)
    for rows in (2000, 40, 700, 5):
        codes = rng.integers(0, len(cities), rows).astype(np.int32)
        codes[rng.random(rows) < 0.1] = NULL_CODE
        got = decoder.decode("city_rate", codes)
        want = np.where(codes == NULL_CODE, np.nan, cities[np.clip(codes, 0, None)]).astype(np.float32)
        np.testing.assert_array_equal(got, want)
        print(f"{rows:5d} rows decoded, {int(np.isnan(got).sum())} nulls")
    print(f"total decoded: {decoder.decoded_rows}")


if __name__ == "__main__":
    main()
