# fresh-expect: E0499 at line 92
# fresh-known-false-alarm: cli,mypy E0499 at line 88 too: the controlled-NOT launch passes the same overlapping planes, which the runtime never reaches (it raises at line 92, on the first gate)
# fresh-note: Quantum state-vector simulator with a header slot before two amplitude planes; the imaginary-plane view forgets the header offset at its start, so it overlaps the real plane by one element and a gate writes two overlapping output planes.
from __future__ import annotations
import math
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 64
HEADER = 1  # slot 0 of every state buffer holds the accumulated global phase (host bookkeeping)


@simt.kernel
@simt.launch_contract(block=BLOCK)
def mix(re_in: Slice[f32], im_in: Slice[f32], re_out: DisjointSlice[f32], im_out: DisjointSlice[f32],
        stride: i32, u00: f32, u01: f32, u10: f32, u11: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    j = i + stride if (i // stride) % 2 == 0 else i - stride  # partner amplitude (target bit flipped)
    low = (i // stride) % 2 == 0
    a = u00 if low else u11
    b = u01 if low else u10
    if (r := re_out.get_mut(idx)) is not None:
        r.set(a * re_in[i] + b * re_in[j])
    if (m := im_out.get_mut(thread.index_1d())) is not None:
        m.set(a * im_in[i] + b * im_in[j])


@simt.kernel
@simt.launch_contract(block=BLOCK)
def controlled_not(re_in: Slice[f32], im_in: Slice[f32], re_out: DisjointSlice[f32], im_out: DisjointSlice[f32],
                   control: i32, stride: i32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    j = i
    if (i // control) % 2 == 1:
        j = i + stride if (i // stride) % 2 == 0 else i - stride
    if (r := re_out.get_mut(idx)) is not None:
        r.set(re_in[j])
    if (m := im_out.get_mut(thread.index_1d())) is not None:
        m.set(im_in[j])


@dataclass(frozen=True)
class Gate:
    name: str
    target: int
    control: int = -1


H = 1.0 / math.sqrt(2.0)
MATRICES = {"h": (H, H, H, -H), "x": (0.0, 1.0, 1.0, 0.0), "z": (1.0, 0.0, 0.0, -1.0)}


class Simulator:
    def __init__(self, n_qubits: int, device: sk.Device, stream: sk.Stream) -> None:
        self.dim = 1 << n_qubits
        self.stream = stream
        self.front = self._alloc(ground=True)
        self.back = self._alloc(ground=False)
        cfg = simt.LaunchConfig1D.for_len(self.dim, block=BLOCK)
        self.mix_launch = mix.prepare(cfg, device)
        self.cnot_launch = controlled_not.prepare(cfg, device)
        self.depth = 0

    def _alloc(self, ground: bool) -> sk.DeviceBuffer:
        host = np.zeros(HEADER + 2 * self.dim, np.float32)
        if ground:
            host[HEADER] = 1.0  # |00...0>
        return sk.to_device(host, self.stream)

    def planes(self, buf: sk.DeviceBuffer) -> tuple[sk.DeviceBuffer, sk.DeviceBuffer]:
        re = buf.view(HEADER, HEADER + self.dim)
        im = buf.view(self.dim, HEADER + 2 * self.dim)
        return re, im

    def apply(self, gate: Gate) -> None:
        re_in, im_in = self.planes(self.front)
        re_out, im_out = self.planes(self.back)
        stride = 1 << gate.target
        if gate.name == "cx":
            controlled_not.launch(self.cnot_launch, self.stream, re_in, im_in, re_out, im_out,
                                  1 << gate.control, stride)
        else:
            u00, u01, u10, u11 = MATRICES[gate.name]
            mix.launch(self.mix_launch, self.stream, re_in, im_in, re_out, im_out, stride, u00, u01, u10, u11)
        self.front, self.back = self.back, self.front
        self.depth += 1

    def run(self, circuit: list[Gate]) -> None:
        for gate in circuit:
            self.apply(gate)

    @property
    def probabilities(self) -> np.ndarray:
        host = self.front.to_numpy(self.stream)
        re = host[HEADER:HEADER + self.dim]
        im = host[HEADER + self.dim:HEADER + 2 * self.dim]
        return re * re + im * im


def ghz(n: int) -> list[Gate]:
    return [Gate("h", 0)] + [Gate("cx", q + 1, control=q) for q in range(n - 1)]


def main() -> None:
    device = sk.Device.cpu()
    stream = device.new_stream()
    n = 4
    sim = Simulator(n, device, stream)
    sim.run(ghz(n) + [Gate("z", 2), Gate("x", 1), Gate("x", 1)])
    probs = sim.probabilities
    expected = np.zeros(1 << n)
    expected[0] = expected[-1] = 0.5
    np.testing.assert_allclose(probs, expected, atol=1e-6)
    print(f"GHZ({n}) after {sim.depth} gates: p(0000)={probs[0]:.3f} p(1111)={probs[-1]:.3f}")


if __name__ == "__main__":
    main()
