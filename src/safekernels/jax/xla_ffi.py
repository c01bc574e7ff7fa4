"""XLA's FFI C API, mirrored in ctypes: what a handler written in Python needs to read its call frame.

XLA calls an FFI custom call's handler as a C function, `XLA_FFI_Error* handler(XLA_FFI_CallFrame*)`.  No C
compiler is needed to provide one: a `ctypes.CFUNCTYPE` callback has a C address, and jaxlib registers any
address wrapped in a PyCapsule.  This module declares the structs of `xla/ffi/api/c_api.h` (API 0.4, as
jaxlib ships it in `jax.ffi.include_dir()`) field for field, and the few calls a handler makes through the
frame's `XLA_FFI_Api` function table:

    XLA_FFI_CallFrame ─┬─ extension_start ─▶ XLA_FFI_Metadata_Extension   ("which API version are you?")
                       ├─ api ─▶ XLA_FFI_Api: Error_Create, Stream_Get, DeviceOrdinal_Get, ...
                       ├─ ctx  (opaque; passed back to Stream_Get / DeviceOrdinal_Get)
                       ├─ args.args[i] ─▶ XLA_FFI_Buffer {dtype, data, rank, dims}
                       ├─ rets.rets[i] ─▶ XLA_FFI_Buffer
                       └─ attrs (sorted by name) ─▶ XLA_FFI_Scalar {dtype, value*}

Why it is safe to trust the layout: every struct XLA passes starts with its `struct_size`, which XLA sets to
`offsetof(last field) + sizeof(last field)` of its own header.  `FrameReader.check` compares the frame's and
the API table's sizes with the ones computed here from the same fields (a newer XLA only appends fields, so
"at least ours" is the rule the C++ wrappers apply too); a mismatch is reported as an XLA error, never read
past.  The structs a handler fills in (error, stream and ordinal queries, the metadata answer) carry the size
computed the same way.
"""

from __future__ import annotations

import ctypes
from ctypes import POINTER, Structure, c_char_p, c_int, c_int32, c_int64, c_size_t, c_uint32, c_void_p
from typing import Any

#: the FFI API version these declarations mirror (`XLA_FFI_API_MAJOR` / `XLA_FFI_API_MINOR`)
API_MAJOR = 0
API_MINOR = 4

EXTENSION_METADATA = 1  # XLA_FFI_Extension_Metadata
STAGE_EXECUTE = 3  # XLA_FFI_ExecutionStage_EXECUTE
ARG_BUFFER = 1  # XLA_FFI_ArgType_BUFFER / XLA_FFI_RetType_BUFFER
ATTR_SCALAR = 3  # XLA_FFI_AttrType_SCALAR
ERROR_INVALID_ARGUMENT = 3
ERROR_INTERNAL = 13

#: XLA_FFI_DataType codes -> numpy dtype names of the same width (bf16 and the 8-bit floats as their bits)
DATA_TYPES = {
    1: "bool",
    2: "int8",
    3: "int16",
    4: "int32",
    5: "int64",
    6: "uint8",
    7: "uint16",
    8: "uint32",
    9: "uint64",
    10: "float16",
    11: "float32",
    12: "float64",
    16: "uint16",  # bf16
    19: "uint8",  # f8e5m2
    20: "uint8",  # f8e4m3fn
}


def struct_size(struct: type[Structure], last_field: str) -> int:
    """`XLA_FFI_STRUCT_SIZE(struct, last_field)`: the offset of `last_field` plus its size."""
    field = getattr(struct, last_field)
    return int(field.offset + field.size)


class InternalExtension(Structure):
    pass


InternalExtension._fields_ = [
    ("struct_size", c_size_t),
    ("type", c_int),
    ("next", POINTER(InternalExtension)),
]


class ApiVersion(Structure):
    _fields_ = [
        ("struct_size", c_size_t),
        ("extension_start", c_void_p),
        ("major_version", c_int),
        ("minor_version", c_int),
    ]


class Buffer(Structure):
    _fields_ = [
        ("struct_size", c_size_t),
        ("extension_start", c_void_p),
        ("dtype", c_int),
        ("data", c_void_p),
        ("rank", c_int64),
        ("dims", POINTER(c_int64)),
    ]


class ByteSpan(Structure):
    _fields_ = [("ptr", c_void_p), ("len", c_size_t)]


class Scalar(Structure):
    _fields_ = [("dtype", c_int), ("value", c_void_p)]


class Args(Structure):
    _fields_ = [
        ("struct_size", c_size_t),
        ("extension_start", c_void_p),
        ("size", c_int64),
        ("types", POINTER(c_int)),
        ("args", POINTER(c_void_p)),
    ]


class Rets(Structure):
    _fields_ = [
        ("struct_size", c_size_t),
        ("extension_start", c_void_p),
        ("size", c_int64),
        ("types", POINTER(c_int)),
        ("rets", POINTER(c_void_p)),
    ]


class Attrs(Structure):
    _fields_ = [
        ("struct_size", c_size_t),
        ("extension_start", c_void_p),
        ("size", c_int64),
        ("types", POINTER(c_int)),
        ("names", POINTER(POINTER(ByteSpan))),
        ("attrs", POINTER(c_void_p)),
    ]


class CallFrame(Structure):
    _fields_ = [
        ("struct_size", c_size_t),
        ("extension_start", POINTER(InternalExtension)),
        ("api", c_void_p),
        ("ctx", c_void_p),
        ("stage", c_int),
        ("args", Args),
        ("rets", Rets),
        ("attrs", Attrs),
        ("future", c_void_p),
    ]


class Metadata(Structure):
    _fields_ = [
        ("struct_size", c_size_t),
        ("api_version", ApiVersion),
        ("traits", c_uint32),
        ("state_type_id", c_int64),
    ]


class MetadataExtension(Structure):
    _fields_ = [("extension_base", InternalExtension), ("metadata", POINTER(Metadata))]


class ErrorCreateArgs(Structure):
    _fields_ = [
        ("struct_size", c_size_t),
        ("extension_start", c_void_p),
        ("message", c_char_p),
        ("errc", c_int),
    ]


class StreamGetArgs(Structure):
    _fields_ = [
        ("struct_size", c_size_t),
        ("extension_start", c_void_p),
        ("ctx", c_void_p),
        ("stream", c_void_p),
    ]


class ErrorDestroyArgs(Structure):
    _fields_ = [("struct_size", c_size_t), ("extension_start", c_void_p), ("error", c_void_p)]


class DeviceOrdinalGetArgs(Structure):
    _fields_ = [
        ("struct_size", c_size_t),
        ("extension_start", c_void_p),
        ("ctx", c_void_p),
        ("device_ordinal", c_int32),
    ]


#: the XLA_FFI_Api function table, in declaration order (every entry a function pointer)
API_FUNCTIONS = (
    "Error_Create",
    "Error_GetDetails",
    "Error_Destroy",
    "Handler_Register",
    "Stream_Get",
    "Type_Register",
    "InvokeContext_Get",
    "State_Set",
    "State_Get",
    "DeviceMemory_Allocate",
    "DeviceMemory_Free",
    "ThreadPool_Schedule",
    "ThreadPool_NumThreads",
    "Future_Create",
    "Future_SetAvailable",
    "Future_SetError",
    "RunId_Get",
    "DeviceOrdinal_Get",
    "InvokeContext_FindExtension",
)


class Api(Structure):
    _fields_ = [
        ("struct_size", c_size_t),
        ("extension_start", c_void_p),
        ("api_version", ApiVersion),
        ("internal_api", c_void_p),
        *((name, c_void_p) for name in API_FUNCTIONS),
    ]


CALL_FRAME_SIZE = struct_size(CallFrame, "attrs")
BUFFER_SIZE = struct_size(Buffer, "dims")
METADATA_SIZE = struct_size(Metadata, "traits")
METADATA_EXTENSION_SIZE = struct_size(MetadataExtension, "metadata")
API_VERSION_SIZE = struct_size(ApiVersion, "minor_version")
ERROR_CREATE_ARGS_SIZE = struct_size(ErrorCreateArgs, "errc")
ERROR_DESTROY_ARGS_SIZE = struct_size(ErrorDestroyArgs, "error")
STREAM_GET_ARGS_SIZE = struct_size(StreamGetArgs, "stream")
DEVICE_ORDINAL_GET_ARGS_SIZE = struct_size(DeviceOrdinalGetArgs, "device_ordinal")

#: `XLA_FFI_Handler`: the C signature of a handler (the frame is passed as an address)
HANDLER = ctypes.CFUNCTYPE(c_void_p, c_void_p)
_ERROR_CREATE = ctypes.CFUNCTYPE(c_void_p, POINTER(ErrorCreateArgs))
_ERROR_DESTROY = ctypes.CFUNCTYPE(None, POINTER(ErrorDestroyArgs))
_STREAM_GET = ctypes.CFUNCTYPE(c_void_p, POINTER(StreamGetArgs))
_DEVICE_ORDINAL_GET = ctypes.CFUNCTYPE(c_void_p, POINTER(DeviceOrdinalGetArgs))


class ApiCalls:
    """The calls a handler makes through one `XLA_FFI_Api` table (bound once per table address)."""

    def __init__(self, address: int) -> None:
        table = Api.from_address(address)
        self.size = int(table.struct_size)
        self.version = (int(table.api_version.major_version), int(table.api_version.minor_version))
        self._error_create = _ERROR_CREATE(table.Error_Create)
        self._error_destroy = _ERROR_DESTROY(table.Error_Destroy)
        self._stream_get = _STREAM_GET(table.Stream_Get) if table.Stream_Get else None
        ordinal_present = self.size >= struct_size(Api, "DeviceOrdinal_Get") and table.DeviceOrdinal_Get
        self._ordinal_get = _DEVICE_ORDINAL_GET(table.DeviceOrdinal_Get) if ordinal_present else None

    def error(self, message: str, code: int = ERROR_INTERNAL) -> int:
        """A new `XLA_FFI_Error*` carrying `message` (XLA copies the text and owns the error)."""
        args = ErrorCreateArgs(ERROR_CREATE_ARGS_SIZE, None, message.encode("utf-8", "replace"), code)
        return int(self._error_create(ctypes.byref(args)) or 0)

    def stream(self, ctx: int) -> int:
        """The platform stream of this call (a `CUstream` on CUDA); raises on an XLA error."""
        if self._stream_get is None:
            raise RuntimeError("this XLA has no XLA_FFI_Stream_Get")
        args = StreamGetArgs(STREAM_GET_ARGS_SIZE, None, ctx, None)
        error = self._stream_get(ctypes.byref(args))
        if error:
            self._error_destroy(ctypes.byref(ErrorDestroyArgs(ERROR_DESTROY_ARGS_SIZE, None, error)))
            raise RuntimeError("XLA_FFI_Stream_Get failed: the call has no device stream")
        return int(args.stream or 0)

    def device_ordinal(self, ctx: int) -> int | None:
        """The ordinal of the device running this call, or None when this XLA cannot say."""
        if self._ordinal_get is None:
            return None
        args = DeviceOrdinalGetArgs(DEVICE_ORDINAL_GET_ARGS_SIZE, None, ctx, 0)
        error = self._ordinal_get(ctypes.byref(args))
        if error:
            self._error_destroy(ctypes.byref(ErrorDestroyArgs(ERROR_DESTROY_ARGS_SIZE, None, error)))
            return None
        return int(args.device_ordinal)


def answer_metadata(extension: Any, traits: int = 0) -> str | None:
    """Fill the `XLA_FFI_Metadata` that XLA's "get metadata" call asks for; an error message when its structs
    are smaller than ours (an XLA too old for these declarations)."""
    ext = ctypes.cast(extension, POINTER(MetadataExtension)).contents
    if ext.extension_base.struct_size < METADATA_EXTENSION_SIZE:
        size = ext.extension_base.struct_size
        return f"XLA_FFI_Metadata_Extension is {size} bytes, expected at least {METADATA_EXTENSION_SIZE}"
    metadata = ext.metadata.contents
    if metadata.struct_size < METADATA_SIZE:
        return f"XLA_FFI_Metadata is {metadata.struct_size} bytes, expected at least {METADATA_SIZE}"
    metadata.api_version = ApiVersion(API_VERSION_SIZE, None, API_MAJOR, API_MINOR)
    metadata.traits = traits
    return None


def attribute_i64(frame: CallFrame, name: bytes) -> int | None:
    """The value of the int64 scalar attribute `name`, or None when the call has none of that name."""
    attrs = frame.attrs
    for i in range(attrs.size):
        span = attrs.names[i].contents
        if span.len == len(name) and ctypes.string_at(span.ptr, span.len) == name and attrs.types[i] == ATTR_SCALAR:
            scalar = Scalar.from_address(attrs.attrs[i])
            if scalar.dtype != 5:  # XLA_FFI_DataType_S64
                return None
            return int(c_int64.from_address(scalar.value).value)
    return None


def buffer_addresses(types: Any, table: Any, count: int) -> list[int]:
    """The `data` address of each of the `count` XLA_FFI_Buffers listed in `table` (`args.args` / `rets.rets`),
    after checking that each entry is a buffer of at least our struct's size."""
    addresses: list[int] = []
    for i in range(count):
        if types[i] != ARG_BUFFER:
            raise TypeError(f"operand {i} of the FFI call is not a buffer (type code {types[i]})")
        buffer = Buffer.from_address(table[i])
        if buffer.struct_size < BUFFER_SIZE:
            raise TypeError(f"XLA_FFI_Buffer is {buffer.struct_size} bytes, expected at least {BUFFER_SIZE}")
        addresses.append(buffer.data or 0)
    return addresses
