"""The error twin of `clean_method_runs_pending_op_before_launch`: a method that writes `self.u` runs between
the method that starts the op reading it and the one that runs the op (E0502 at its call, as the runtime's
`AliasingError` says), while the later method's own launch, after it runs the op, still conflicts with nothing."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 64


@simt.kernel
@simt.launch_contract(block=64, requires=("len(x) >= len(out)",))
def scale(x: Slice[f32], out: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (slot := out.get_mut(idx)) is not None:
        slot.set(x[i] * alpha)


class Stepper:
    def __init__(self, dev: sk.Device) -> None:
        self.stream = dev.new_stream()
        self.u = sk.to_device(np.ones(N, np.float32), self.stream)
        self.f = sk.zeros(N, f32, self.stream)
        self.mask = sk.to_device(np.ones(N, np.float32), self.stream)
        self.prep = scale.prepare(simt.LaunchConfig1D.for_len(N, block=64), dev)
        self.pending: sk.DeviceOp | None = None

    def begin(self) -> None:
        self.pending = scale.launch_async(self.prep, self.u, self.f, 2.0)

    def finish(self) -> None:
        if self.pending is not None:
            self.pending.sync_on(self.stream)
            self.pending = None
        scale.launch(self.prep, self.stream, self.f, self.u, 0.5)

    def clamp(self) -> None:
        scale.launch(self.prep, self.stream, self.mask, self.u, 1.0)  # expect: E0502


def main() -> None:
    stepper = Stepper(sk.Device.cpu())
    for _ in range(3):
        stepper.begin()
        stepper.clamp()
        stepper.finish()
    print(stepper.u.to_numpy(stepper.stream)[:2])


if __name__ == "__main__":
    main()
