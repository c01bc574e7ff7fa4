"""A kernel's operator signature, derived from its parameter kinds (pure: imports no framework).

torch's `custom_op` says `mutates_args` "MUST be accurate": a wrong list silently corrupts `torch.compile`
graphs.  Here it is not guessed, it is read off the ownership model: the parameters a launch writes are
exactly the exclusive ones (`ownership_model.ParamMode.MUT` for SIMT `DisjointSlice` / `AtomicSlice`,
tile `Partition`), and everything else is a shared read-only input or a scalar.

    tile:  z: Partition[f32], x: Tensor[f32], a: f32     ->  "(Tensor(a0!) z, Tensor x, float a) -> ()"
    simt:  x: Slice[f32], out: DisjointSlice[f32], n: u32 ->  "(Tensor x, Tensor(a0!) out, int n) -> ()"

With `outputs=` the operator is functional instead: the output parameters leave the argument list, the op
allocates them and returns them (`"(Tensor x, float a) -> Tensor"`), which is what autograd and most users want,
and the only form JAX has (its arrays are immutable).  `schema()` renders the signature in torch.library's
schema language.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from safekernels.dtypes import DType
from safekernels.ownership_model import ParamMode

Role = Literal["output", "input", "scalar"]
#: How a functional op sizes one output: another parameter's name (same shape), a fixed shape, or a function
#: of the input tensors (by parameter name) returning a shape.
OutputRule = str | tuple[int, ...] | Callable[..., Sequence[int]]


@dataclass(frozen=True)
class OpParam:
    """One kernel parameter as the torch operator sees it."""

    name: str
    role: Role
    dtype: DType | None  # None: generic element type (any dtype)
    track: Literal["tile", "simt"]
    atomic: bool = False  # AtomicSlice / AtomicTensor: accumulates into its contents (a functional op zero-fills it)

    @property
    def schema_type(self) -> str:
        if self.role != "scalar":
            return "Tensor"
        assert self.dtype is not None
        return {"f": "float", "b": "bool"}.get(self.dtype.kind, "int")


def op_params(kernel: Any) -> list[OpParam]:
    """The parameters of a `@tile.kernel` or `@simt.kernel`, classified by what a launch does to them."""
    from safekernels.simt.kernel import SimtKernel
    from safekernels.tile.kernel import TileKernel

    if isinstance(kernel, TileKernel):
        roles: dict[str, Role] = {"partition": "output", "atomic": "output", "tensor": "input", "scalar": "scalar"}
        return [OpParam(p.name, roles[p.kind], p.dtype, "tile", atomic=p.kind == "atomic") for p in kernel.params]
    if isinstance(kernel, SimtKernel):
        out: list[OpParam] = []
        for p in kernel.params:
            if not p.is_buffer:
                out.append(OpParam(p.name, "scalar", p.dtype, "simt"))
            elif p.mode is ParamMode.MUT:
                out.append(OpParam(p.name, "output", p.dtype, "simt", atomic=p.kind == "atomic"))
            else:
                out.append(OpParam(p.name, "input", p.dtype, "simt"))
        return out
    raise TypeError(
        f"custom_op takes a @tile.kernel or a @simt.kernel, got {type(kernel).__name__}: decorate the function "
        "with @tile.kernel or @simt.kernel first"
    )


@dataclass(frozen=True)
class OpSignature:
    """The torch-facing shape of one registered kernel."""

    params: tuple[OpParam, ...]
    functional: bool  # True: outputs are allocated and returned; False: outputs are mutated arguments

    @property
    def arguments(self) -> tuple[OpParam, ...]:
        """The operator's arguments, in kernel order (outputs excluded when functional)."""
        return tuple(p for p in self.params if not (self.functional and p.role == "output"))

    @property
    def outputs(self) -> tuple[OpParam, ...]:
        return tuple(p for p in self.params if p.role == "output")

    @property
    def mutates_args(self) -> tuple[str, ...]:
        """Exactly the arguments the launch writes (empty for a functional op)."""
        return () if self.functional else tuple(p.name for p in self.outputs)

    def schema(self) -> str:
        """torch.library's schema string for this signature."""
        args: list[str] = []
        for i, p in enumerate(self.arguments):
            kind = f"Tensor(a{i}!)" if p.role == "output" else p.schema_type
            args.append(f"{kind} {p.name}")
        if not self.functional:
            returns = "()"
        elif len(self.outputs) == 1:
            returns = "Tensor"
        else:
            returns = "(" + ", ".join("Tensor" for _ in self.outputs) + ")"
        return f"({', '.join(args)}) -> {returns}"


def op_signature(kernel: Any, name: str, outputs: Mapping[str, OutputRule] | None) -> OpSignature:
    """The signature of `kernel` registered as `name`; `outputs` (if any) must name every output parameter."""
    params = tuple(op_params(kernel))
    if outputs is None:
        return OpSignature(params, functional=False)
    expected = [p.name for p in params if p.role == "output"]
    inputs = {p.name for p in params if p.role == "input"}
    unknown = [k for k in outputs if k not in expected]
    if unknown:
        raise ValueError(
            f"custom_op {name!r}: outputs= names {', '.join(map(repr, unknown))}, which "
            f"{'is' if len(unknown) == 1 else 'are'} not output parameters of `{kernel.name}` "
            f"(its outputs: {', '.join(expected)})"
        )
    missing = [k for k in expected if k not in outputs]
    if missing:
        raise ValueError(
            f"custom_op {name!r}: outputs= must say how to allocate every output of `{kernel.name}`; missing "
            f"{', '.join(map(repr, missing))} (leave outputs= out to register the in-place form instead)"
        )
    for out_name, rule in outputs.items():
        if isinstance(rule, str) and rule not in inputs:
            raise ValueError(
                f"custom_op {name!r}: output `{out_name}` is sized like {rule!r}, which is not a tensor input of "
                f"`{kernel.name}` (its inputs: {', '.join(sorted(inputs)) or 'none'})"
            )
    return OpSignature(params, functional=True)
