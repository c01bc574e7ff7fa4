"""The launch fast path: one generated, straight-line function per `PreparedLaunch` that launches the common
case with a handful of identity and range tests, one `struct.pack_into` and one `cuLaunchKernel`.

The checked path (`kernel.launch` -> `launch_args` -> `borrows` -> `requires` -> `gpu_launch`) costs
several microseconds of Python per launch: generic conversion, lists of borrow tuples, relation trees walked
per launch.
The fast path decides only "is this exactly the common case?" and otherwise returns False *before touching
anything*, so the caller falls back to the checked path, which either raises its precise error or launches.
The fast path therefore never changes what is refused or how; it accepts a subset of what the checked path
accepts and packs the same bytes (tests/simt/test_simt_fast_launch.py checks both):

    stream        `type(stream) is Stream` on the prepared device
    arity         exactly the parameter count
    buffers       `type(a) is DeviceBuffer`, not moved (`_moved is None`: a moved buffer takes the checked path,
                  which raises `UseAfterMoveError`), with the parameter's dtype object and the prepared device object,
                  not `read_only` for a mutable parameter,
                  or a foreign array wrapped by an earlier checked launch and unchanged since
                  (`interop.wrap_fingerprint`: same object, same fingerprint)
    scalars       `type(v) is int` (its range is checked by `struct` while packing); `float`/`int` for f32/f64
                  (NaN takes the checked path); `type(v) is bool` for bool; f16/bf16: no fast path at all
    borrows       no pending `launch_async` borrow at all
    one GPU       the process has opened one GPU only (`cuda_backend.SWITCHING` empty); with several, the
                  checked path makes the launch's device current around the launch (docs/devices.md)
    aliasing      the mutable-vs-any overlap tests on the cached `ptr`/`nbytes`
    requires      each relation compiled to Python with the u64 range test after every operation
    packing       one `struct.pack_into` into the launcher's fixed slots; an out-of-range integer or f32
                  raises there, before anything is launched: checked path

It is built after the first checked launch of a prepared launch on a GPU, from the launcher's parameter
storage (`gpu_launch.GpuLauncher`); the grid, block, shared-memory size, function handle and `kernelParams`
address are constants of the generated code.
"""

from __future__ import annotations

import struct
import weakref
from collections.abc import Callable, Sequence
from typing import Any

from safekernels.runtime.buffer import DeviceBuffer
from safekernels.runtime.cuda_backend import SWITCHING
from safekernels.runtime.device import Stream
from safekernels.runtime.interop import wrap_fingerprint
from safekernels.simt import borrows
from safekernels.simt.params import KernelParam

FastRun = Callable[[Any, tuple[Any, ...]], bool]

#: Scalar dtypes the fast path packs itself (f16/bf16 need numpy rounding: checked path).
_INTS = ("i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64")
_FLOATS = ("f32", "f64")
_FOREIGN_CACHE_SIZE = 16


class FastPath:
    """The fast launch of one `PreparedLaunch`: `run(stream, args)` and its cache of foreign wrappings."""

    __slots__ = ("foreign", "run", "source")

    def __init__(self, run: FastRun, foreign: dict[int, tuple[Any, ...]], source: str) -> None:
        self.run = run
        self.foreign = foreign  # id(obj) -> (weakref, fingerprint fn, fingerprint, ptr, nbytes, length)
        self.source = source  # the generated code, for debugging and tests

    def learn(self, params: Sequence[KernelParam], args: Sequence[Any], converted: Sequence[Any]) -> None:
        """After a successful checked launch: remember the wrappings of foreign buffer arguments."""
        for param, arg, buf in zip(params, args, converted, strict=True):
            if not param.is_buffer or arg is buf:
                continue
            fingerprint = wrap_fingerprint(arg)
            if fingerprint is None:
                continue
            try:
                ref = weakref.ref(arg)
                key = fingerprint(arg)
            except Exception:
                continue
            if len(self.foreign) >= _FOREIGN_CACHE_SIZE:
                self.foreign.clear()
            self.foreign[id(arg)] = (ref, fingerprint, key, buf.ptr, buf.nbytes, buf.length)


def build_fast_path(
    kernel_name: str,
    params: Sequence[KernelParam],
    relations: Sequence[Any],
    prepared: Any,
    launcher: Any,
) -> FastPath | None:
    """Generate the fast launch for `prepared` on `launcher` (a `GpuLauncher` or a test double with the same
    parameter storage), or None when the kernel has parameters the fast path does not pack."""
    entries = launcher.plan_entries
    if len(entries) != len(params):
        return None
    for param, entry in zip(params, entries, strict=True):
        if entry.name != param.name or entry.dtype != param.dtype.name:
            return None
        if (entry.kind == "scalar") != (not param.is_buffer):
            return None
        packable = param.dtype.name in _INTS or param.dtype.name in (*_FLOATS, "bool")
        if not param.is_buffer and not packable:
            return None
    device = prepared.device
    grid, block, smem = prepared.grid, prepared.block, prepared.dynamic_shared
    function = launcher.function
    if getattr(launcher, "coarse_factor", 0):  # the elementwise kernel's coarsened entry (gpu_launch.entry_for)
        function, grid = launcher.entry_for(grid, block, smem)
    namespace: dict[str, Any] = {
        "Stream": Stream,
        "Buffer": DeviceBuffer,
        "DEVICE": device,
        "HELD": borrows.pending_records(),
        # non-empty once the process uses several GPUs: the checked path then switches contexts around the launch
        "SWITCHING": SWITCHING,
        "PACK": struct.Struct(launcher.slot_format).pack_into,
        "StructError": struct.error,
        "STORAGE": launcher.storage,
        "PARAMS": launcher.param_address,
        "FN": function,
        "LAUNCH": launcher._cu_launch,
        "SUCCESS": launcher._success,
        "FAIL": launcher.fail,
        "BACKEND": launcher.backend,
        "NAME": kernel_name,
    }
    foreign: dict[int, tuple[Any, ...]] = {}
    namespace["FOREIGN_GET"] = foreign.get
    n = len(params)
    body: list[str] = [
        f"if type(stream) is not Stream or stream.device is not DEVICE or len(args) != {n} or HELD or SWITCHING:",
        "    return False",
    ]
    if n:
        body.append(f"{''.join(f'a{i}, ' for i in range(n))}= args")
    packed: list[str] = []
    lengths: dict[str, str] = {}
    scalars: dict[str, str] = {}
    for i, param in enumerate(params):
        a = f"a{i}"
        if param.is_buffer:
            namespace[f"DT{i}"] = param.dtype
            body += [
                f"if type({a}) is Buffer:",
                f"    if {a}._moved is not None or {a}.dtype is not DT{i} or {a}.device is not DEVICE:",
                "        return False",
                *([f"    if {a}.read_only:", "        return False"] if param.is_mutable else []),
                f"    p{i} = {a}.ptr",
                f"    n{i} = {a}.nbytes",
                f"    l{i} = {a}.length",
                "else:",
                f"    e = FOREIGN_GET(id({a}))",
                f"    if e is None or e[0]() is not {a}:",
                "        return False",
                "    try:",
                f"        if e[1]({a}) != e[2]:",
                "            return False",
                "    except Exception:",
                "        return False",
                f"    p{i} = e[3]",
                f"    n{i} = e[4]",
                f"    l{i} = e[5]",
            ]
            packed += [f"p{i}", f"l{i}"]
            lengths[param.name] = f"l{i}"
            continue
        dtype = param.dtype.name
        if dtype in _INTS:
            # the range test is struct's: packing an out-of-range value raises struct.error -> checked path
            body += [f"if type({a}) is not int:", "    return False"]
            if param.dtype.kind == "u":
                scalars[param.name] = a
        elif dtype in _FLOATS:
            body += [
                f"t = type({a})",
                f"if (t is not float and t is not int) or {a} != {a}:",  # NaN: checked path
                "    return False",
            ]
        else:  # bool
            body += [f"if type({a}) is not bool:", "    return False"]
        packed.append(a)
    buffers = [(i, p) for i, p in enumerate(params) if p.is_buffer]
    for j in range(1, len(buffers)):
        for i in range(j):
            (bi, pi), (bj, pj) = buffers[i], buffers[j]
            if pi.is_mutable or pj.is_mutable:
                body += [
                    f"if n{bi} and n{bj} and p{bj} < p{bi} + n{bi} and p{bi} < p{bj} + n{bj}:",
                    "    return False",
                ]
    for k, relation in enumerate(relations):
        body += relation.fast_check_lines(lengths, scalars, f"r{k}_")
    launch_args = f"FN, {grid[0]}, {grid[1]}, {grid[2]}, {block[0]}, {block[1]}, {block[2]}, {smem}"
    body += [
        "try:",
        f"    PACK(STORAGE, 0{''.join(', ' + v for v in packed)})",
        "except (OverflowError, StructError):",
        "    return False",
        "h = stream.handle",
        "if h is None:",
        f"    r = LAUNCH({launch_args}, 0, PARAMS, 0)",
        "    BACKEND.default_last_kernel = NAME",
        "else:",
        f"    r = LAUNCH({launch_args}, h.handle, PARAMS, 0)",
        "    h.last_kernel = NAME",
        "if r[0] is not SUCCESS:",
        "    FAIL(r)",
        "return True",
    ]
    source = "def fast_launch(stream, args):\n" + "".join(f"    {line}\n" for line in body)
    exec(compile(source, f"<safekernels fast launch of {kernel_name}>", "exec"), namespace)
    run: FastRun = namespace["fast_launch"]
    return FastPath(run, foreign, source)
