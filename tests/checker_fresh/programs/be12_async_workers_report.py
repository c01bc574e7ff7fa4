# fresh-expect: W0003 at line 50
# fresh-note: Asyncio episode workers accumulate per-env returns with a tile kernel and summarise each finished episode on the device; the report coroutine builds the summary launch before checking the worker's verbosity, so quiet workers return early and drop the lazy op without ever running it.
"""Several asyncio workers, each stepping its own batch of noisy bandit environments; at the end of an
episode a tile kernel reduces the batch's returns and lengths to two numbers for the learner's log."""
import asyncio

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32, i32
from safekernels.tile import Partition, Tensor

ENVS = 16


@tile.kernel
def step_returns(ret: Partition[f32], length: Partition[f32], r: Tensor[f32], alive: Tensor[f32]) -> None:
    a = tile.load_like(alive, ret)
    ret.store(ret.load() + a * tile.load_like(r, ret))
    length.store(length.load() + a)


@tile.kernel
def summarize(out: Partition[f32], ret: Tensor[f32], length: Tensor[f32]) -> None:
    mean_ret = tile.sum(ret.load((0,), (ENVS,))) / ENVS
    mean_len = tile.sum(length.load((0,), (ENVS,))) / ENVS
    out.store(tile.where(tile.iota(2, i32) == 0, mean_ret, mean_len))


class Worker:
    def __init__(self, wid: int, stream: sk.Stream, verbose: bool) -> None:
        self.wid, self.stream, self.verbose = wid, stream, verbose
        self.rng = np.random.default_rng(100 + wid)
        self.means = self.rng.normal(0.0, 1.0, ENVS).astype(np.float32)

    async def run_episode(self, steps: int) -> np.ndarray | None:
        ret = tile.zeros((ENVS,), f32).partition((ENVS,)).sync_on(self.stream)
        length = tile.zeros((ENVS,), f32).partition((ENVS,)).sync_on(self.stream)
        alive = np.ones(ENVS, np.float32)
        for _ in range(steps):
            reward = self.means + self.rng.normal(0.0, 0.3, ENVS).astype(np.float32)
            op = step_returns(ret, length, tile.from_numpy(reward), tile.from_numpy(alive.copy()))
            ret, length, _r, _a = op.sync_on(self.stream)
            alive *= self.rng.random(ENVS) > 0.15
            await asyncio.sleep(0)
        return await self.report(ret.unpartition(), length.unpartition())

    async def report(self, ret: Tensor[f32], length: Tensor[f32]) -> np.ndarray | None:
        op = summarize(tile.zeros((2,), f32).partition((2,)), ret, length).then(lambda outs: outs[0])
        if not self.verbose:
            return None
        await asyncio.sleep(0)
        summary = op.sync_on(self.stream)
        return summary.unpartition().to_numpy(self.stream)


async def collect(workers: list[Worker], episodes: int) -> list[np.ndarray]:
    logs = []
    for _ in range(episodes):
        results = await asyncio.gather(*(w.run_episode(8) for w in workers))
        logs.extend(r for r in results if r is not None)
    return logs


def main() -> None:
    device = sk.Device.default()
    stream = device.new_stream()
    workers = [Worker(i, stream, verbose=(i % 2 == 0)) for i in range(3)]
    logs = asyncio.run(collect(workers, 2))
    for entry in logs:
        print(f"mean return {entry[0]:+.3f} over mean length {entry[1]:.2f}")


if __name__ == "__main__":
    main()
