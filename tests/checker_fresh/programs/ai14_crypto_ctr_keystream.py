# fresh-expect: clean
# fresh-note: output_buffer always allocates a fresh buffer, so the keystream rounds ping-pong between two distinct buffers before the xor kernel encrypts into a third.
"""A toy counter-mode stream cipher: a keystream from mixed counters, xored into the payload.

The keystream is built from the block counter by a few rounds of an ARX-style mixer on the device; encryption and
decryption are the same xor kernel, so the host checks the round trip and the keystream's bit balance.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import u32
from safekernels.simt import DisjointSlice, Slice, thread

WORDS = 1024


class CipherConfig(NamedTuple):
    rounds: int
    key: int
    nonce: int = 0


@simt.kernel
@simt.launch_contract(block=256)
def arx_round(state: Slice[u32], out: DisjointSlice[u32], round_key: u32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        x = state[i] + round_key
        x = x ^ ((x << u32(7)) | (x >> u32(25)))
        x = x + u32(0x6C8E9CF5)
        x = x ^ ((x << u32(13)) | (x >> u32(19)))
        o.set(x * u32(0x2C1B3C6D))


@simt.kernel
@simt.launch_contract(block=256)
def xor_stream(data: Slice[u32], keystream: Slice[u32], out: DisjointSlice[u32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(data[i] ^ keystream[i])


def round_keys(cfg: CipherConfig) -> list[int]:
    rng = np.random.default_rng(cfg.key)
    return [int(k) for k in rng.integers(0, 2**32, cfg.rounds, dtype=np.uint64)]


def output_buffer(data: sk.DeviceBuffer, cfg: CipherConfig, stream: sk.Stream) -> sk.DeviceBuffer:
    return sk.zeros(len(data), u32, stream)


def keystream(dev: sk.Device, stream: sk.Stream, n: int, cfg: CipherConfig) -> sk.DeviceBuffer:
    counters = (np.arange(n, dtype=np.uint64) + (cfg.nonce << 20)).astype(np.uint32)
    src = sk.to_device(counters, stream)
    dst = output_buffer(src, cfg, stream)
    prep = arx_round.prepare(simt.LaunchConfig1D.for_len(n, block=256), dev)
    for key in round_keys(cfg):
        arx_round.launch(prep, stream, src, dst, key)
        src, dst = dst, src
    return src


def apply_stream(dev: sk.Device, stream: sk.Stream, payload: np.ndarray, ks: sk.DeviceBuffer) -> np.ndarray:
    data = sk.to_device(payload, stream)
    out = sk.zeros(len(payload), u32, stream)
    prep = xor_stream.prepare(simt.LaunchConfig1D.for_len(len(payload), block=256), dev)
    xor_stream.launch(prep, stream, data, ks, out)
    return out.to_numpy(stream)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    cfg = CipherConfig(rounds=6, key=0xBADC0DE, nonce=3)
    message = np.frombuffer(("telemetry frame " * 256).encode(), dtype=np.uint32)[:WORDS].copy()

    ks = keystream(dev, stream, WORDS, cfg)
    cipher = apply_stream(dev, stream, message, ks)
    plain = apply_stream(dev, stream, cipher, ks)
    assert np.array_equal(plain, message)

    bits = np.unpackbits(ks.to_numpy(stream).view(np.uint8))
    print(f"keystream: {bits.mean():.4f} of bits set over {bits.size} bits")
    print(f"ciphertext head: {' '.join(f'{w:08x}' for w in cipher[:4])}")
    print(f"round trip ok: {plain.tobytes()[:16].decode()!r}")


if __name__ == "__main__":
    main()
