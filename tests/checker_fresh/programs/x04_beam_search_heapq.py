# fresh-expect: E0382 at line 40
# (fixed: a loop over enumerate(zip(xs, display)) binds each part to the display's item, calls.display_loop_arms)
"""Beam search over candidate score tensors kept in a heap; the best beam is extended each round."""
import heapq

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def extend(out: Partition[f32], beam: Tensor[f32]) -> None:
    t = tile.load_like(beam, out)
    out.store(t * 0.9 + 0.1)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    n = 256
    rng = np.random.default_rng(7)
    hosts = [np.ones(n, dtype=np.float32)] + [rng.random(n, dtype=np.float32) * 0.5 for _ in range(2)]
    beam0 = tile.from_numpy(hosts[0])
    beam1 = tile.from_numpy(hosts[1])
    beam2 = tile.from_numpy(hosts[2])
    heap: list[tuple[float, int, sk.DeviceOp]] = []
    for i, (host, beam) in enumerate(zip(hosts, (beam0, beam1, beam2))):
        heapq.heappush(heap, (-float(host.sum()), i, beam))
    results = []
    for _round in range(2):
        _neg_score, idx, best = heapq.heappop(heap)
        out = tile.zeros((n,), f32).partition((64,))
        out, best = extend(out, best).sync_on(stream)
        results.append(out.unpartition().to_numpy(stream))
    # a final "re-score" of beam 0 for logging: beam 0 may already have been extended (moved) above
    check = tile.zeros((n,), f32).partition((64,))
    check, beam0 = extend(check, beam0).sync_on(stream)
    print(idx, len(results), check.unpartition().to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
