"""`@tile.autotune(configs=[tile.Config(...)], key=[...])`: a tile kernel that picks its fastest configuration.

Each `Config` becomes one `TileKernel` built from the same source with the config's module constants
replaced (a fresh function object over a copy of the module's globals; its annotations are re-read from the
source so `Dims(BM, BN)` follows the config) and the config's `num_warps`.  Output tile shapes come from the
config: every `Partition` parameter must have fixed `Dims` in each variant, and the caller may pass the output
as a `Tensor` (the tuned kernel partitions it) or as a `Partition` of any tile shape (it is re-cut for the
winner and handed back with the caller's tile shape).

A call moves its arguments like any launch and returns a `DeviceOp` of all of them; the choice (and, on a
miss, the tuning) happens when the op runs, on the op's stream.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
import types
from collections.abc import Callable, Sequence
from typing import Any

from safekernels.autotune.config import Config, configs_text
from safekernels.autotune.tuner import ConfigChooser, TuningSpace
from safekernels.runtime.buffer import DeviceBuffer
from safekernels.runtime.device import Stream
from safekernels.runtime.device_op import DeviceOp, launch_op
from safekernels.runtime.ownership import call_site
from safekernels.tile.kernel import TileKernel
from safekernels.tile.tensor import Partition, Tensor


def _annotation_sources(fn: Callable[..., Any]) -> dict[str, str]:
    """Each parameter's annotation as source text, so a variant evaluates it against its own constants."""
    raw = dict(getattr(fn, "__annotations__", {}))
    if all(isinstance(v, str) for v in raw.values()):
        return raw  # `from __future__ import annotations`: already text
    tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    node = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef))
    texts = {a.arg: ast.unparse(a.annotation) for a in node.args.args if a.annotation is not None}
    if node.returns is not None:
        texts["return"] = ast.unparse(node.returns)
    return texts


def make_variant(base: TileKernel, config: Config) -> TileKernel:
    """`base` rebuilt with `config`'s constants and `num_warps`."""
    fn = base.fn
    glb = fn.__globals__
    names = set(fn.__code__.co_names) | {n for text in _annotation_sources(fn).values() for n in _names_in(text)}
    unknown = [k for k in config.constants if k not in glb or k not in names]
    if unknown:
        raise ValueError(
            f"tile.autotune({base.name}): {', '.join(unknown)} "
            f"{'is not a module-level constant' if len(unknown) == 1 else 'are not module-level constants'} "
            f"that `{base.name}` uses; a Config overrides constants of the kernel's module"
        )
    new_globals = dict(glb)
    new_globals.update(config.constants)
    clone = types.FunctionType(fn.__code__, new_globals, fn.__name__, fn.__defaults__, fn.__closure__)
    clone.__qualname__ = fn.__qualname__
    clone.__module__ = fn.__module__
    clone.__doc__ = fn.__doc__
    clone.__annotations__ = _annotation_sources(fn)
    warps = config.num_warps if config.num_warps is not None else base.num_warps
    return TileKernel(
        clone, None, num_warps=warps, fast_math=base.fast_math, independent_shapes=base.independent_shapes
    )


def _names_in(text: str) -> set[str]:
    return {n.id for n in ast.walk(ast.parse(text, mode="eval")) if isinstance(n, ast.Name)}


def _fixed_tile_shape(kernel: TileKernel, name: str, config: Config) -> tuple[int, ...]:
    param = next(p for p in kernel.params if p.name == name)
    dims = param.dims.dims if param.dims is not None else ()
    if not dims or not all(isinstance(d, int) and d > 0 for d in dims):
        raise ValueError(
            f"tile.autotune({kernel.name}): output `{name}` needs fixed Dims in every config (got "
            f"{param.dims} for {config.text()}): the config decides its tile shape"
        )
    return tuple(int(d) for d in dims)


class AutotunedTileKernel:
    """A tile kernel with a tuning space; call it like the kernel: `op = gemm(c, a, b)`."""

    def __init__(
        self,
        base: TileKernel,
        configs: Sequence[Config],
        key: Sequence[str],
        *,
        warmup: float = 25,
        rep: float = 100,
        verbose: bool = True,
    ) -> None:
        if not isinstance(base, TileKernel):
            raise TypeError(
                "tile.autotune decorates a @tile.kernel: put @tile.autotune(...) above @tile.kernel, "
                f"got {type(base).__name__}"
            )
        if not configs or not all(isinstance(c, Config) for c in configs):
            raise TypeError(f"tile.autotune({base.name}): configs must be a non-empty list of tile.Config")
        params = [p.name for p in base.params]
        bad = [k for k in key if k not in params]
        if bad:
            raise ValueError(
                f"tile.autotune({base.name}): key names {', '.join(map(repr, bad))}, not parameters of "
                f"`{base.name}` ({', '.join(params)})"
            )
        self.base = base
        self.name = base.name
        self.params = base.params
        self.configs = list(configs)
        self.key = tuple(key)
        self.variants = [make_variant(base, c) for c in self.configs]
        self.tile_shapes = [
            {p.name: _fixed_tile_shape(v, p.name, c) for p in v.params if p.kind == "partition"}
            for v, c in zip(self.variants, self.configs, strict=True)
        ]
        space = TuningSpace(
            track="tile",
            name=self.name,
            fn=base.fn,
            descriptions=[c.text() for c in self.configs],
            record_field="config",
            records=[c.to_json() for c in self.configs],
            configs_text=configs_text(self.configs),
        )
        self._chooser = ConfigChooser(space, warmup=warmup, rep=rep, verbose=verbose)
        self.tune_stats = self._chooser.stats
        self.best = self._chooser.best

    @property
    def shape_ties(self) -> Any:
        """The base kernel's load-implied shape agreements (every variant has the same body)."""
        return self.base.shape_ties

    def __repr__(self) -> str:
        return f"<tile.autotune {self.name}: {len(self.configs)} configs, key={list(self.key)}>"

    def __call__(self, *args: Any) -> DeviceOp[tuple[Any, ...]]:
        if len(args) != len(self.params):
            names = ", ".join(p.name for p in self.params)
            raise TypeError(f"{self.name}() takes {len(self.params)} arguments ({names}), got {len(args)}")
        bound: list[Any] = []
        for param, arg in zip(self.params, args, strict=True):
            if param.kind == "scalar":
                bound.append(param.cast(arg) if param.cast is not None else arg)
            elif isinstance(arg, DeviceOp):
                arg._mark_moved(self.name)
                bound.append(arg)
            elif isinstance(arg, Tensor | Partition):
                if param.kind == "tensor" and isinstance(arg, Partition):
                    raise TypeError(f"{self.name}: parameter `{param.name}` is a shared Tensor input, got a Partition")
                bound.append(arg._take(self.name))
            elif isinstance(arg, DeviceBuffer) and param.kind == "tensor":
                arg._check_movable(self.name)
                bound.append(arg._take(self.name))
            else:
                raise TypeError(
                    f"{self.name}: parameter `{param.name}` takes a {param.kind.capitalize()} (or a DeviceOp of "
                    f"one), got {type(arg).__name__}"
                )
        device = next((a.device for a in bound if isinstance(a, Tensor | Partition | DeviceOp | DeviceBuffer)), None)
        tuned = self

        def run(stream: Stream) -> tuple[Any, ...]:
            values = [a._execute(stream) if isinstance(a, DeviceOp) else a for a in bound]
            return tuned._run(stream, values)

        return launch_op(
            DeviceOp(run, label=f"{self.name}(...) [autotuned]", device=device), self.name, call_site(self.name, 1)
        )

    # -- execution --------------------------------------------------------------------------------------------
    def _as_tensor(self, value: Any) -> Tensor[Any]:
        if isinstance(value, Partition):
            given: Tensor[Any] = Tensor(value.buffer, value.shape)
            return given
        if isinstance(value, DeviceBuffer):
            return Tensor(value, (value.length,))
        return value  # type: ignore[no-any-return]

    def _variant_values(self, index: int, tensors: list[Any]) -> list[Any]:
        tiles = self.tile_shapes[index]
        return [
            Partition(t.buffer, t.shape, tiles[p.name]) if p.kind == "partition" else t
            for p, t in zip(self.params, tensors, strict=True)
        ]

    def key_values(self, tensors: Sequence[Any]) -> tuple[Any, ...]:
        by_name = dict(zip((p.name for p in self.params), tensors, strict=True))
        out: list[Any] = []
        for name in self.key:
            value = by_name[name]
            out.append((value.shape, str(value.dtype)) if isinstance(value, Tensor) else value)
        return tuple(out)

    def choose(self, stream: Stream, tensors: list[Any]) -> int:
        """The winning config index for these values (memory, disk, or a tuning run now)."""

        def candidates() -> list[Callable[[], object]]:
            runs: list[Callable[[], object]] = []
            for i, variant in enumerate(self.variants):
                values = tuple(self._variant_values(i, tensors))

                def run(variant: TileKernel = variant, values: tuple[Any, ...] = values) -> None:
                    variant._launch_values(stream, values)

                runs.append(run)
            return runs

        def outputs() -> list[Any]:
            return [t.buffer for p, t in zip(self.params, tensors, strict=True) if p.kind == "partition"]

        return self._chooser.choose(stream, self.key_values(tensors), candidates, outputs)

    def _run(self, stream: Stream, values: list[Any]) -> tuple[Any, ...]:
        """Choose, launch the winner, and hand back every argument (an output as it was given: Tensor, or
        Partition with the caller's tile shape)."""
        tensors = [v if p.kind == "scalar" else self._as_tensor(v) for p, v in zip(self.params, values, strict=True)]
        index = self.choose(stream, tensors)
        launch_values = self._variant_values(index, tensors)
        # the variant's own launch path: its plan cache and generated GPU launcher after the first call, the
        # full checks (dtypes, Dims, grid, aliasing) on a plan miss
        self.variants[index]._launch_values(stream, tuple(launch_values))
        handed_back: list[Any] = []
        for p, original, tensor in zip(self.params, values, tensors, strict=True):
            if p.kind == "partition" and isinstance(original, Partition):
                handed_back.append(Partition(tensor.buffer, tensor.shape, original.tile_shape))
            elif p.kind == "partition":
                handed_back.append(tensor)
            else:
                handed_back.append(original)
        return tuple(handed_back)


def autotune(
    configs: Sequence[Config],
    key: Sequence[str] = (),
    *,
    warmup: float = 25,
    rep: float = 100,
    verbose: bool = True,
) -> Callable[[TileKernel], AutotunedTileKernel]:
    """Decorate a `@tile.kernel` with a tuning space (see the module docstring); `warmup`/`rep` go to do_bench."""

    def wrap(kernel: TileKernel) -> AutotunedTileKernel:
        return AutotunedTileKernel(kernel, configs, key, warmup=warmup, rep=rep, verbose=verbose)

    return wrap
