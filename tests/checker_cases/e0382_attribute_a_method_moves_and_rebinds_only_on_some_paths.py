"""A method moves `self.ret` into a tile launch every call but stores the returned tensor back only `if training:`.
After an evaluation call the attribute still holds the moved handle, so the next call's `self.ret.partition(...)`
is a use after move: E0382 there (inside the method, where the runtime's UseAfterMoveError is raised), reported
for the call that reaches it."""

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

    def update(self, rewards: np.ndarray, stream: sk.Stream, training: bool) -> np.ndarray:
        chain = accumulate(self.ret.partition((32,)), tile.from_numpy(rewards)).first().unpartition()  # expect: E0382
        returns = chain.sync_on(stream)
        if training:
            self.ret = returns
        return returns.to_numpy(stream)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    tracker = Returns(tile.zeros((64,), f32).sync_on(stream))
    for phase in ("train", "eval", "train"):
        print(tracker.update(np.ones(64, np.float32), stream, training=phase == "train").sum())


if __name__ == "__main__":
    main()
