# fresh-expect: E0382 at line 43
# fresh-note: Token embedding forward/backward with a kernel factory; the variant that adds sinusoidal positions calls `idx.get()` again inside the `get_mut(idx)` branch, after the witness was consumed.
"""Embedding lookup (forward) and scatter-add (backward) for a tiny language model, no torch.

`make_lookup` builds one SIMT kernel per embedding configuration (dimension, scale, padding id,
optional absolute positions) as a closure over compile-time constants.  The backward pass adds the
output gradient rows into the table gradient with atomics, since a token may repeat in a batch.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterator

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import AtomicSlice, DisjointSlice, Slice, thread

BLOCK = 128


def make_lookup(dim: int, scale: float, padding_idx: int, with_positions: bool, seq_len: int):
    half = dim // 2

    @simt.kernel
    @simt.launch_contract(block=BLOCK)
    def lookup(table: Slice[f32], ids: Slice[i32], out: DisjointSlice[f32]) -> None:
        idx = thread.index_1d()
        i = idx.get()
        if i >= len(out):
            return
        tok = ids[i // dim]
        col = i % dim
        if (o := out.get_mut(idx)) is not None:
            v = f32(0.0)
            if tok != padding_idx:
                v = table[tok * dim + col] * scale
            if with_positions:
                pos = (idx.get() // dim) % seq_len
                k = col % half
                angle = f32(pos) / math.pow(10000.0, f32(2 * k) / f32(dim))
                v += math.sin(angle) if col < half else math.cos(angle)
            o.set(v)

    return lookup


@simt.kernel
@simt.launch_contract(block=BLOCK)
def embed_backward(grad_out: Slice[f32], ids: Slice[i32], grad_table: AtomicSlice[f32], dim: i32) -> None:
    i = thread.index_1d().get()
    if i < len(grad_out):
        tok = ids[i // dim]
        if tok >= 0:
            grad_table.fetch_add(tok * dim + i % dim, grad_out[i])


@dataclass
class EmbeddingSpec:
    vocab: int
    dim: int
    padding_idx: int = 0
    positions: bool = False
    seq_len: int = 8

    @property
    def scale(self) -> float:
        return math.sqrt(self.dim)


class Embedding:
    def __init__(self, spec: EmbeddingSpec, device: sk.Device, stream: sk.Stream, seed: int) -> None:
        self.spec = spec
        self.device = device
        self.stream = stream
        rng = np.random.default_rng(seed)
        table = rng.standard_normal((spec.vocab, spec.dim)).astype(np.float32) * 0.02
        table[spec.padding_idx] = 0.0
        self.table = sk.to_device(table.ravel(), stream)
        self.grad = sk.zeros(spec.vocab * spec.dim, f32, stream)
        self.kernel = make_lookup(spec.dim, spec.scale, spec.padding_idx, spec.positions, spec.seq_len)

    def _config(self, n: int) -> simt.LaunchConfig1D:
        return simt.LaunchConfig1D.for_len(n, block=BLOCK)

    def __getitem__(self, ids: np.ndarray) -> np.ndarray:
        n = ids.size * self.spec.dim
        out = sk.zeros(n, f32, self.stream)
        ids_dev = sk.to_device(ids.astype(np.int32).ravel(), self.stream)
        self.kernel.launch(self.kernel.prepare(self._config(n), self.device), self.stream, self.table, ids_dev, out)
        return out.to_numpy(self.stream).reshape(*ids.shape, self.spec.dim)

    def backward(self, ids: np.ndarray, grad_out: np.ndarray) -> None:
        g = sk.to_device(np.ascontiguousarray(grad_out, dtype=np.float32).ravel(), self.stream)
        ids_dev = sk.to_device(ids.astype(np.int32).ravel(), self.stream)
        prepared = embed_backward.prepare(self._config(len(g)), self.device)
        embed_backward.launch(prepared, self.stream, g, ids_dev, self.grad, self.spec.dim)


def token_batches(rng: np.random.Generator, vocab: int, batch: int, seq_len: int) -> Iterator[np.ndarray]:
    while True:
        ids = rng.integers(1, vocab, (batch, seq_len))
        ids[:, -2:] = 0  # right padding
        yield ids


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(4)
    tables = {
        "encoder": Embedding(EmbeddingSpec(vocab=50, dim=16), dev, stream, seed=1),
        "decoder": Embedding(EmbeddingSpec(vocab=50, dim=16, positions=True), dev, stream, seed=2),
    }
    batches = token_batches(rng, 50, batch=2, seq_len=8)
    for step, ids in zip(range(2), batches):
        for name, emb in tables.items():
            x = emb[ids]
            emb.backward(ids, 2.0 * x / x.size)  # d/dx of mean(x^2)
            print(f"step {step} {name}: |x| = {np.linalg.norm(x):.4f}")
    grad = tables["decoder"].grad.to_numpy(stream).reshape(50, 16)
    print("rows with gradient:", int((np.abs(grad).sum(axis=1) > 0).sum()))


if __name__ == "__main__":
    main()
