"""A `types.SimpleNamespace` built with one buffer under two keywords (`SimpleNamespace(src=buf, dst=buf)`) has
two fields that are one buffer, as a dataclass of the module would: a launch reading `ns.src` and writing `ns.dst`
conflicts.  Also the namespace a helper returns (one with a default argument choosing `dst = frame if inplace else
...`: either object), `types.SimpleNamespace` and an alias of the name, and a namespace whose fields a helper
launches with (reported at the call, whose argument makes the conflict)."""

import types
from types import SimpleNamespace
from types import SimpleNamespace as Record

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def standardise(x: Slice[f32], out: DisjointSlice[f32], mean: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(x[i] - mean)


def make_batch(rows: np.ndarray, stream: sk.Stream) -> SimpleNamespace:
    feats = sk.to_device(rows, stream)
    return SimpleNamespace(features=feats, workspace=feats, rows=rows.size)


def make_workspace(frame: sk.DeviceBuffer, stream: sk.Stream, inplace: bool = True) -> SimpleNamespace:
    dst = frame if inplace else sk.zeros(len(frame), f32, stream)
    return SimpleNamespace(src=frame, dst=dst, exposure=1.5)


def run_workspace(prep: simt.PreparedLaunch, stream: sk.Stream, ws: SimpleNamespace) -> None:
    standardise.launch(prep, stream, ws.src, ws.dst, 1.0)  # expect: E0502


def direct(prep: simt.PreparedLaunch, stream: sk.Stream) -> None:
    buf = sk.to_device(np.ones(512, np.float32), stream)
    ns = SimpleNamespace(src=buf, dst=buf)
    standardise.launch(prep, stream, ns.src, ns.dst, 1.0)  # expect: E0502


def qualified(prep: simt.PreparedLaunch, stream: sk.Stream) -> None:
    buf = sk.to_device(np.ones(512, np.float32), stream)
    ns = types.SimpleNamespace(src=buf, dst=buf)
    standardise.launch(prep, stream, ns.src, ns.dst, 1.0)  # expect: E0502


def aliased(prep: simt.PreparedLaunch, stream: sk.Stream) -> None:
    buf = sk.to_device(np.ones(512, np.float32), stream)
    rec = Record(src=buf, dst=buf)
    standardise.launch(prep, stream, rec.src, rec.dst, 1.0)  # expect: E0502


def via_helper(prep: simt.PreparedLaunch, stream: sk.Stream) -> None:
    batch = make_batch(np.ones(512, np.float32), stream)
    standardise.launch(prep, stream, batch.features, batch.workspace, 1.0)  # expect: E0502


def default_inplace(prep: simt.PreparedLaunch, stream: sk.Stream) -> None:
    frame = sk.to_device(np.ones(512, np.float32), stream)
    ws = make_workspace(frame, stream)
    standardise.launch(prep, stream, ws.src, ws.dst, 1.0)  # expect: E0502


def passed_on(prep: simt.PreparedLaunch, stream: sk.Stream) -> None:
    buf = sk.to_device(np.ones(512, np.float32), stream)
    ws = SimpleNamespace(src=buf, dst=buf)
    run_workspace(prep, stream, ws)


if __name__ == "__main__":
    dev = sk.Device.cpu()
    s = dev.new_stream()
    direct(standardise.prepare(simt.LaunchConfig1D.for_len(512, block=128), dev), s)
