"""`OpLauncher`: how a framework operator launches its kernel, given flat buffers and shapes.

The torch and JAX bridges differ in how they get memory (torch tensors wrapped in place, JAX arrays handed to
a host callback) but not in what a launch needs beyond it:

- tile kernels: a tile shape per output `Partition` (its fixed `Dims` by default, else `tile_shapes=`), and
  the launch's `Tensor` / `Partition` values over the buffers; the launch itself (`TileKernel._launch_values`:
  the kernel's launch-plan cache, the full checks on a miss) does the dtype, `Dims`, grid and aliasing checks;
- SIMT kernels: a launch configuration (a 1-D grid over the first output with the contract's block by
  default, else `launch=`), prepared once per configuration and device, then the ordinary safe launch;
- `check_static`: the launch's dtype / `Dims` / grid checks on shapes alone, for fake (meta) evaluation
  where no memory exists.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from safekernels.dtypes import DType
from safekernels.errors import ShapeError
from safekernels.frameworks.signature import OpParam, OpSignature
from safekernels.runtime.buffer import DeviceBuffer
from safekernels.runtime.device import Device, Stream
from safekernels.tile.tensor import Partition, Tensor, TensorSpec, check_partition_shape

TileShapeRule = tuple[int, ...] | Callable[[tuple[int, ...]], Sequence[int]]
#: a tensor argument as the launcher sees it: its flat buffer and its shape
Placed = tuple[DeviceBuffer[Any], tuple[int, ...]]


class OpLauncher:
    """Launch one registered kernel (see the module docstring)."""

    def __init__(
        self,
        name: str,
        kernel: Any,
        signature: OpSignature,
        *,
        tile_shapes: Mapping[str, TileShapeRule] | None,
        launch: Callable[..., Any] | None,
    ) -> None:
        self.name = name
        self.kernel = kernel
        self.signature = signature
        self.is_tile = signature.params[0].track == "tile"
        self._tile_shapes = dict(tile_shapes or {})
        self._launch_rule = launch
        self._prepared: dict[tuple[Any, ...], Any] = {}
        self._check_tile_shapes()

    # -- registration-time checks -------------------------------------------------------------------------------
    def _check_tile_shapes(self) -> None:
        if not self.is_tile:
            if self._tile_shapes:
                raise ValueError(f"{self.name}: tile_shapes= is for tile kernels; SIMT kernels take launch=")
            return
        outputs = {p.name for p in self.signature.outputs}
        unknown = [k for k in self._tile_shapes if k not in outputs]
        if unknown:
            raise ValueError(
                f"{self.name}: tile_shapes= names {unknown}, which are not outputs of `{self.kernel.name}`"
            )
        for q in self.kernel.params:
            if q.kind != "partition" or q.name in self._tile_shapes:
                continue
            if not (q.dims is not None and all(isinstance(d, int) and d > 0 for d in q.dims.dims)):
                raise ValueError(
                    f"{self.name}: output `{q.name}` of `{self.kernel.name}` has no fixed tile shape (its Dims are "
                    f"{q.dims}); pass tile_shapes={{{q.name!r}: (...)}} or a function of the output's shape"
                )

    # -- shapes -------------------------------------------------------------------------------------------------
    def tile_shape(self, p: OpParam, shape: tuple[int, ...]) -> tuple[int, ...]:
        """The tile shape output `p` is partitioned by for a tensor of `shape`; a tile of another rank than the
        tensor (a 2-D tensor for a `(128,)` tile) is a `ShapeError` naming the op and the output."""
        rule = self._tile_shapes.get(p.name)
        if rule is None:
            dims = next(q.dims for q in self.kernel.params if q.name == p.name)
            assert dims is not None  # checked at registration
            tiles = tuple(int(d) for d in dims.dims)
        elif callable(rule):
            tiles = tuple(int(d) for d in rule(shape))
        else:
            tiles = tuple(int(d) for d in rule)
        try:
            return check_partition_shape(shape, tiles)
        except ShapeError as exc:
            raise ShapeError(f"{self.name}: output `{p.name}` of shape {shape}: {exc}") from None

    def check_static(self, described: Mapping[str, tuple[tuple[int, ...], DType]]) -> None:
        """The launch's dtype / shape checks from (shape, dtype) of every tensor parameter."""
        from safekernels.tile.signature import check_launch_shapes

        where = f"{self.name} ({self.kernel.name})"
        if self.is_tile:
            specs: list[TensorSpec | None] = []
            for p in self.signature.params:
                if p.role == "scalar":
                    specs.append(None)
                    continue
                shape, dtype = described[p.name]
                tiles = self.tile_shape(p, shape) if p.role == "output" and not p.atomic else None
                specs.append(TensorSpec(shape, dtype, tiles))
            check_launch_shapes(where, self.kernel.params, specs, self.kernel.shape_ties)
            return
        for p in self.signature.params:
            if p.role != "scalar" and p.dtype is not None:
                got = described[p.name][1]
                if got != p.dtype:
                    raise TypeError(f"{where}: parameter `{p.name}` expects {p.dtype} elements, got a {got} tensor")

    # -- launching ----------------------------------------------------------------------------------------------
    def launch(self, named: Mapping[str, Placed | Any], device: Device, stream: Stream) -> None:
        """Launch on `stream`: tensors as (buffer, shape), scalars as Python values, by parameter name."""
        if self.is_tile:
            self._launch_tile(named, stream)
        else:
            self._launch_simt(named, device, stream)

    def _launch_tile(self, named: Mapping[str, Any], stream: Stream) -> None:
        values: list[Any] = []
        for p, q in zip(self.signature.params, self.kernel.params, strict=True):
            if p.role == "scalar":
                value = named[p.name]
                values.append(q.cast(value) if q.cast is not None else value)
                continue
            buffer, shape = named[p.name]
            if p.role == "output" and not p.atomic:  # an AtomicTensor output is passed whole, as a Tensor
                values.append(Partition(buffer, shape, self.tile_shape(p, shape)))
            else:
                values.append(Tensor(buffer, shape))
        self.kernel._launch_values(stream, tuple(values))

    def _launch_simt(self, named: Mapping[str, Any], device: Device, stream: Stream) -> None:
        values = [named[p.name] if p.role == "scalar" else named[p.name][0] for p in self.signature.params]
        config = self._simt_config(named, values)
        if config is None:  # an empty output under the default grid: nothing to compute, as for torch's own ops
            self.check_static({p.name: (named[p.name][1], named[p.name][0].dtype) for p in self._tensor_params})
            return
        key = (config, device.ordinal if device.is_gpu else "cpu")
        prepared = self._prepared.get(key)
        if prepared is None:
            prepared = self._prepared[key] = self.kernel.prepare(config, device)
        self.kernel.launch(prepared, stream, *values)

    @property
    def _tensor_params(self) -> list[OpParam]:
        return [p for p in self.signature.params if p.role != "scalar"]

    def _simt_config(self, named: Mapping[str, Any], values: list[Any]) -> Any:
        """The launch configuration: the user's rule, else a 1-D grid over the first output (None when that
        output is empty: a grid of zero blocks is not a launch)."""
        from safekernels.simt.config import LaunchConfig1D

        if self._launch_rule is not None:
            return self._launch_rule(**{k: v[0] if isinstance(v, tuple) else v for k, v in named.items()})
        contract = self.kernel.contract
        if contract is None or contract.domain != 1 or contract.block is None:
            raise ValueError(
                f"{self.name}: `{self.kernel.name}` has no fixed 1-D block in its launch contract, so the launch "
                "configuration cannot be derived; pass launch=lambda **args: simt.LaunchConfig..."
            )
        out = next(v for v, p in zip(values, self.signature.params, strict=True) if p.role == "output")
        if len(out) == 0:
            return None
        return LaunchConfig1D.for_len(len(out), block=contract.block[0])
