"""The clean twin of `e0502_simple_namespace_fields`: each `types.SimpleNamespace` holds two different buffers
under its two keywords (also one a helper returns, with a default argument choosing between two new buffers, and
one whose fields a helper launches with), so a launch reading `ns.src` and writing `ns.dst` borrows two values; a
field stored later (`ns.dst = out`) is an ordinary attribute store."""

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
    return SimpleNamespace(features=feats, workspace=sk.zeros(rows.size, f32, stream), rows=rows.size)


def make_workspace(frame: sk.DeviceBuffer, stream: sk.Stream, small: bool = True) -> SimpleNamespace:
    dst = sk.zeros(len(frame), f32, stream) if small else sk.zeros(2 * len(frame), f32, stream)
    return SimpleNamespace(src=frame, dst=dst, exposure=1.5)


def run_workspace(prep: simt.PreparedLaunch, stream: sk.Stream, ws: SimpleNamespace) -> None:
    standardise.launch(prep, stream, ws.src, ws.dst, 1.0)


def direct(prep: simt.PreparedLaunch, stream: sk.Stream) -> None:
    buf = sk.to_device(np.ones(512, np.float32), stream)
    ns = SimpleNamespace(src=buf, dst=sk.zeros(512, f32, stream))
    standardise.launch(prep, stream, ns.src, ns.dst, 1.0)
    print(ns.dst.to_numpy(stream)[:3])


def qualified(prep: simt.PreparedLaunch, stream: sk.Stream) -> None:
    buf = sk.to_device(np.ones(512, np.float32), stream)
    out = sk.zeros(512, f32, stream)
    ns = types.SimpleNamespace(src=buf, dst=buf)
    ns.dst = out
    standardise.launch(prep, stream, ns.src, ns.dst, 1.0)
    print(out.to_numpy(stream)[:3])


def aliased(prep: simt.PreparedLaunch, stream: sk.Stream) -> None:
    buf = sk.to_device(np.ones(512, np.float32), stream)
    rec = Record(src=buf, dst=sk.zeros(512, f32, stream))
    standardise.launch(prep, stream, rec.src, rec.dst, 1.0)
    print(rec.dst.to_numpy(stream)[:3])


def via_helper(prep: simt.PreparedLaunch, stream: sk.Stream) -> None:
    batch = make_batch(np.ones(512, np.float32), stream)
    standardise.launch(prep, stream, batch.features, batch.workspace, 1.0)
    print(batch.workspace.to_numpy(stream)[:3])


def default_small(prep: simt.PreparedLaunch, stream: sk.Stream) -> None:
    frame = sk.to_device(np.ones(512, np.float32), stream)
    ws = make_workspace(frame, stream)
    standardise.launch(prep, stream, ws.src, ws.dst, 1.0)
    print(ws.dst.to_numpy(stream)[:3])


def passed_on(prep: simt.PreparedLaunch, stream: sk.Stream) -> None:
    buf = sk.to_device(np.ones(512, np.float32), stream)
    ws = SimpleNamespace(src=buf, dst=sk.zeros(512, f32, stream))
    run_workspace(prep, stream, ws)
    print(ws.dst.to_numpy(stream)[:3])


if __name__ == "__main__":
    dev = sk.Device.cpu()
    s = dev.new_stream()
    p = standardise.prepare(simt.LaunchConfig1D.for_len(512, block=128), dev)
    direct(p, s)
    qualified(p, s)
    aliased(p, s)
    via_helper(p, s)
    default_small(p, s)
    passed_on(p, s)
