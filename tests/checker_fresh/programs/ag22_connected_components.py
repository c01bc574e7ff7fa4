# fresh-expect: clean
# connected components by min-label propagation over edge chunks, atomics into one label array, loop until stable
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import i32
from safekernels.simt import AtomicSlice, Slice, thread

NODES = 400
CHUNK = 256


@simt.kernel
@simt.launch_contract(block=128)
def hook(src: Slice[i32], dst: Slice[i32], snapshot: Slice[i32], labels: AtomicSlice[i32],
         changed: AtomicSlice[i32]) -> None:
    e = thread.index_1d().get()
    if e < len(src):
        a = src[e]
        b = dst[e]
        la = snapshot[a]
        lb = snapshot[b]
        if la < lb:
            labels.fetch_min(b, la)
            changed.fetch_add(0, i32(1))
        elif lb < la:
            labels.fetch_min(a, lb)
            changed.fetch_add(0, i32(1))


class EdgeList:
    def __init__(self, src: np.ndarray, dst: np.ndarray, stream: sk.Stream) -> None:
        self.chunks = [
            (sk.to_device(src[k : k + CHUNK], stream), sk.to_device(dst[k : k + CHUNK], stream))
            for k in range(0, len(src), CHUNK)
        ]

    def __iter__(self):
        return iter(self.chunks)


def components(edges: EdgeList, dev: sk.Device, stream: sk.Stream, max_rounds: int = 50) -> np.ndarray:
    prepared = hook.prepare(simt.LaunchConfig1D.for_len(CHUNK, block=128), dev)
    labels = sk.to_device(np.arange(NODES, dtype=np.int32), stream)
    for rnd in range(max_rounds):
        snapshot = sk.to_device(labels.to_numpy(stream), stream)
        changed = sk.zeros(1, i32, stream)
        for s, d in edges:
            hook.launch(prepared, stream, s, d, snapshot, labels, changed)
        if changed.to_numpy(stream)[0] == 0:
            print(f"stable after {rnd + 1} rounds")
            break
    host = labels.to_numpy(stream)
    while True:  # pointer-jump on the host so every node names its component's root
        nxt = host[host]
        if (nxt == host).all():
            return host
        host = nxt


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(6)
    src = rng.integers(0, NODES, 700).astype(np.int32)
    dst = ((src + rng.integers(1, 40, 700)) % NODES).astype(np.int32)
    comp = components(EdgeList(src, dst, stream), dev, stream)
    sizes = np.bincount(np.unique(comp, return_inverse=True)[1])
    print(f"{len(sizes)} components, largest {sizes.max()} nodes, {int((sizes == 1).sum())} isolated")


if __name__ == "__main__":
    main()
