# fresh-expect: clean
# fresh-note: Dose-response screening: each plate's Emax SIMT kernel is launched asynchronously, all plates are synced with one `sk.zip(...)` and only then is each response buffer moved into a tile kernel that counts responders (clean twin of the pharmacokinetics program).
"""Dose-response screening: Emax-model responses of cell lines to a dilution series of a compound.

Every plate is launched asynchronously on the SIMT track; all plates are synchronised together with one
`sk.zip`, and only then does a tile kernel count the wells that reach half-maximal response.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

TILE = 96


@simt.kernel
@simt.launch_contract(block=96)
def emax(conc: Slice[f32], ec50: Slice[f32], response: DisjointSlice[f32], e_max: f32, hill: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (r := response.get_mut(idx)) is not None:
        c = conc[i] ** hill
        r.set(e_max * c / (ec50[i] ** hill + c))


@tile.kernel
def responders(hits: Partition[f32], response: Tensor[f32], threshold: f32) -> None:
    hits.store(tile.where(tile.load_like(response, hits) >= threshold, 1.0, 0.0))


@dataclass
class Plate:
    barcode: str
    cell_line: str
    wells: int
    ec50_um: float


def plates() -> Iterator[Plate]:
    lines = {"HeLa": 0.8, "MCF7": 2.5, "A549": 6.0}
    for k, (line, ec50) in enumerate(lines.items()):
        yield Plate(f"P{1000 + k}", line, 384, ec50)


def dilution_series(wells: int) -> np.ndarray:
    return (30.0 / 3.0 ** (np.arange(wells) % 12)).astype(np.float32)  # 12-point threefold dilution


def screen(device: sk.Device, e_max: float = 100.0, hill: float = 1.2) -> dict[str, float]:
    stream = device.new_stream()
    rng = np.random.default_rng(99)
    launches: dict[str, sk.DeviceOp] = {}
    outputs: dict[str, sk.DeviceBuffer] = {}
    for plate in plates():
        conc = sk.to_device(dilution_series(plate.wells), stream)
        ec50 = sk.to_device(rng.lognormal(np.log(plate.ec50_um), 0.2, plate.wells).astype(np.float32), stream)
        out = sk.zeros(plate.wells, f32, stream)
        prepared = emax.prepare(simt.LaunchConfig1D.for_len(plate.wells, block=96), device)
        launches[plate.cell_line] = emax.launch_async(prepared, conc, ec50, out, e_max, hill)
        outputs[plate.cell_line] = out
    sk.zip(*launches.values()).sync_on(stream)  # every plate has finished writing its responses
    hit_rates = {}
    for line, response in outputs.items():
        hits = tile.zeros((len(response),), f32).partition((TILE,))
        hits, _response, _ = responders(hits, response, 0.5 * e_max).sync_on(stream)
        hit_rates[line] = float(hits.unpartition().to_numpy(stream).mean())
    return hit_rates


def main() -> None:
    rates = screen(sk.Device.cpu())
    for line, rate in sorted(rates.items(), key=lambda kv: -kv[1]):
        print(f"{line:<5} {rate:6.1%} of wells at or above half-maximal response")


if __name__ == "__main__":
    main()
