# fresh-expect: E0382 at line 32
# sphere-tracing renderer: one SIMT thread per pixel marches a signed distance field and writes a shaded value
from __future__ import annotations

import math

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, thread

WIDTH, HEIGHT = 48, 32
MAX_STEPS = 48


@simt.device
def scene(x: f32, y: f32, z: f32) -> f32:
    sphere = math.sqrt(x * x + y * y + (z - 3.0) * (z - 3.0)) - 1.0
    floor = y + 1.0
    return min(sphere, floor)


@simt.kernel
@simt.launch_contract(block=(16, 16))
def render(image: DisjointSlice[f32], light_x: f32) -> None:
    idx = thread.index_2d(WIDTH)
    if idx is None:
        return
    if (px := image.get_mut(idx)) is not None:
        i = idx.get()
        u = (f32(i % WIDTH) - WIDTH / 2.0) / HEIGHT
        v = (HEIGHT / 2.0 - f32(i // WIDTH)) / HEIGHT
        norm = math.sqrt(u * u + v * v + 1.0)
        dx, dy, dz = u / norm, v / norm, 1.0 / norm
        t = f32(0.0)
        shade = f32(0.0)
        for _ in range(MAX_STEPS):
            d = scene(t * dx, t * dy, t * dz)
            if d < 0.001:
                hit_x = t * dx
                shade = max(f32(0.1), 1.0 - abs(hit_x - light_x) / 3.0) / (1.0 + 0.1 * t)
                break
            t += d
            if t > 20.0:
                break
        px.set(shade)


def ascii_art(img: np.ndarray) -> str:
    ramp = " .:-=+*#%@"
    rows = []
    for row in img[::2]:
        rows.append("".join(ramp[min(len(ramp) - 1, int(v * (len(ramp) - 1)))] for v in row))
    return "\n".join(rows)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    image = sk.zeros(WIDTH * HEIGHT, f32, stream)
    config = simt.LaunchConfig2D.for_shape(HEIGHT, WIDTH, block=(16, 16))
    prepared = render.prepare(config, dev)
    render.launch(prepared, stream, image, 0.5)
    img = image.to_numpy(stream).reshape(HEIGHT, WIDTH)
    print(ascii_art(img))
    print(f"lit pixels: {(img > 0).mean():.1%}")


if __name__ == "__main__":
    main()
