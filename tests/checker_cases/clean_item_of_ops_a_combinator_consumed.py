"""The clean twin: the second pass reads the frame the zipped op's `sync_on` returned for that pane, not the
consumed op."""

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def tint(glass: Partition[f32], light: Tensor[f32], t: f32) -> None:
    glass.store(tile.load_like(light, glass) * t)


class Window:
    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        self.panes: dict[str, sk.DeviceOp] = {}

    def lead(self, name: str, t: float) -> None:
        glass = tile.zeros((64,), f32).partition((16,))
        self.panes[name] = tint(glass, tile.ones((64,), f32), t)

    def render(self, brightest: str) -> float:
        names = list(self.panes)
        frames = sk.zip(*self.panes.values()).sync_on(self.stream)
        total = sum(float(glass.to_numpy(self.stream).mean()) for glass, _light, _t in frames)
        again = frames[names.index(brightest)]
        return total + float(again[0].to_numpy(self.stream).mean())


def main() -> None:
    window = Window(sk.Device.cpu().new_stream())
    for name, t in (("rose", 0.45), ("tracery", 0.85)):
        window.lead(name, t)
    print(window.render("tracery"))


if __name__ == "__main__":
    main()
