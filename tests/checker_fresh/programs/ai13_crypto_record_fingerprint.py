# fresh-expect: E0502 at line 60
# fresh-note: output_buffer returns the input words themselves when the config asks for in-place mixing, so the first mix_round launch reads and writes the same buffer.
"""Keyed fingerprints for fixed-size records: a few rounds of xor-shift-multiply bit mixing per 32-bit word.

Each round xors in a round key and the word's position, then runs a murmur-style finaliser.  The host checks the
avalanche property: flipping one input bit should flip about half of the output bits.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import u32
from safekernels.simt import DisjointSlice, Slice, thread

WORDS = 1024
GOLDEN = 0x9E3779B9


class CipherConfig(NamedTuple):
    rounds: int
    key: int
    in_place: bool = False


@simt.kernel
@simt.launch_contract(block=256)
def mix_round(words: Slice[u32], out: DisjointSlice[u32], round_key: u32, golden: u32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        x = words[i] ^ round_key ^ (u32(i) * golden)
        x = x ^ (x >> u32(16))
        x = x * u32(0x85EBCA6B)
        x = x ^ (x >> u32(13))
        x = x * u32(0xC2B2AE35)
        o.set(x ^ (x >> u32(16)))


def round_keys(cfg: CipherConfig) -> list[int]:
    rng = np.random.default_rng(cfg.key)
    return [int(k) for k in rng.integers(0, 2**32, cfg.rounds, dtype=np.uint64)]


def output_buffer(data: sk.DeviceBuffer, cfg: CipherConfig, stream: sk.Stream) -> sk.DeviceBuffer:
    if cfg.in_place:
        return data
    return sk.zeros(len(data), u32, stream)


def fingerprint(dev: sk.Device, stream: sk.Stream, records: np.ndarray, cfg: CipherConfig) -> np.ndarray:
    src = sk.to_device(records.astype(np.uint32), stream)
    dst = output_buffer(src, cfg, stream)
    prep = mix_round.prepare(simt.LaunchConfig1D.for_len(len(records), block=256), dev)
    for key in round_keys(cfg):
        mix_round.launch(prep, stream, src, dst, key, GOLDEN)
        src, dst = dst, src
    return src.to_numpy(stream)


def flipped_bits(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    diff = np.bitwise_xor(a, b)
    return np.unpackbits(diff.view(np.uint8)).reshape(len(a), 32).sum(axis=1)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(1)
    records = rng.integers(0, 2**32, WORDS, dtype=np.uint64).astype(np.uint32)
    cfg = CipherConfig(rounds=4, key=0xC0FFEE, in_place=True)

    base = fingerprint(dev, stream, records, cfg)
    tweaked = records.copy()
    tweaked ^= np.uint32(1) << np.uint32(7)
    other = fingerprint(dev, stream, tweaked, cfg)

    flips = flipped_bits(base, other)
    print(f"avalanche: mean {flips.mean():.2f} of 32 bits flip (min {flips.min()}, max {flips.max()})")
    print(f"first fingerprints: {' '.join(f'{w:08x}' for w in base[:4])}")
    assert 14.0 < flips.mean() < 18.0


if __name__ == "__main__":
    main()
