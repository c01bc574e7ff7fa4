"""Twin of `e0382_item_of_a_list_a_loop_appended_a_moved_handle_to`: the loop appends what nothing moves later (each
step writes a new tensor), and a second list keeps host copies, so reading the items afterwards reads live
tensors.  A dict filled in a loop, read-modified-written item by item, and then looped over by key and by
value stays clean too: each item was replaced by the step's result."""

import numpy as np

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
    snapshots: list[np.ndarray] = []
    for i in range(4):
        snapshots.append(state.to_numpy(stream))
        parts, forcing = step(tile.zeros((64,), f32).partition((32,)), forcing).sync_on(stream)
        state = parts.unpartition()
        history.append(state)
    for frame in history:
        print(frame.to_numpy(stream).sum())
    print(len(snapshots))
    fields = {}
    for name in ("u", "v"):
        fields[name] = tile.zeros((64,), f32).sync_on(stream)
    for name in list(fields):
        parts, forcing = step(fields[name].partition((32,)), forcing).sync_on(stream)
        fields[name] = parts.unpartition()
    for name in fields:
        print(name)
    for field in fields.values():
        print(field.to_numpy(stream).sum())
    print(state.to_numpy(stream).sum())


if __name__ == "__main__":
    main()
