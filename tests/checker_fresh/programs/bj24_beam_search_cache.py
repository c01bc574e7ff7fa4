# fresh-expect: clean
# fresh-note: Beam-search decoding reorders a per-layer KV cache by parent beam into spare buffers; the spare list allocates one new buffer per layer, so `gather_beams` always reads a live buffer and writes a distinct spare before the lists are swapped.
"""Beam search over a toy decoder with a per-layer KV cache, host code without torch.

After every step the surviving beams may descend from any parent, so each layer's cache rows are
gathered by parent index into a spare buffer, and the live and spare lists are swapped (no copy back).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 64
VOCAB = 11


@simt.kernel
@simt.launch_contract(block=BLOCK)
def gather_beams(src: Slice[f32], parents: Slice[i32], dst: DisjointSlice[f32], span: i32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    beam = i // span
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[parents[beam] * span + i % span])


@dataclass(frozen=True)
class DecodeConfig:
    layers: int = 2
    beams: int = 3
    max_len: int = 6
    dim: int = 8

    @property
    def span(self) -> int:  # cache elements per beam and layer
        return self.max_len * self.dim


class BeamCache:
    def __init__(self, cfg: DecodeConfig, device: sk.Device, stream: sk.Stream) -> None:
        self.cfg = cfg
        self.stream = stream
        n = cfg.beams * cfg.span
        self.layers = [sk.zeros(n, f32, stream) for _ in range(cfg.layers)]
        self.spare = [sk.zeros(len(buf), f32, stream) for buf in self.layers]
        self.prepared = gather_beams.prepare(simt.LaunchConfig1D.for_len(n, block=BLOCK), device)
        self.length = 0

    def __len__(self) -> int:
        return len(self.layers)

    def __getitem__(self, layer: int) -> sk.DeviceBuffer:
        return self.layers[layer]

    def __iter__(self) -> Iterator[sk.DeviceBuffer]:
        return iter(self.layers)

    def append(self, layer: int, kv: np.ndarray) -> None:
        buf = self[layer]
        host = buf.to_numpy(self.stream).reshape(self.cfg.beams, self.cfg.max_len, self.cfg.dim)
        host[:, self.length] = kv
        buf.copy_from_numpy(host.ravel())

    def reorder(self, parents: np.ndarray) -> "BeamCache":
        p = sk.to_device(parents.astype(np.int32), self.stream)
        for src, dst in zip(self.layers, self.spare):
            gather_beams.launch(self.prepared, self.stream, src, p, dst, self.cfg.span)
        self.layers, self.spare = self.spare, self.layers
        return self


class ToyDecoder:
    def __init__(self, cfg: DecodeConfig, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        self.embed = rng.standard_normal((VOCAB, cfg.dim)).astype(np.float32)
        self.out = rng.standard_normal((cfg.dim, VOCAB)).astype(np.float32)
        self.cfg = cfg

    def step(self, cache: BeamCache, tokens: np.ndarray) -> np.ndarray:
        h = self.embed[tokens]
        for layer in range(len(cache)):
            cache.append(layer, h)
            past = cache[layer].to_numpy(cache.stream).reshape(self.cfg.beams, self.cfg.max_len, self.cfg.dim)
            h = np.tanh(h + past[:, : cache.length + 1].mean(axis=1))
        cache.length += 1
        logits = h @ self.out
        return logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))


def beam_search(decoder: ToyDecoder, cache: BeamCache, bos: int, steps: int) -> list[list[int]]:
    beams = decoder.cfg.beams
    tokens = np.full(beams, bos)
    scores = np.array([0.0] + [-np.inf] * (beams - 1))
    history: list[list[int]] = [[] for _ in range(beams)]
    for _ in range(steps):
        logp = decoder.step(cache, tokens)
        total = (scores[:, None] + logp).ravel()
        best = np.argsort(-total)[:beams]
        parents, tokens = best // VOCAB, best % VOCAB
        scores = total[best]
        history = [history[p] + [int(t)] for p, t in zip(parents, tokens)]
        cache.reorder(parents)
    return history


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    cfg = DecodeConfig()
    cache = BeamCache(cfg, dev, stream)
    hyps = beam_search(ToyDecoder(cfg, seed=3), cache, bos=0, steps=4)
    for rank, hyp in enumerate(hyps):
        print(f"beam {rank}: {hyp}")


if __name__ == "__main__":
    main()
