# fresh-expect: E0502 at line 68
# k-mer counting with a class that keeps named device buffers in a dict and normalizes counts to frequencies
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32, u32
from safekernels.simt import AtomicSlice, DisjointSlice, Slice, thread

K = 3
NUM_KMERS = 4**K
BASES = {"A": 0, "C": 1, "G": 2, "T": 3}


@simt.kernel
@simt.launch_contract(block=128)
def count_kmers(codes: Slice[i32], counts: AtomicSlice[u32], k: i32) -> None:
    i = thread.index_1d().get()
    if i + k <= len(codes):
        key = i32(0)
        for j in range(k):
            key = key * 4 + codes[i + j]
        counts.fetch_add(key, u32(1))


@simt.kernel
@simt.launch_contract(block=64)
def to_frequency(counts: Slice[f32], freqs: DisjointSlice[f32], total: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := freqs.get_mut(idx)) is not None:
        out.set(counts[i] / total)


def encode(seq: str) -> np.ndarray:
    return np.array([BASES[b] for b in seq], dtype=np.int32)


class KmerProfile:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.dev = dev
        self.stream = stream
        self.buffers: dict[str, sk.DeviceBuffer] = {
            "counts": sk.zeros(NUM_KMERS, u32, stream),
            "freqs": sk.zeros(NUM_KMERS, f32, stream),
        }
        self.freq_launch = to_frequency.prepare(simt.LaunchConfig1D.for_len(NUM_KMERS, block=64), dev)

    def add_read(self, seq: str) -> None:
        codes = sk.to_device(encode(seq), self.stream)
        prep = count_kmers.prepare(simt.LaunchConfig1D.for_len(len(seq), block=128), self.dev)
        count_kmers.launch(prep, self.stream, codes, self.buffers["counts"], K)

    def total(self) -> int:
        return int(self.buffers["counts"].to_numpy(self.stream).sum())

    def staging(self) -> sk.DeviceBuffer:
        # copy the integer counts into the f32 frequency buffer so the kernel can divide them
        host = self.buffers["counts"].to_numpy(self.stream).astype(np.float32)
        self.buffers["freqs"].copy_from_numpy(host, self.stream)
        return self.buffers["freqs"]

    def normalize(self, into: str | None = None) -> np.ndarray:
        src = self.staging()
        dst = self.buffers[into or "freqs"]
        to_frequency.launch(self.freq_launch, self.stream, src, dst, float(self.total()))
        return dst.to_numpy(self.stream)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(7)
    reads = ["".join(rng.choice(list("ACGT"), size=int(n))) for n in rng.integers(40, 200, size=12)]
    profile = KmerProfile(dev, stream)
    for read in reads:
        profile.add_read(read)
    freqs = profile.normalize()
    top = np.argsort(freqs)[::-1][:5]
    names = ["".join("ACGT"[(t >> (2 * (K - 1 - j))) & 3] for j in range(K)) for t in top]
    print("most frequent k-mers:", list(zip(names, np.round(freqs[top], 4))))


if __name__ == "__main__":
    main()
