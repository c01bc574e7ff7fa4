# fresh-expect: clean
# fresh-note: Wastewater aeration control; the deficit launch_async op is synced before the readings buffer is moved into the tile oxygen-uptake launch, so nothing borrowed is moved.
"""Aeration control for activated-sludge basins: DO deficit per probe and oxygen uptake rate."""
import numpy as np
import safekernels as sk
from safekernels import simt, tile
from safekernels.simt import Slice, DisjointSlice, thread
from safekernels.tile import Partition, Tensor
from safekernels.dtypes import f32

PROBES = 512             # DO probes along each basin's aeration grid
TILE = 128
SETPOINT_MG_L = 2.0
INTERVAL_MIN = 5.0
BASINS = ["A1", "A2", "B1", "B2"]


@simt.kernel
@simt.launch_contract(block=128)
def do_deficit(do: Slice[f32], deficit: DisjointSlice[f32], setpoint: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := deficit.get_mut(idx)) is not None:
        o.set(max(setpoint - do[i], 0.0))


@tile.kernel
def oxygen_uptake(our: Partition[f32], do_now: Tensor[f32], do_prev: Tensor[f32]) -> None:
    drop = tile.load_like(do_prev, our) - tile.load_like(do_now, our)
    our.store(tile.maximum(drop, 0.0) * (60.0 / INTERVAL_MIN))


def probe_readings(basin: str, step: int) -> np.ndarray:
    rng = np.random.default_rng(100 * BASINS.index(basin) + step + 1)
    load = 1.0 + 0.4 * BASINS.index(basin) + 0.1 * step
    grid = np.linspace(2.6, 2.6 - 0.8 * load, PROBES)
    return np.clip(grid + rng.normal(0, 0.05, PROBES), 0.0, None).astype(np.float32)


def blower_command(deficit: np.ndarray, our: np.ndarray) -> float:
    """Airflow set-point in % of blower capacity."""
    return float(np.clip(35.0 + 30.0 * deficit.mean() + 2.0 * our.mean(), 20.0, 100.0))


def control_step(step: int, last: dict[str, np.ndarray], dev: sk.Device, stream: sk.Stream) -> dict[str, float]:
    deficit_launch = do_deficit.prepare(simt.LaunchConfig1D.for_len(PROBES, block=128), dev)
    commands = {}
    for basin in BASINS:
        readings = sk.to_device(probe_readings(basin, step), stream)
        deficit = sk.zeros(PROBES, f32, stream)
        pending = do_deficit.launch_async(deficit_launch, readings, deficit, SETPOINT_MG_L)
        previous = tile.from_numpy(last.get(basin, probe_readings(basin, step - 1)))
        our = tile.zeros((PROBES,), f32).partition((TILE,))
        pending.sync_on(stream)
        our, readings, _ = oxygen_uptake(our, readings, previous).sync_on(stream)
        last[basin] = readings.to_numpy(stream)
        commands[basin] = blower_command(deficit.to_numpy(stream), our.unpartition().to_numpy(stream))
    return commands


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    last: dict[str, np.ndarray] = {}
    for step in range(3):
        commands = control_step(step, last, dev, stream)
        line = "  ".join(f"{b}={c:5.1f}%" for b, c in commands.items())
        print(f"t+{step * INTERVAL_MIN:4.0f} min  {line}")


if __name__ == "__main__":
    main()
