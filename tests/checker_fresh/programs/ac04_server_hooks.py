# fresh-expect: E0502 at line 58
"""A toy inference server step: score a batch of feature vectors, then run the registered hooks.


The scoring kernel is launched asynchronously so the host can prepare the response while the
device works; hooks registered with `@hook(...)` post-process the scores.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BATCH = 256
HOOKS: dict[str, Callable[..., None]] = {}


def hook(name: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    def register(fn: Callable[..., None]) -> Callable[..., None]:
        HOOKS[name] = fn
        return fn

    return register


@simt.kernel
@simt.launch_contract(block=128)
def score(feat: Slice[f32], weight: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(feat[i] * weight[i] + 0.1)


@simt.kernel
@simt.launch_contract(block=128)
def clamp01(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(min(max(src[i], 0.0), 1.0))


@hook("log")
def log_request(ctx: dict) -> None:
    print(f"request {ctx['request_id']}: batch of {ctx['batch']}")


@hook("calibrate")
def calibrate(ctx: dict) -> None:
    prep = ctx["launches"]["clamp"]
    clamp01.launch(prep, ctx["stream"], ctx["scores"], ctx["calibrated"])


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    cfg = simt.LaunchConfig1D.for_len(BATCH, block=128)
    launches = {"score": score.prepare(cfg, dev), "clamp": clamp01.prepare(cfg, dev)}
    rng = np.random.default_rng(3)
    feat = sk.to_device(rng.random(BATCH, dtype=np.float32), stream)
    weight = sk.to_device(rng.random(BATCH, dtype=np.float32), stream)
    scores = sk.zeros(BATCH, f32, stream)
    calibrated = sk.zeros(BATCH, f32, stream)
    pending = score.launch_async(launches["score"], feat, weight, scores)
    ctx = {"request_id": 17, "batch": BATCH, "stream": stream, "launches": launches,
           "scores": scores, "calibrated": calibrated}
    for name, fn in HOOKS.items():
        fn(ctx)
    pending.sync_on(stream)
    print("top score:", float(calibrated.to_numpy(stream).max()))


if __name__ == "__main__":
    main()
