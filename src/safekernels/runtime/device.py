"""`Device` and `Stream`: where kernels run and in which order.

`Device(0)` is a CUDA GPU (the backend is imported on first use, so `import safekernels` never touches the
driver); `Device.cpu()` is the CPU executor, which runs the same kernels with the same semantics; and
`Device.default()` picks the GPU when one answers, unless `SAFEKERNELS_DEVICE=cpu|gpu` forces the choice.

Several devices (docs/devices.md): `Device(n)` for each GPU and `Device.cpu(n)` for as many CPU executors as a
test wants (they share host memory but are distinct devices, so the cross-device rules run without a GPU).  The
device of a buffer, a stream or a prepared launch decides where work runs, as a tensor's device does in torch;
`with device:` only changes what `Device.default()` answers inside the block (the device that constructors
without a stream use), like `torch.cuda.device(n)`, and puts everything back on exit.
"""

from __future__ import annotations

import functools
import os
import threading
from types import TracebackType
from typing import Any

from safekernels.errors import DeviceError
from safekernels.runtime.backend import Backend, CpuBackend
from safekernels.runtime.limits import CPU_EXECUTOR_LIMITS, DeviceLimits

_ENV_DEVICE = "SAFEKERNELS_DEVICE"


@functools.cache
def gpu_available() -> bool:
    """True when cuda-bindings imports, the driver initializes and reports at least one device. Never raises."""
    try:
        from cuda.bindings import driver
    except Exception:
        return False
    try:
        (err,) = driver.cuInit(0)
        if err != driver.CUresult.CUDA_SUCCESS:
            return False
        err, count = driver.cuDeviceGetCount()
        return bool(err == driver.CUresult.CUDA_SUCCESS and count > 0)
    except Exception:
        return False


class _DefaultStack(threading.local):
    """Per thread: the devices of the `with device:` blocks being executed, innermost last."""

    def __init__(self) -> None:
        self.devices: list[Device] = []
        self.restore: list[Any] = []  # per block: what the GPU backend's `leave` puts back on exit


_entered = _DefaultStack()


class Device:
    """A place kernels run: a CUDA GPU by ordinal, or a CPU executor."""

    backend: Backend
    ordinal: int | None
    _instances: dict[int, Device] = {}  # noqa: RUF012 - one Device object per GPU ordinal
    #: which CPU executor (`Device.cpu(n)`); 0 for GPUs, where `ordinal` says which one
    _cpu_index: int = 0

    def __new__(cls, ordinal: int = 0) -> Device:
        # One object per GPU: buffers compare their device by identity, so `Device(0)` twice must be the same.
        existing = cls._instances.get(ordinal) if isinstance(ordinal, int) else None
        return existing if existing is not None else super().__new__(cls)

    def __init__(self, ordinal: int = 0) -> None:
        if isinstance(ordinal, int) and self._instances.get(ordinal) is self:
            return
        if not isinstance(ordinal, int) or ordinal < 0:
            raise ValueError(f"Device ordinal must be a non-negative int, got {ordinal!r}")
        if not gpu_available():
            raise DeviceError(
                f"no CUDA GPU is available for Device({ordinal}) (no driver or no device); "
                "use safekernels.Device.cpu() for the CPU executor, or Device.default() to pick automatically"
            )
        from safekernels.runtime.cuda_backend import CudaBackend

        self.ordinal = ordinal
        self.backend = CudaBackend(ordinal)
        self._limits: DeviceLimits | None = None
        self._default_stream: Stream | None = None
        Device._instances[ordinal] = self

    @classmethod
    def cpu(cls, index: int = 0) -> Device:
        """CPU executor number `index` (one shared instance each; `Device.cpu()` is number 0).

        CPU executors share the host's memory, but each is its own device: a launch on one refuses a buffer
        of another, and `buf.to(Device.cpu(1))` copies, exactly as between two GPUs.
        """
        if not isinstance(index, int) or isinstance(index, bool) or index < 0:
            raise ValueError(f"Device.cpu(index): index must be a non-negative int, got {index!r}")
        return _cpu_device(index)

    @classmethod
    def count(cls) -> int:
        """How many CUDA GPUs the driver reports (0 without a driver or a GPU)."""
        if not gpu_available():
            return 0
        from safekernels.runtime.cuda_backend import _driver

        driver = _driver()
        err, count = driver.cuDeviceGetCount()
        return int(count) if err == driver.CUresult.CUDA_SUCCESS else 0

    @property
    def index(self) -> int:
        """The GPU's ordinal, or the CPU executor's number."""
        return self._cpu_index if self.ordinal is None else self.ordinal

    def __enter__(self) -> Device:
        """`with device:` makes `device` what `Device.default()` answers in this thread until the block ends
        (and, for a GPU, its CUDA context current, as `torch.cuda.device(n)` does); blocks nest."""
        enter_always = getattr(self.backend, "enter_always", None)
        _entered.restore.append(enter_always() if enter_always is not None else None)
        _entered.devices.append(self)
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, traceback: TracebackType | None
    ) -> None:
        _entered.devices.pop()
        previous = _entered.restore.pop()
        if previous is not None:
            self.backend.leave(previous)  # type: ignore[attr-defined]

    @classmethod
    def default(cls) -> Device:
        """The device of the innermost `with device:` block of this thread; outside one, the GPU whose CUDA
        context is current on this thread (`torch.cuda.set_device(n)` makes it GPU n), else GPU 0, when a GPU
        is present; else the CPU executor (`SAFEKERNELS_DEVICE=cpu|gpu` forces GPU or CPU)."""
        if _entered.devices:
            return _entered.devices[-1]
        forced = os.environ.get(_ENV_DEVICE, "").strip().lower()
        if forced == "cpu":
            return cls.cpu()
        if forced == "gpu":
            if not gpu_available():  # Device(0)'s own error would advise Device.default(), which is this call
                raise DeviceError(
                    f"{_ENV_DEVICE}=gpu, but no CUDA GPU is available (no driver or no device); unset "
                    f"{_ENV_DEVICE} or set it to cpu to run on the CPU executor (`safekernels doctor` shows why)"
                )
            return _gpu_device(_current_gpu())
        if forced:
            raise ValueError(f"{_ENV_DEVICE} must be 'cpu' or 'gpu', got {forced!r}")
        return _gpu_device(_current_gpu()) if gpu_available() else cls.cpu()

    @property
    def is_cpu(self) -> bool:
        return self.backend.name == "cpu"

    @property
    def is_gpu(self) -> bool:
        return not self.is_cpu

    @property
    def limits(self) -> DeviceLimits:
        """Live limits (GPU: read from device attributes once; CPU: the sm_90-like executor profile)."""
        if self._limits is None:
            self._limits = self.backend.limits() if self.is_gpu else CPU_EXECUTOR_LIMITS  # type: ignore[attr-defined]
        return self._limits

    @property
    def name(self) -> str:
        return self.limits.name

    @property
    def compute_capability(self) -> tuple[int, int]:
        return self.limits.compute_capability

    @property
    def arch(self) -> str:
        return self.limits.arch

    def new_stream(self) -> Stream:
        return Stream(self, self.backend.new_stream())

    @property
    def default_stream(self) -> Stream:
        if self._default_stream is None:
            self._default_stream = Stream(self, None)
        return self._default_stream

    def synchronize(self) -> None:
        self.backend.synchronize(None)

    def __repr__(self) -> str:
        if self.is_cpu:
            return f"Device.cpu({self._cpu_index})" if self._cpu_index else "Device.cpu()"
        return f"Device({self.ordinal})"


@functools.cache
def _cpu_device(index: int = 0) -> Device:
    device = object.__new__(Device)
    device.ordinal = None
    device._cpu_index = index
    device.backend = CpuBackend()
    device._limits = None
    device._default_stream = None
    return device


def _gpu_device(ordinal: int) -> Device:
    return Device(ordinal)


def _current_gpu() -> int:
    """The ordinal of the GPU whose context is current on this thread (set by torch, CuPy or a `with` block),
    0 when none is: a process started for GPU n (`torchrun`'s rank n after `torch.cuda.set_device(n)`) never
    opens GPU 0 behind its back.  Never raises."""
    try:
        from safekernels.runtime.cuda_backend import _driver

        driver = _driver()
        err, context = driver.cuCtxGetCurrent()
        if err != driver.CUresult.CUDA_SUCCESS or context is None or not int(context):
            return 0
        err, device = driver.cuCtxGetDevice()
        return int(device) if err == driver.CUresult.CUDA_SUCCESS else 0
    except Exception:
        return 0


class Stream:
    """An in-order queue of work on one device.  On the CPU executor work runs eagerly, in order."""

    __slots__ = ("_foreign", "device", "handle")

    def __init__(self, device: Device, handle: Any, *, foreign: Any = None) -> None:
        self.device = device
        self.handle = handle  # backend handle; None is the default (legacy) stream
        self._foreign = foreign  # keeps a wrapped torch/cupy stream alive

    def synchronize(self) -> None:
        self.device.backend.synchronize(self.handle)

    def __repr__(self) -> str:
        return f"Stream({self.device!r}, handle={self.handle!r})"


def as_stream(obj: Any, device: Device | None = None) -> Stream:
    """Accept a `Stream`, a torch/CuPy stream object or a raw `CUstream` handle (int) as a safekernels Stream.

    The stream's device is `device` when given, else the one a torch (`.device`) or CuPy (`.device_id`) stream
    names, else `Device.default()` (a raw handle says nothing about its device).
    """
    if isinstance(obj, Stream):
        return obj
    target = device if device is not None else _stream_device(obj)
    for attr in ("cuda_stream", "ptr", "handle"):  # torch.cuda.Stream, cupy Stream, cuda.core Stream
        value = getattr(obj, attr, None)
        if isinstance(value, int):
            return Stream(target, target.backend.wrap_stream(value) if target.is_gpu else None, foreign=obj)  # type: ignore[attr-defined]
    if isinstance(obj, int):
        return Stream(target, target.backend.wrap_stream(obj) if target.is_gpu else None)  # type: ignore[attr-defined]
    raise TypeError(f"not a stream: {obj!r} (expected safekernels.Stream, torch/CuPy stream or CUstream int)")


def _stream_device(obj: Any) -> Device:
    """The GPU a foreign stream object belongs to, when it says (torch: `.device.index`, CuPy: `.device_id`)."""
    ordinal = getattr(getattr(obj, "device", None), "index", None)
    if not isinstance(ordinal, int):
        ordinal = getattr(obj, "device_id", None)
    if isinstance(ordinal, int) and not isinstance(ordinal, bool) and ordinal >= 0:
        return Device(ordinal)
    return Device.default()
