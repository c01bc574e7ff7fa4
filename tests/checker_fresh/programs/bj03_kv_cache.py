# fresh-expect: E0499 at line 93
# fresh-known-miss: cli,mypy two views with computed bounds (`self.keys.view(start, stop)`, `self.values.view(start, stop)` of a method returning them in a NamedTuple) over attributes `__init__` may alias (`self.values = self.keys if cfg.share_kv else ...`): views at computed offsets are not compared
# fresh-note: Speculative decoding with a target and a draft KV cache; the draft config shares one latent buffer for keys and values, so `KVCache.append` hands two views of the same slot to `kv_append` as both mutable outputs.
"""Greedy speculative decoding over a toy single-head attention, host code without torch.
Each model owns a KV cache laid out as (layers, max_len, dim) per tensor.  Decoding appends the new
key/value vectors to the slot of the current position with a SIMT kernel, scores the query against all
cached keys and mixes the cached values with the softmax weights.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, NamedTuple

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, u32
from safekernels.simt import DisjointSlice, Slice, thread

DIM = 32
BLOCK = 32


@simt.kernel
@simt.launch_contract(block=BLOCK)
def kv_append(k_new: Slice[f32], v_new: Slice[f32], k_slot: DisjointSlice[f32], v_slot: DisjointSlice[f32]) -> None:
    i = thread.index_1d().get()
    if (k := k_slot.get_mut(thread.index_1d())) is not None:
        k.set(k_new[i])
    if (v := v_slot.get_mut(thread.index_1d())) is not None:
        v.set(v_new[i])


@simt.kernel
@simt.launch_contract(block=BLOCK, requires=("len(keys) >= npos * dim",))
def scores(q: Slice[f32], keys: Slice[f32], out: DisjointSlice[f32], npos: u32, dim: u32) -> None:
    idx = thread.index_1d()
    p = idx.get()
    if p < npos and (o := out.get_mut(idx)) is not None:
        acc = f32(0.0)
        for j in range(dim):
            acc += q[j] * keys[p * dim + j]
        o.set(acc)


@simt.kernel
@simt.launch_contract(block=BLOCK)
def mix_values(probs: Slice[f32], values: Slice[f32], out: DisjointSlice[f32], npos: u32, dim: u32) -> None:
    idx = thread.index_1d()
    j = idx.get()
    if (o := out.get_mut(idx)) is not None:
        acc = f32(0.0)
        for p in range(npos):
            acc += probs[p] * values[p * dim + j]
        o.set(acc)


@dataclass(frozen=True)
class CacheConfig:
    layers: int
    max_len: int
    dim: int = DIM
    share_kv: bool = False  # MLA-style latent cache: keys and values are one tensor


class Slot(NamedTuple):
    k: sk.DeviceBuffer
    v: sk.DeviceBuffer


class KVCache:
    def __init__(self, cfg: CacheConfig, stream: sk.Stream, device: sk.Device) -> None:
        self.cfg = cfg
        self.stream = stream
        self.length = 0
        n = cfg.layers * cfg.max_len * cfg.dim
        self.keys = sk.zeros(n, f32, stream)
        self.values = self.keys if cfg.share_kv else sk.zeros(n, f32, stream)
        self.append_launch = kv_append.prepare(simt.LaunchConfig1D.for_len(cfg.dim, block=BLOCK), device)

    def _offset(self, layer: int, pos: int) -> int:
        return (layer * self.cfg.max_len + pos) * self.cfg.dim

    def slot(self, layer: int, pos: int) -> Slot:
        start = self._offset(layer, pos)
        stop = start + self.cfg.dim
        return Slot(self.keys.view(start, stop), self.values.view(start, stop))

    def append(self, layer: int, k_new: sk.DeviceBuffer, v_new: sk.DeviceBuffer) -> None:
        slot = self.slot(layer, self.length)
        kv_append.launch(self.append_launch, self.stream, k_new, v_new, slot.k, slot.v)

    def layer_view(self, layer: int) -> Slot:
        start = self._offset(layer, 0)
        stop = self._offset(layer, self.length + 1)
        return Slot(self.keys.view(start, stop), self.values.view(start, stop))


class ToyModel:
    def __init__(self, name: str, cfg: CacheConfig, seed: int, stream: sk.Stream, device: sk.Device) -> None:
        rng = np.random.default_rng(seed)
        self.name = name
        self.proj = (rng.standard_normal((3, DIM, DIM)) / np.sqrt(DIM)).astype(np.float32)
        self.cache = KVCache(cfg, stream, device)
        self.stream = stream
        self.score_launch = scores.prepare(simt.LaunchConfig1D.for_len(cfg.max_len, block=BLOCK), device)
        self.mix_launch = mix_values.prepare(simt.LaunchConfig1D.for_len(DIM, block=BLOCK), device)

    def step(self, h: np.ndarray) -> np.ndarray:
        q, k, v = (self.proj[i] @ h for i in range(3))
        s = self.stream
        for layer in range(self.cache.cfg.layers):
            self.cache.append(layer, sk.to_device(k, s), sk.to_device(v, s))
            keys, values = self.cache.layer_view(layer)
            npos = self.cache.length + 1
            logits = sk.zeros(self.cache.cfg.max_len, f32, s)
            scores.launch(self.score_launch, s, sk.to_device(q, s), keys, logits, npos, DIM)
            w = logits.to_numpy(s)[:npos] / np.sqrt(DIM)
            w = np.exp(w - w.max())
            probs = sk.to_device((w / w.sum()).astype(np.float32), s)
            out = sk.zeros(DIM, f32, s)
            mix_values.launch(self.mix_launch, s, probs, values, out, npos, DIM)
            h = np.tanh(out.to_numpy(s) + h)
            q = self.proj[0] @ h
        self.cache.length += 1
        return h


def propose(draft: ToyModel, h: np.ndarray, k: int) -> Iterator[np.ndarray]:
    for _ in range(k):
        h = draft.step(h)
        yield h


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    target = ToyModel("target", CacheConfig(layers=2, max_len=16), 1, stream, dev)
    draft = ToyModel("draft", CacheConfig(layers=1, max_len=16, share_kv=True), 2, stream, dev)
    h = np.random.default_rng(0).standard_normal(DIM).astype(np.float32)

    accepted = 0
    while target.cache.length < 6:
        h_t = target.step(h)
        for guess in propose(draft, h, 2):
            if float(np.dot(guess, h_t)) > 0.0:
                accepted += 1
            break
        h = h_t
    print(f"decoded {target.cache.length} tokens, accepted {accepted} draft guesses")


if __name__ == "__main__":
    main()
