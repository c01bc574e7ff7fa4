"""Which device memory lives on, and moving it to another: the runtime's cross-device rules.

A kernel reads and writes only the memory of the device it runs on.  The launch paths (SIMT and tile) compare
each buffer argument's device with the launch's by identity and refuse a stranger with `cross_device_error`,
which names the kernel, the parameter, the caller's variable and both devices, and says how to move it.

Moving is explicit: `buf.to(device, stream)` (`move_to`) is a *move* of `buf`, like `partition`:

    buf.to(dev1, s1)
        checks   buf alive, not a view, not borrowed by a pending `launch_async` (E0505), s1 on dev1
        same device   -> a fresh handle to the same memory (nothing is copied)
        another one   -> allocate on dev1, copy:   GPU -> GPU   cuMemcpyPeerAsync on s1 (peer access enabled
                                                                where the pair allows it), ordered after the
                                                                source device's work (`source_stream`, or a
                                                                device synchronize), source kept alive until done
                                                   CPU <-> GPU  a host copy, as `to_device` / `to_numpy` do
                                                   CPU -> CPU   memmove (the CPU executors share host memory)
        then     buf and its views are invalidated (`UseAfterMoveError` naming `to` and the line)

so a buffer is on exactly one device at a time, and ownership reads the same on one device and on several.
"""

from __future__ import annotations

import ctypes
from typing import TYPE_CHECKING, Any

from safekernels.errors import CrossDeviceError
from safekernels.runtime.device import Device, Stream
from safekernels.runtime.ownership import _user_frame

if TYPE_CHECKING:
    from safekernels.runtime.buffer import DeviceBuffer


def _caller_name(value: object) -> str | None:
    frame = _user_frame()
    if frame is None:
        return None
    return next((k for k, v in frame.f_locals.items() if v is value and not k.startswith("_")), None)


def cross_device_error(kernel: str, param: str, value: object, lives_on: Device, runs_on: Device) -> CrossDeviceError:
    """The error for argument `param` of `kernel` living on `lives_on` while the launch runs on `runs_on`.

    Built only when raised: it looks up the caller's name for `value` (a frame walk)."""
    name = _caller_name(value)
    shown = f" (the caller's `{name}`)" if name else ""
    target = name or "the buffer"
    return CrossDeviceError(
        f"{kernel}: argument `{param}`{shown} lives on {lives_on!r}, but the launch runs on {runs_on!r}: a kernel "
        f"reads and writes only memory of its own device; help: move it there first with "
        f"`{target}.to({runs_on!r}, stream)` (a stream of {runs_on!r})"
    )


def _destination_stream(device: Device, stream: Stream | None, buffer: object) -> Stream:
    if stream is None:
        return device.default_stream
    if not isinstance(stream, Stream):
        raise TypeError(f"DeviceBuffer.to(device, stream): expected a safekernels Stream, got {type(stream).__name__}")
    if stream.device is not device:
        name = _caller_name(buffer) or "buf"
        raise CrossDeviceError(
            f"`{name}.to({device!r}, stream)`: the stream belongs to {stream.device!r}; the copy runs on a "
            f"stream of the destination, {device!r} (help: `{device!r}.new_stream()` or its `default_stream`)"
        )
    return stream


def _source_stream(buffer: DeviceBuffer[Any], source_stream: Stream | None) -> Stream | None:
    if source_stream is None:
        return None
    if not isinstance(source_stream, Stream):
        raise TypeError(
            f"DeviceBuffer.to: source_stream must be a safekernels Stream, got {type(source_stream).__name__}"
        )
    if source_stream.device is not buffer.device:
        raise CrossDeviceError(
            f"DeviceBuffer.to: source_stream belongs to {source_stream.device!r}, but the buffer lives on "
            f"{buffer.device!r}; pass the stream of {buffer.device!r} that last wrote it"
        )
    return source_stream


def move_to(
    buffer: DeviceBuffer[Any], device: Device, stream: Stream | None, source_stream: Stream | None
) -> DeviceBuffer[Any]:
    """`buffer.to(device, stream, source_stream=...)`: see the module doc.  Refusals happen before any copy."""
    from safekernels.runtime.buffer import empty

    buffer._check_alive("to")
    if not isinstance(device, Device):
        raise TypeError(f"DeviceBuffer.to(device, stream): expected a safekernels Device, got {type(device).__name__}")
    dst_stream = _destination_stream(device, stream, buffer)
    src_stream = _source_stream(buffer, source_stream)
    buffer._check_movable("to")  # a view, or memory a pending launch_async borrows (E0505)
    if device is buffer.device:
        return buffer._take("to")
    # a copy is the destination's own memory: writable even when the source wrapped read-only memory
    moved: DeviceBuffer[Any] = empty(buffer.length, buffer.dtype, dst_stream)
    if buffer.nbytes:
        _copy(buffer, moved, dst_stream, src_stream)
    buffer._take("to")  # invalidate the source handle and its views; the fresh handle it returns is dropped
    return moved


def _copy(src: DeviceBuffer[Any], dst: DeviceBuffer[Any], stream: Stream, source_stream: Stream | None) -> None:
    src_dev, dst_dev = src.device, dst.device
    if src_dev.is_cpu and dst_dev.is_cpu:
        ctypes.memmove(dst.ptr, src.ptr, src.nbytes)  # the CPU executors run eagerly, in program order
        return
    if src_dev.is_cpu:  # host memory to a GPU: the same copy `to_device` makes
        dst_dev.backend.copy_from_host(dst.ptr, src.host_view(), stream.handle)
        return
    if dst_dev.is_cpu:  # a GPU to host memory: the same copy `to_numpy` makes, on the source's stream
        source = source_stream if source_stream is not None else src_dev.default_stream
        src_dev.backend.copy_to_host(dst.host_view(), src.ptr, source.handle)
        return
    dst_backend: Any = dst_dev.backend
    src_backend: Any = src_dev.backend
    if source_stream is not None:
        dst_backend.wait_for(stream.handle, src_backend, source_stream.handle)  # no host wait
    else:
        src_backend.synchronize(None)  # every stream of the source device: whoever wrote the buffer is done
    dst_backend.copy_peer(dst.ptr, src_backend, src.ptr, src.nbytes, stream.handle, src.allocation)
