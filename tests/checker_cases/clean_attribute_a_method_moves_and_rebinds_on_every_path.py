"""Twin of `e0382_attribute_a_method_moves_and_rebinds_only_on_some_paths`: the method stores the returned tensor
back on every path (an evaluation call keeps the statistics by other means), so each call partitions a live
attribute.  A method that moves and rebinds an attribute only under one condition, or in a loop that may run
no iteration, leaves it live on every path too."""

from dataclasses import dataclass
from typing import Any

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def accumulate(ret: Partition[f32], rew: Tensor[f32]) -> None:
    ret.store(ret.load() * 0.9 + tile.load_like(rew, ret))


@dataclass
class Returns:
    ret: Any
    updates: int = 0

    def update(self, rewards: np.ndarray, stream: sk.Stream, training: bool) -> np.ndarray:
        chain = accumulate(self.ret.partition((32,)), tile.from_numpy(rewards)).first().unpartition()
        returns = chain.sync_on(stream)
        self.ret = returns
        if training:
            self.updates += 1
        return returns.to_numpy(stream)

    def refresh(self, rewards: np.ndarray, stream: sk.Stream, training: bool) -> None:
        if training:
            self.ret = accumulate(self.ret.partition((32,)), tile.from_numpy(rewards)).first().unpartition().sync_on(
                stream
            )

    def replay(self, batches: list[np.ndarray], stream: sk.Stream) -> None:
        for rewards in batches:
            parts, _rew = accumulate(self.ret.partition((32,)), tile.from_numpy(rewards)).sync_on(stream)
            self.ret = parts.unpartition()


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    tracker = Returns(tile.zeros((64,), f32).sync_on(stream))
    for phase in ("train", "eval", "train"):
        print(tracker.update(np.ones(64, np.float32), stream, training=phase == "train").sum())
        tracker.refresh(np.ones(64, np.float32), stream, training=phase == "train")
        tracker.replay([], stream)
        tracker.replay([np.ones(64, np.float32)], stream)
    print(tracker.ret.to_numpy(stream).sum(), tracker.updates)


if __name__ == "__main__":
    main()
