# fresh-expect: E0382 at line 62
# fresh-note: Tsunami-buoy network; the shared tide model tensor is moved into the first buoy's de-tiding launch and discarded (`_`), so the next buoy's launch uses a moved value.
"""De-tide bottom-pressure recordings from a buoy network and flag tsunami-like anomalies."""
import numpy as np
import safekernels as sk
from safekernels import tile
from safekernels.tile import Partition, Tensor
from safekernels.dtypes import f32

SAMPLES = 1440          # one day at one sample per minute
TILE = 240
BUOYS = ["DART-21413", "DART-21418", "DART-52402", "DART-46404"]
ALERT_CM = 3.0


@tile.kernel
def detide(anomaly: Partition[f32], pressure: Tensor[f32], tide: Tensor[f32]) -> None:
    p = tile.load_like(pressure, anomaly)
    t = tile.load_like(tide, anomaly)
    anomaly.store(p - t)


@tile.kernel
def running_peak(peak: Partition[f32], anomaly: Tensor[f32]) -> None:
    a = tile.load_like(anomaly, peak)
    peak.store(tile.scan(tile.maximum(a, -a), axis=0, op="max"))


def tide_model(samples: int) -> np.ndarray:
    minutes = np.arange(samples, dtype=np.float32)
    m2 = 60.0 * np.sin(2 * np.pi * minutes / 745.2)
    k1 = 25.0 * np.sin(2 * np.pi * minutes / 1436.0 + 0.4)
    return (m2 + k1).astype(np.float32)


def read_buoy(name: str, tide: np.ndarray) -> np.ndarray:
    rng = np.random.default_rng(sum(map(ord, name)))
    series = tide + rng.normal(0.0, 0.4, size=tide.shape).astype(np.float32)
    if name.endswith("02"):
        arrival = 900
        series[arrival:arrival + 30] += 8.0 * np.hanning(30).astype(np.float32)
    return series.astype(np.float32)


def summarize(name: str, anomaly: np.ndarray, peaks: np.ndarray) -> dict:
    worst = int(np.argmax(np.abs(anomaly)))
    return {
        "buoy": name,
        "max_cm": float(np.abs(anomaly).max()),
        "at_minute": worst,
        "alert": bool(peaks.max() > ALERT_CM),
    }


def process_network(stream: sk.Stream) -> list[dict]:
    tide_np = tide_model(SAMPLES)
    tide = tile.from_numpy(tide_np)
    reports = []
    for name in BUOYS:
        pressure = tile.from_numpy(read_buoy(name, tide_np))
        anomaly = tile.zeros((SAMPLES,), f32).partition((TILE,))
        anomaly, pressure, _ = detide(anomaly, pressure, tide).sync_on(stream)
        anomaly_t = anomaly.unpartition()
        peaks = tile.zeros((SAMPLES,), f32).partition((TILE,))
        peaks, anomaly_t = running_peak(peaks, anomaly_t).sync_on(stream)
        reports.append(summarize(name, anomaly_t.to_numpy(stream), peaks.unpartition().to_numpy(stream)))
    return reports


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    for report in process_network(stream):
        flag = "ALERT" if report["alert"] else "ok"
        print(f"{report['buoy']:>12}: max {report['max_cm']:.2f} cm at minute {report['at_minute']:4d} [{flag}]")


if __name__ == "__main__":
    main()
