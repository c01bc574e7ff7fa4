"""Benchmark candidate launches with `do_bench` and pick the fastest; the key a result is stored under.

Shared by both tracks.  The candidates are zero-argument callables that each launch one configuration on the
same arguments (launches hand their arguments back, so the same values serve every run); the outputs'
contents are saved before and restored after, so tuning leaves no trace in them.  A configuration that fails
to compile or launch (too much shared memory, a shape its tiles cannot take, ...) is reported and skipped; a
kernel fault (the CUDA context is lost) ends tuning at once.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from safekernels.autotune.store import TuningStore
from safekernels.errors import KernelTrapError
from safekernels.runtime.buffer import DeviceBuffer
from safekernels.runtime.device import Device, Stream
from safekernels.testing import do_bench

FORMAT = 1


@dataclass
class TuneStats:
    """How each call found its configuration (for tests and curious users: `kernel.tune_stats`)."""

    memory_hits: int = 0
    disk_hits: int = 0
    tunings: int = 0


def source_fingerprint(fn: Any) -> str:
    """Everything the compiled kernel depends on in Python: its source, the source of every `@simt.device` /
    `@tile.function` helper it reaches (transitively, through helpers calling helpers), closure values and the
    module constants its code names.  The compiled-kernel cache key reads the same parts, so a change that
    would recompile the kernel also invalidates its stored tuning result."""
    from safekernels.codegen.cache import source_key_parts

    return "\n".join(source_key_parts(fn))


def device_identity(device: Device) -> dict[str, Any]:
    """What about the device can change the winner: the CPU executor, or the GPU model, arch and compiler."""
    if device.is_cpu:
        return {"device": "cpu-executor"}
    from safekernels.codegen.tile.pipeline import compiler_hash

    return {"device": device.name, "arch": device.arch, "compiler": compiler_hash()}


def tuning_key(kind: str, fn: Any, configs_text: str, key_values: Any, device: Device) -> str:
    from safekernels import __version__

    spec = {
        "format": FORMAT,
        "kind": kind,
        "kernel": getattr(fn, "__qualname__", repr(fn)),
        "configs": configs_text,
        "key": repr(key_values),
        "version": __version__,
        **device_identity(device),
    }
    h = hashlib.sha256(json.dumps(spec, sort_keys=True).encode())
    h.update(source_fingerprint(fn).encode())
    return h.hexdigest()


def _say(verbose: bool, message: str) -> None:
    if verbose:
        print(f"safekernels autotune: {message}", file=sys.stderr, flush=True)


def snapshot(buffers: Sequence[DeviceBuffer[Any]], stream: Stream) -> list[tuple[DeviceBuffer[Any], Any]]:
    """Device copies of `buffers` (restored by `restore`)."""
    saved = []
    for buffer in buffers:
        backend = buffer.device.backend
        copy = backend.allocate(buffer.nbytes)
        backend.copy_device(copy.ptr, buffer.ptr, buffer.nbytes, stream.handle)
        saved.append((buffer, copy))
    return saved


def restore(saved: Sequence[tuple[DeviceBuffer[Any], Any]], stream: Stream) -> None:
    for buffer, copy in saved:
        buffer.device.backend.copy_device(buffer.ptr, copy.ptr, buffer.nbytes, stream.handle)


def pick_fastest(
    label: str,
    descriptions: Sequence[str],
    candidates: Sequence[Callable[[], object]],
    stream: Stream,
    *,
    warmup: float,
    rep: float,
    verbose: bool,
) -> tuple[int, list[float | None]]:
    """Time each candidate (median ms of `do_bench`); the fastest index and every timing (None: it failed)."""
    timings: list[float | None] = []
    first_error: Exception | None = None
    total = len(candidates)
    for i, (text, run) in enumerate(zip(descriptions, candidates, strict=True)):
        try:
            ms = do_bench(run, warmup=warmup, rep=rep, return_mode="median", stream=stream)
        except KernelTrapError:
            raise
        except Exception as exc:  # this configuration cannot run here: skip it, keep tuning
            first_error = first_error or exc
            timings.append(None)
            _say(verbose, f"{label}: config {i + 1}/{total} ({text}) failed: {type(exc).__name__}: {exc}")
            continue
        assert isinstance(ms, float)
        timings.append(ms)
        _say(verbose, f"{label}: config {i + 1}/{total} ({text}): {ms:.4f} ms")
    measured = [(t, i) for i, t in enumerate(timings) if t is not None]
    if not measured:
        assert first_error is not None
        raise first_error
    best = min(measured)[1]
    _say(verbose, f"{label}: best is config {best + 1}/{total} ({descriptions[best]})")
    return best, timings


def pick_fastest_restoring(
    label: str,
    descriptions: Sequence[str],
    candidates: Sequence[Callable[[], object]],
    outputs: Sequence[DeviceBuffer[Any]],
    stream: Stream,
    *,
    warmup: float,
    rep: float,
    verbose: bool,
) -> tuple[int, list[float | None]]:
    """`pick_fastest` with the kernel's outputs saved before and restored after, whatever happens: tuning leaves
    no trace in them (so no `reset_to_zero`), the one tuning step SIMT and tile autotuners share."""
    saved = snapshot(outputs, stream)
    try:
        return pick_fastest(label, descriptions, candidates, stream, warmup=warmup, rep=rep, verbose=verbose)
    finally:
        restore(saved, stream)


@dataclass(frozen=True)
class TuningSpace:
    """What a tuned kernel offers the chooser: the track and function its stored results are keyed by, how each
    configuration reads in messages, and how it is recorded on disk (`record_field`: one JSON value each)."""

    track: str
    name: str
    fn: Any
    descriptions: Sequence[str]
    record_field: str
    records: Sequence[Any]
    configs_text: str


class ConfigChooser:
    """Which configuration a tuned kernel runs for a key: this process's memo, then the disk store, then a
    tuning run now.  Both tracks look it up in this order; only their candidates and outputs differ."""

    def __init__(self, space: TuningSpace, *, warmup: float, rep: float, verbose: bool) -> None:
        self.space = space
        self.warmup, self.rep, self.verbose = warmup, rep, verbose
        self.stats = TuneStats()
        self.best: dict[Any, int] = {}  # (key values, device) -> config index, this process
        self._store = TuningStore()

    def choose(
        self,
        stream: Stream,
        key_values: tuple[Any, ...],
        candidates: Callable[[], Sequence[Callable[[], object]]],
        outputs: Callable[[], Sequence[DeviceBuffer[Any]]],
    ) -> int:
        """The winning index for `key_values` on this stream's device; `candidates` and `outputs` are only
        built when a tuning run is needed."""
        device = stream.device
        memo = (key_values, id(device))
        index = self.best.get(memo)
        if index is not None:
            self.stats.memory_hits += 1
            return index
        space = self.space
        disk_key = tuning_key(space.track, space.fn, space.configs_text, key_values, device)
        index = self._store.load(disk_key, len(space.records))
        if index is not None:
            self.stats.disk_hits += 1
        else:
            index = self._tune(stream, key_values, disk_key, candidates(), outputs())
        self.best[memo] = index
        return index

    def _tune(
        self,
        stream: Stream,
        key_values: tuple[Any, ...],
        disk_key: str,
        candidates: Sequence[Callable[[], object]],
        outputs: Sequence[DeviceBuffer[Any]],
    ) -> int:
        self.stats.tunings += 1
        space = self.space
        best, timings = pick_fastest_restoring(
            f"{space.name} key={key_values}",
            space.descriptions,
            candidates,
            outputs,
            stream,
            warmup=self.warmup,
            rep=self.rep,
            verbose=self.verbose,
        )
        self._store.save(
            disk_key,
            {
                "kernel": space.name,
                "key": repr(key_values),
                "best": best,
                space.record_field: space.records[best],
                "timings_ms": timings,
                "configs": list(space.records),
            },
        )
        return best
