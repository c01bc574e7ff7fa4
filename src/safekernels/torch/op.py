"""`custom_op`: a safekernels kernel registered as a `torch.library` operator.

    softmax_op = safekernels.torch.custom_op("mylib::softmax", softmax, outputs={"out": "x"})
    y = torch.compile(lambda x: softmax_op(x) * 2, fullgraph=True)(x)

What torch needs from a custom operator, and where each piece comes from here:

    schema, mutates_args   <- the kernel's parameter kinds (`signature`): exactly the exclusive outputs
    fake (meta) kernel     <- the same launch shape check the real launch runs (tile: dtypes, `Dims`, the grid
                              of each output partition from its tile shape; SIMT: dtypes), over FakeTensor
                              shapes; a functional op allocates its outputs with the same rule in both modes
    real kernel            <- a launch on torch's current stream, tensors wrapped without copies (`bridge`)
    autograd               <- optional: `op.register_autograd(backward, setup_context=...)` (functional ops)

So `torch.compile(fullgraph=True)` traces through the operator without a graph break, CUDA-graph capture
records its launch (torch's capture stream is the current stream), and `torch.library.opcheck` finds the
declared mutations to be the real ones.  The launch is the ordinary safe launch: dtypes, shapes and the
runtime aliasing refusal apply exactly as when the kernel is launched by hand.

A call that nothing is tracing goes straight to the planned launch (`DirectCall`): torch's dispatcher would
only route it to the same real kernel, so while no `torch.compile` trace, fake or dispatch mode, torch-function
mode, functorch transform, profiler or JIT trace is active, and no argument needs autograd, `op(x)` skips it.
The first such call with a new (shapes, dtypes, devices) signature runs the real kernel and keeps what it
checked (the kernel's launch plan, the output allocations); a repeat wraps the tensors (address only), finds
the plan with one dict lookup and calls its generated launcher.  Everything else (`op.opoverload`, compiled
graphs, CUDA-graph capture inside `torch.compile`, autograd) goes through torch's dispatcher, whose real kernel
(`_impl`) launches a signature seen before from the same recorded plan (`DirectCall.dispatched`).

Tile outputs need a tile shape (it fixes the grid): by default the output's `Dims` when they are all fixed
ints, else `tile_shapes={"z": (128,)}` or `tile_shapes={"z": lambda shape: ...}`.  SIMT launches need a
launch configuration: by default a 1-D grid over the first output's length with the contract's block, else
`launch=lambda **args: simt.LaunchConfig...` (tensors arrive as their `DeviceBuffer`s, scalars as values).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from safekernels.frameworks.launcher import OpLauncher, TileShapeRule
from safekernels.frameworks.signature import OpSignature, OutputRule, op_signature
from safekernels.torch import bridge
from safekernels.torch.direct_call import DirectCall


def _shape(tensor: Any) -> tuple[int, ...]:
    return tuple(int(d) for d in tensor.shape)


class SafeKernelOp:
    """A registered operator: call it like a function (`op(x)`), or use `op.opoverload` with torch APIs."""

    def __init__(
        self,
        name: str,
        kernel: Any,
        signature: OpSignature,
        *,
        outputs: Mapping[str, OutputRule] | None,
        tile_shapes: Mapping[str, TileShapeRule] | None,
        launch: Callable[..., Any] | None,
        device_types: str | Sequence[str] | None,
    ) -> None:
        import torch

        self.name = name
        self.kernel = kernel
        self.signature = signature
        self._torch = torch
        self._outputs = dict(outputs or {})
        self._arg_names = tuple(p.name for p in signature.arguments)
        self.launcher = OpLauncher(f"custom_op {name!r}", kernel, signature, tile_shapes=tile_shapes, launch=launch)
        if signature.functional and not any(p.role == "input" for p in signature.arguments):
            raise ValueError(
                f"custom_op {name!r}: a functional op allocates its outputs on its inputs' device, but "
                f"`{kernel.name}` has no tensor input; register the in-place form (leave outputs= out)"
            )
        self.op = torch.library.custom_op(
            name,
            self._impl,
            mutates_args=signature.mutates_args,
            device_types=device_types,
            schema=signature.schema(),
        )
        self.op.register_fake(self._fake)
        self._has_autograd = False
        self.direct = DirectCall(self, torch, device_types)

    # -- torch-facing -----------------------------------------------------------------------------------------
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if kwargs:  # `op(x=a, y=b)`, as torch's own operators take their schema's names
            args = self._positional(args, kwargs)
        # `is_compiling` first: under dynamo it is a constant True, so the trace never looks at the direct path
        if not self._torch.compiler.is_compiling() and self.direct.untraced(args):
            return self.direct(args)
        return self.op(*args)

    @property
    def opoverload(self) -> Any:
        """`torch.ops.<namespace>.<name>.default` (for `opcheck`, `torch.library` APIs, graph inspection)."""
        return self.op._opoverload

    @property
    def mutates_args(self) -> tuple[str, ...]:
        return self.signature.mutates_args

    def register_autograd(
        self, backward: Callable[..., Any], *, setup_context: Callable[..., Any] | None = None
    ) -> None:
        """Attach a user-written backward (torch's `register_autograd`); only functional ops can have one."""
        if not self.signature.functional:
            raise TypeError(
                f"custom_op {self.name!r}: register_autograd needs the functional form (torch does not "
                "differentiate through in-place operators); register with outputs={...} so the op returns "
                "its outputs"
            )
        self.op.register_autograd(backward, setup_context=setup_context)
        self._has_autograd = True

    def __repr__(self) -> str:
        return f"<safekernels.torch op {self.name} {self.signature.schema()}>"

    # -- shared by the real and the fake kernel -----------------------------------------------------------------
    def _positional(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, ...]:
        names = self._arg_names
        unknown = [k for k in kwargs if k not in names]
        if unknown:
            raise TypeError(f"{self.name}: unexpected keyword argument `{unknown[0]}` (it takes {', '.join(names)})")
        given = dict(zip(names, args, strict=False))
        for k, v in kwargs.items():
            if k in given:
                raise TypeError(f"{self.name}: got two values for argument `{k}`")
            given[k] = v
        missing = [n for n in names if n not in given]
        if missing or len(args) > len(names):
            raise TypeError(f"{self.name}: takes {len(names)} arguments ({', '.join(names)}), missing {missing}")
        return tuple(given[n] for n in names)

    def check_tensors(self, args: Sequence[Any]) -> None:
        """Every tensor parameter got a `torch.Tensor` (torch's dispatcher lets `None` through to the kernel)."""
        tensor = self._torch.Tensor
        for p, value in zip(self.signature.arguments, args, strict=False):
            if p.role != "scalar" and not isinstance(value, tensor):
                raise TypeError(f"{self.name}: argument `{p.name}` must be a torch.Tensor, got {type(value).__name__}")

    def _bind(self, args: Sequence[Any]) -> dict[str, Any]:
        return dict(zip(self._arg_names, args, strict=True))

    def _allocate_outputs(self, named: dict[str, Any]) -> None:
        """Functional form: add each output tensor to `named`, allocated by its rule (real or fake mode)."""
        tensors = {p.name: named[p.name] for p in self.signature.arguments if p.role == "input"}
        first = next(iter(tensors.values()))
        for p in self.signature.outputs:
            rule = self._outputs[p.name]
            if isinstance(rule, str):
                shape = _shape(tensors[rule])
            elif callable(rule):
                shape = tuple(int(d) for d in rule(**tensors))
            else:
                shape = tuple(int(d) for d in rule)
            dtype = bridge.torch_dtype(self._torch, p.dtype) if p.dtype is not None else first.dtype
            # SIMT threads may skip elements (get_mut returns None past the end) and atomics accumulate: zeros
            make = first.new_zeros if p.track == "simt" or p.atomic else first.new_empty
            named[p.name] = make(shape, dtype=dtype)

    def _check_static(self, named: dict[str, Any]) -> None:
        """The launch's shape and dtype checks on metadata only (what the fake kernel can know)."""
        where = f"{self.name} ({self.kernel.name})"
        self.launcher.check_static(
            {
                p.name: (_shape(named[p.name]), bridge.sk_dtype(named[p.name], where))
                for p in self.signature.params
                if p.role != "scalar"
            }
        )

    def _result(self, named: dict[str, Any]) -> Any:
        if not self.signature.functional:
            return None
        outs = tuple(named[p.name] for p in self.signature.outputs)
        return outs[0] if len(outs) == 1 else outs

    # -- the two kernels torch calls ------------------------------------------------------------------------
    def _fake(self, *args: Any) -> Any:
        named = self._bind(args)
        if self.signature.functional:
            self._allocate_outputs(named)
        self._check_static(named)
        return self._result(named)

    def _impl(self, *args: Any) -> Any:
        # What torch's dispatcher runs (compiled graphs, autograd, `opoverload`): a signature seen before
        # launches from its recorded plan, as an untraced eager call does (see `DirectCall.dispatched`).
        return self.direct.dispatched(args)

    def _checked_impl(self, *args: Any) -> Any:
        named = self._bind(args)
        if self.signature.functional:
            self._allocate_outputs(named)
        first = next(named[p.name] for p in self.signature.params if p.role != "scalar")
        device = bridge.sk_device(first)
        stream = bridge.current_stream(self._torch, device)
        placed = {
            p.name: named[p.name]
            if p.role == "scalar"
            else (bridge.wrap(named[p.name], device, f"{self.name}: `{p.name}`"), _shape(named[p.name]))
            for p in self.signature.params
        }
        self.launcher.launch(placed, device, stream)
        return self._result(named)


def custom_op(
    name: str,
    kernel: Any,
    *,
    outputs: Mapping[str, OutputRule] | None = None,
    tile_shapes: Mapping[str, TileShapeRule] | None = None,
    launch: Callable[..., Any] | None = None,
    device_types: str | Sequence[str] | None = None,
) -> SafeKernelOp:
    """Register `kernel` (a `@tile.kernel` or `@simt.kernel`) as the torch operator `name` ("namespace::op").

    Without `outputs` the operator takes every kernel parameter and writes its outputs in place (their names
    are its `mutates_args`).  With `outputs={"out": rule}` it is functional: it takes the inputs and scalars,
    allocates each output (rule: an input's name to copy its shape, a shape, or a function of the inputs by
    name returning a shape; the dtype is the parameter's) and returns them.  See the module docstring for
    `tile_shapes` and `launch`.
    """
    if not isinstance(name, str) or name.count("::") != 1 or not all(name.split("::")):
        raise ValueError(f"custom_op: the name must look like 'namespace::op_name', got {name!r}")
    signature = op_signature(kernel, name, outputs)
    return SafeKernelOp(
        name,
        kernel,
        signature,
        outputs=outputs,
        tile_shapes=tile_shapes,
        launch=launch,
        device_types=device_types,
    )
