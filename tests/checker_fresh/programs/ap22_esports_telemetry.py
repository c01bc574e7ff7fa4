# fresh-expect: clean
# fresh-note: Esports match telemetry; the two per-player output buffers are allocated separately, so the stats launch writes two distinct buffers.
"""Per-round movement stats for every player of a tactical-shooter match, from 64-tick position logs."""
import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.simt import Slice, DisjointSlice, thread
from safekernels.dtypes import f32, u32

TICK_RATE = 64
PLAYERS = 10
ROUNDS = 6
ROUND_TICKS = 640        # 10 s of each round's buy-phase-free action


@simt.kernel
@simt.launch_contract(block=32)
def speed_stats(xs: Slice[f32], ys: Slice[f32], mean_speed: DisjointSlice[f32],
                peak_speed: DisjointSlice[f32], ticks: u32) -> None:
    idx = thread.index_1d()
    p = idx.get()
    players = len(mean_speed)
    total = f32(0.0)
    peak = f32(0.0)
    if p < players:
        for t in range(1, ticks):
            dx = xs[t * players + p] - xs[(t - 1) * players + p]
            dy = ys[t * players + p] - ys[(t - 1) * players + p]
            v = (dx * dx + dy * dy) ** 0.5 * TICK_RATE
            total += v
            peak = max(peak, v)
    if (m := mean_speed.get_mut(idx)) is not None:
        m.set(total / (ticks - 1))
    j = thread.index_1d()
    if (k := peak_speed.get_mut(j)) is not None:
        k.set(peak)


def load_round(round_no: int) -> tuple[np.ndarray, np.ndarray]:
    """Positions in game units, tick-major: [tick * PLAYERS + player]."""
    rng = np.random.default_rng(round_no)
    heading = rng.uniform(0, 2 * np.pi, PLAYERS)
    speed = rng.uniform(120, 250, PLAYERS) / TICK_RATE
    turns = np.cumsum(rng.normal(0, 0.05, (ROUND_TICKS, PLAYERS)), axis=0) + heading
    stop = rng.random((ROUND_TICKS, PLAYERS)) < 0.2             # holding an angle
    step = speed * (~stop)
    xs = np.cumsum(step * np.cos(turns), axis=0)
    ys = np.cumsum(step * np.sin(turns), axis=0)
    return xs.astype(np.float32).ravel(), ys.astype(np.float32).ravel()


def round_stats(round_no: int, prepared, stream: sk.Stream) -> tuple[np.ndarray, np.ndarray]:
    xs_np, ys_np = load_round(round_no)
    xs = sk.to_device(xs_np, stream)
    ys = sk.to_device(ys_np, stream)
    mean_speed = sk.zeros(PLAYERS, f32, stream)
    peak_speed = sk.zeros(PLAYERS, f32, stream)
    speed_stats.launch(prepared, stream, xs, ys, mean_speed, peak_speed, ROUND_TICKS)
    return mean_speed.to_numpy(stream), peak_speed.to_numpy(stream)


def leaderboard(means: np.ndarray, peaks: np.ndarray, names: list[str]) -> list[str]:
    order = np.argsort(-means.mean(axis=0))
    return [f"{names[i]:>8}: avg {means[:, i].mean():6.1f} u/s, top {peaks[:, i].max():6.1f} u/s" for i in order]


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prepared = speed_stats.prepare(simt.LaunchConfig1D.for_len(PLAYERS, block=32), dev)
    names = [f"{team}{k}" for team in ("ct_", "t_") for k in range(PLAYERS // 2)]
    means, peaks = [], []
    for round_no in range(ROUNDS):
        mean_speed, peak_speed = round_stats(round_no, prepared, stream)
        means.append(mean_speed)
        peaks.append(peak_speed)
    for line in leaderboard(np.stack(means), np.stack(peaks), names)[:5]:
        print(line)


if __name__ == "__main__":
    main()
