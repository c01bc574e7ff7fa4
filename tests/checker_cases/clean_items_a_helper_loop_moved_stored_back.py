"""A helper's loop moves each item of the dict it is given into a tile launch and stores the handed-back tensor
under the same key (`planes[name] = plane`), so the dict holds live tensors again and the caller may read them;
a loop over a dict's keys reads no item, and clearing a list drops the items a loop moved."""

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

N = 64


@tile.kernel
def stretch(out: Partition[f32], plane: Tensor[f32]) -> None:
    out.store(tile.load_like(plane, out) * 2.0)


def stretch_all(planes: dict[str, Tensor], stream: sk.Stream) -> dict[str, np.ndarray]:
    results = {}
    for name, plane in planes.items():
        out = tile.zeros((N,), f32).partition((N,))
        out, plane = stretch(out, plane).sync_on(stream)
        results[name] = out.unpartition().to_numpy(stream)
        planes[name] = plane
    return results


def total(planes: dict[str, Tensor], stream: sk.Stream) -> float:
    return sum(float(plane.to_numpy(stream).sum()) for plane in planes.values())


def direct(stream: sk.Stream) -> None:
    planes = {c: tile.from_numpy(np.full(N, k, np.float32)).sync_on(stream) for k, c in enumerate("rgb")}
    stretch_all(planes, stream)
    print(planes["r"].to_numpy(stream))


def in_place(planes: list[Tensor], stream: sk.Stream) -> None:
    for plane in planes:
        out = tile.zeros((N,), f32).partition((N,))
        out, _ = stretch(out, plane).sync_on(stream)
    planes.clear()
    planes.append(tile.zeros((N,), f32).sync_on(stream))
    for plane in planes:
        print(plane.to_numpy(stream))


def backward(planes: list[Tensor], stream: sk.Stream) -> None:
    for plane in reversed(planes):
        print(plane.to_numpy(stream))
    print(planes[0].to_numpy(stream))


def main() -> None:
    device = sk.Device.cpu()
    stream = device.new_stream()
    planes = {c: tile.from_numpy(np.full(N, k, np.float32)).sync_on(stream) for k, c in enumerate("rgb")}
    stretched = stretch_all(planes, stream)
    print(sorted(stretched), [name for name in planes])
    print(total(planes, stream))
    direct(stream)
    in_place([tile.from_numpy(np.ones(N, np.float32)).sync_on(stream) for _ in range(2)], stream)
    backward([tile.from_numpy(np.ones(N, np.float32)).sync_on(stream) for _ in range(2)], stream)


if __name__ == "__main__":
    main()
