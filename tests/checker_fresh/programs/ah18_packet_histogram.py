# fresh-expect: clean
# fresh-note: a network monitor carves one packed counter buffer into per-statistic slices with a loop that advances its carried offset by each section's size, and an autotuned atomic kernel fills the disjoint views.
"""Traffic statistics for a capture of network packets: per-port counts, per-size-class counts and
per-protocol byte totals, with atomics on the SIMT track.

All counters share one packed device buffer and are handed to the kernel as named slices.  The block size
of the counting kernel is autotuned.  Results are checked against numpy.
"""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import i32, u32
from safekernels.simt import AtomicSlice, Slice, thread

PORT_BUCKETS = 64
SIZE_CLASSES = 16
PROTOCOLS = 4


@simt.autotune(configs=[128, 256], key=["ports"], warmup=1, rep=2,
               grid=lambda *args, block: simt.LaunchConfig1D.for_len(len(args[0]), block=block))
@simt.kernel
@simt.launch_contract(domain=1)
def tally(ports: Slice[i32], sizes: Slice[i32], protos: Slice[i32], by_port: AtomicSlice[u32],
          by_size: AtomicSlice[u32], bytes_by_proto: AtomicSlice[u32]) -> None:
    i = thread.index_1d().get()
    if i < len(ports):
        by_port.fetch_add(ports[i] % PORT_BUCKETS, u32(1))
        by_size.fetch_add(min(sizes[i] // 100, SIZE_CLASSES - 1), u32(1))
        bytes_by_proto.fetch_add(protos[i], u32(sizes[i]))


def layout() -> dict[str, int]:
    return {"by_port": PORT_BUCKETS, "by_size": SIZE_CLASSES, "bytes_by_proto": PROTOCOLS}


def carve(packed: sk.DeviceBuffer, sections: dict[str, int]) -> dict[str, sk.DeviceBuffer]:
    views: dict[str, sk.DeviceBuffer] = {}
    offset = 0
    for name, size in sections.items():
        views[name] = packed[offset : offset + size]
        offset += size
    return views


def synthetic_capture(n: int, seed: int = 5) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    ports = rng.choice([22, 53, 80, 443, 8080, 5353], n, p=[0.05, 0.15, 0.2, 0.5, 0.05, 0.05]).astype(np.int32)
    sizes = np.clip(rng.lognormal(6.0, 0.8, n), 40, 1500).astype(np.int32)
    protos = rng.integers(0, PROTOCOLS, n).astype(np.int32)
    return ports, sizes, protos


def main() -> None:
    device = sk.Device.default()
    stream = device.new_stream()
    ports_h, sizes_h, protos_h = synthetic_capture(3_000)
    sections = layout()
    packed = sk.zeros(sum(sections.values()), u32, stream)
    views = carve(packed, sections)
    ports, sizes, protos = (sk.to_device(a, stream) for a in (ports_h, sizes_h, protos_h))
    tally.launch(stream, ports, sizes, protos, views["by_port"], views["by_size"], views["bytes_by_proto"])
    expected = {
        "by_port": np.bincount(ports_h % PORT_BUCKETS, minlength=PORT_BUCKETS),
        "by_size": np.bincount(np.minimum(sizes_h // 100, SIZE_CLASSES - 1), minlength=SIZE_CLASSES),
        "bytes_by_proto": np.bincount(protos_h, weights=sizes_h, minlength=PROTOCOLS),
    }
    for name, view in views.items():
        np.testing.assert_array_equal(view.to_numpy(stream), expected[name].astype(np.uint32))
    total = packed.to_numpy(stream)[-PROTOCOLS:]
    print(f"{len(ports_h)} packets, {int(total.sum())} bytes; busiest port bucket "
          f"{int(np.argmax(views['by_port'].to_numpy(stream)))}")


if __name__ == "__main__":
    main()
