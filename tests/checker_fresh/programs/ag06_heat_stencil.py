# fresh-expect: E0499 at line 58
# fresh-known-miss: cli,mypy views of one arena cut by a dict comprehension with computed bounds (`arena[k * stride : k * stride + n + 2]`, the stride one short) overlap: items of a comprehension are new values and its slice bounds are not compared
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, u32
from safekernels.simt import DisjointSlice, Slice, thread

CELLS = 1000


@simt.kernel
@simt.launch_contract(block=256, requires=("len(temp) >= n + 2",))
def diffuse(temp: Slice[f32], temp_next: DisjointSlice[f32], flux: DisjointSlice[f32], r: f32, n: u32) -> None:
    t_idx = thread.index_1d()
    i = t_idx.get()
    f_idx = thread.index_1d()
    if i >= 1 and i <= n:
        lap = temp[i - 1] - 2.0 * temp[i] + temp[i + 1]
        if (t := temp_next.get_mut(t_idx)) is not None:
            t.set(temp[i] + r * lap)
        if (f := flux.get_mut(f_idx)) is not None:
            f.set(temp[i] - temp[i + 1])
    elif i == 0 or i == n + 1:
        if (t := temp_next.get_mut(t_idx)) is not None:
            t.set(temp[i])  # fixed-temperature boundary (Dirichlet)
        if (f := flux.get_mut(f_idx)) is not None:
            f.set(0.0)


def carve_fields(arena: sk.DeviceBuffer, n_cells: int, names: list[str]) -> dict[str, sk.DeviceBuffer]:
    """Split a workspace into per-field views, each with one ghost cell on either side."""
    stride = n_cells + 1
    return {name: arena[k * stride : k * stride + n_cells + 2] for k, name in enumerate(names)}


def initial_profile(n_cells: int) -> np.ndarray:
    x = np.linspace(0.0, 1.0, n_cells + 2, dtype=np.float32)
    temp = np.where(np.abs(x - 0.5) < 0.02, 100.0, 20.0).astype(np.float32)
    temp[0], temp[-1] = 20.0, 20.0
    return temp


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    arena = sk.zeros(2 * (CELLS + 2), f32, stream)
    fields = carve_fields(arena, CELLS, ["temp_next", "flux"])
    temp = sk.to_device(initial_profile(CELLS), stream)
    prepared = diffuse.prepare(simt.LaunchConfig1D.for_len(CELLS + 2, block=256), dev)

    r = 0.4  # alpha * dt / dx^2, below the 0.5 stability limit
    history = []
    for step in range(20):
        diffuse.launch(prepared, stream, temp, fields["temp_next"], fields["flux"], r, CELLS)
        temp, fields["temp_next"] = fields["temp_next"], temp
        if step % 5 == 4:
            snapshot = temp.to_numpy(stream)
            history.append((step + 1, float(snapshot.max()), float(snapshot[1:-1].sum())))

    for step, peak, energy in history:
        print(f"step {step:3d}: peak {peak:7.3f} C, interior heat {energy:10.1f}")
    print("max boundary flux:", float(np.abs(fields["flux"].to_numpy(stream)).max()))


if __name__ == "__main__":
    main()
