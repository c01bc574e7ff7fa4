"""A loop appends the live tensor to a history list (`history.append(state)`) and then moves it into the next
step's launch (`state.partition(...)`), binding `state` to the result.  The list still holds the moved handles,
so reading its items afterwards (`for frame in history`, a comprehension over it) uses moved values: E0382 at
the first read, as the runtime's UseAfterMoveError."""

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def step(out: Partition[f32], src: Tensor[f32]) -> None:
    out.store(tile.load_like(src, out) * 0.5 + 1.0)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    state = tile.zeros((64,), f32).sync_on(stream)
    forcing = tile.zeros((64,), f32).sync_on(stream)
    history = []
    for i in range(4):
        history.append(state)
        parts, forcing = step(state.partition((32,)), forcing).sync_on(stream)
        state = parts.unpartition()
    for frame in history:
        print(frame.to_numpy(stream).sum())  # expect: E0382


if __name__ == "__main__":
    main()
