# fresh-expect: clean
# fresh-note: Reduces a gravity survey held in a NamedTuple: the free-air buffer is partitioned only after its SIMT launch, the elevation buffer moved into the tile launch is replaced in the NamedTuple by the handle sync_on hands back, and the Bouguer tensor is lent to SIMT through as_buffer.
"""Land gravity survey reduction: free-air and simple Bouguer anomalies, then a residual map.

Observed gravity is reduced with the GRS80 normal gravity and the free-air gradient (SIMT),
the Bouguer slab is removed on the device in place over tiles of stations (tile track), and the
regional trend (a plane fitted on the host) is subtracted to leave the residual anomaly.
"""
from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

N = 512
TILE = 128
FREE_AIR = 0.3086          # mGal/m
SLAB = 0.04193             # mGal/m per g/cm3


@simt.kernel
@simt.launch_contract(block=128, requires=("len(g_obs) >= len(fa)", "len(elev) >= len(fa)", "len(lat) >= len(fa)"))
def free_air(g_obs: Slice[f32], elev: Slice[f32], lat: Slice[f32], fa: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := fa.get_mut(idx)) is not None:
        s2 = math.sin(lat[i] * f32(0.017453292))
        s2 = s2 * s2
        gamma = f32(32.7) + f32(978032.7 * 0.0053024) * s2        # normal gravity - 978000 mGal
        o.set(g_obs[i] - gamma + f32(FREE_AIR) * elev[i])


@tile.kernel
def remove_slab(anom: Partition[f32], elev: Tensor[f32], density: f32) -> None:
    anom.store(anom.load() - tile.load_like(elev, anom) * (SLAB * density))


@simt.kernel
@simt.launch_contract(block=128, requires=("len(bouguer) >= len(resid)", "len(trend) >= len(resid)"))
def residual(bouguer: Slice[f32], trend: Slice[f32], resid: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := resid.get_mut(idx)) is not None:
        o.set(bouguer[i] - trend[i])


class Survey(NamedTuple):
    g_obs: sk.DeviceBuffer
    elev: sk.DeviceBuffer
    lat: sk.DeviceBuffer
    east_km: np.ndarray
    north_km: np.ndarray


def load_survey(rng: np.random.Generator, stream: sk.Stream) -> Survey:
    e, n = rng.uniform(0, 30, N), rng.uniform(0, 30, N)
    lat = 46.0 + n / 111.0
    elev = 400 + 12 * e + 150 * np.exp(-((e - 18) ** 2 + (n - 12) ** 2) / 30)
    gamma = 978032.7 * (1 + 0.0053024 * np.sin(np.radians(lat)) ** 2)
    body = -6.0 * np.exp(-((e - 9) ** 2 + (n - 20) ** 2) / 8)          # a low-density basin
    g = gamma - FREE_AIR * elev + SLAB * 2.67 * elev + 0.4 * e - 0.2 * n + body + rng.normal(0, 0.05, N)
    up = lambda a: sk.to_device(np.asarray(a, np.float32), stream)
    return Survey(up(g - 978000.0), up(elev), up(lat), e, n)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    survey = load_survey(np.random.default_rng(1687), stream)
    cfg = simt.LaunchConfig1D.for_len(N, block=128)
    fa = sk.zeros(N, f32, stream)
    free_air.launch(free_air.prepare(cfg, dev), stream, survey.g_obs, survey.elev, survey.lat, fa)
    print(f"free-air anomaly: mean {fa.to_numpy(stream).mean():8.2f} mGal")

    parts, elev_back, _ = remove_slab(fa.partition((TILE,)), survey.elev, 2.67).sync_on(stream)
    survey = survey._replace(elev=elev_back)
    bouguer = parts.unpartition()

    b = bouguer.to_numpy(stream)
    design = np.column_stack([np.ones(N), survey.east_km, survey.north_km])
    coef, *_ = np.linalg.lstsq(design, b, rcond=None)
    trend = sk.to_device((design @ coef).astype(np.float32), stream)
    resid = sk.zeros(N, f32, stream)
    residual.launch(residual.prepare(cfg, dev), stream, sk.as_buffer(bouguer), trend, resid)

    r = resid.to_numpy(stream)
    k = int(np.argmin(r))
    print(f"regional gradient: {coef[1]:.2f} mGal/km east, {coef[2]:.2f} mGal/km north")
    print(f"strongest residual low {r[k]:.2f} mGal at ({survey.east_km[k]:.1f}, {survey.north_km[k]:.1f}) km;"
          f" highest station {survey.elev.to_numpy(stream).max():.0f} m")


if __name__ == "__main__":
    main()
