"""`@simt.autotune(configs=[128, 256, 512], key=[...])`: a SIMT kernel that picks its fastest block size.

The kernel's launch contract must leave the block open (`@simt.launch_contract(domain=1)`, no `block=`), or
fix it to the single block being "tuned"; each candidate is then an ordinary prepared, safe launch
(`kernel.prepare(config, device)`, `kernel.launch(prepared, stream, *args)`), so tuning never skips a check.
The launch configuration of a block size comes from `grid=` (`grid(*args, block=b) -> LaunchConfig`), by
default a 1-D grid covering the first output.  Call `tuned.launch(stream, *args)`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from safekernels.autotune.config import configs_text
from safekernels.autotune.tuner import ConfigChooser, TuningSpace
from safekernels.runtime.buffer import as_buffer
from safekernels.runtime.device import Stream
from safekernels.simt.config import LaunchConfig1D
from safekernels.simt.kernel import PreparedLaunch, SimtKernel

Block = int | tuple[int, ...]


class AutotunedSimtKernel:
    """A SIMT kernel with candidate block sizes; `launch(stream, *args)` runs the fastest for the key."""

    def __init__(
        self,
        kernel: SimtKernel,
        configs: Sequence[Block],
        key: Sequence[str],
        *,
        grid: Callable[..., Any] | None = None,
        warmup: float = 25,
        rep: float = 100,
        verbose: bool = True,
    ) -> None:
        if not isinstance(kernel, SimtKernel):
            raise TypeError(
                "simt.autotune decorates a @simt.kernel: put @simt.autotune(...) above @simt.kernel, "
                f"got {type(kernel).__name__}"
            )
        name = kernel.name
        if not configs or not all(isinstance(c, int | tuple) for c in configs):
            raise TypeError(f"simt.autotune({name}): configs must be a non-empty list of block sizes")
        contract = kernel.contract
        if contract is None:
            raise ValueError(f"simt.autotune({name}): the kernel needs a launch contract (e.g. domain=1, no block)")
        if contract.block is not None:
            fixed = contract.block[0] if contract.domain == 1 else contract.block[: contract.domain]
            if any(c != fixed for c in configs):
                raise ValueError(
                    f"simt.autotune({name}): the launch contract fixes block={fixed}, so other block sizes "
                    "would be refused; declare @simt.launch_contract without block= to let the tuner choose"
                )
        if grid is None and (contract.domain != 1 or not all(isinstance(c, int) for c in configs)):
            raise ValueError(
                f"simt.autotune({name}): only 1-D int block sizes have a default grid; pass "
                "grid=lambda *args, block: simt.LaunchConfig..."
            )
        params = [p.name for p in kernel.params]
        bad = [k for k in key if k not in params]
        if bad:
            raise ValueError(
                f"simt.autotune({name}): key names {', '.join(map(repr, bad))}, not parameters of `{name}` "
                f"({', '.join(params)})"
            )
        self.kernel = kernel
        self.name = name
        self.configs = list(configs)
        self.key = tuple(key)
        self._grid = grid
        self._prepared: dict[Any, PreparedLaunch[Any]] = {}
        space = TuningSpace(
            track="simt",
            name=name,
            fn=kernel.py_function,
            descriptions=[f"block={c}" for c in self.configs],
            record_field="block",
            records=self.configs,
            configs_text=configs_text(self.configs),
        )
        self._chooser = ConfigChooser(space, warmup=warmup, rep=rep, verbose=verbose)
        self.tune_stats = self._chooser.stats
        self.best = self._chooser.best

    def __repr__(self) -> str:
        return f"<simt.autotune {self.name}: blocks {self.configs}, key={list(self.key)}>"

    def _config(self, block: Block, args: Sequence[Any]) -> Any:
        if self._grid is not None:
            return self._grid(*args, block=block)
        out = next(a for a, p in zip(args, self.kernel.params, strict=True) if p.is_mutable)
        assert isinstance(block, int)
        return LaunchConfig1D.for_len(len(as_buffer(out)), block=block)

    def prepared(self, index: int, stream: Stream, args: Sequence[Any]) -> PreparedLaunch[Any]:
        config = self._config(self.configs[index], args)
        memo = (config, id(stream.device))
        prepared = self._prepared.get(memo)
        if prepared is None:
            prepared = self._prepared[memo] = self.kernel.prepare(config, stream.device)
        return prepared

    def key_values(self, args: Sequence[Any]) -> tuple[Any, ...]:
        by_name = dict(zip((p.name for p in self.kernel.params), args, strict=True))
        kinds = {p.name: p for p in self.kernel.params}
        out: list[Any] = []
        for name in self.key:
            value = by_name[name]
            if kinds[name].is_buffer:
                buffer = as_buffer(value)
                out.append((len(buffer), buffer.dtype.name))
            else:
                out.append(value)
        return tuple(out)

    def choose(self, stream: Stream, args: Sequence[Any]) -> int:
        """The winning block's index for these arguments (memory, disk, or a tuning run now)."""

        def candidates() -> list[Callable[[], object]]:
            runs: list[Callable[[], object]] = []
            for i in range(len(self.configs)):

                def run(i: int = i) -> None:
                    self.kernel.launch(self.prepared(i, stream, args), stream, *args)

                runs.append(run)
            return runs

        def outputs() -> list[Any]:
            return [as_buffer(a) for a, p in zip(args, self.kernel.params, strict=True) if p.is_mutable]

        return self._chooser.choose(stream, self.key_values(args), candidates, outputs)

    def launch(self, stream: Stream, *args: Any) -> None:
        """The safe launch with the tuned block size (tuning first when this key is new)."""
        index = self.choose(stream, args)
        self.kernel.launch(self.prepared(index, stream, args), stream, *args)


def autotune(
    configs: Sequence[Block],
    key: Sequence[str] = (),
    *,
    grid: Callable[..., Any] | None = None,
    warmup: float = 25,
    rep: float = 100,
    verbose: bool = True,
) -> Callable[[SimtKernel], AutotunedSimtKernel]:
    """Decorate a `@simt.kernel` with candidate block sizes (see the module docstring)."""

    def wrap(kernel: SimtKernel) -> AutotunedSimtKernel:
        return AutotunedSimtKernel(kernel, configs, key, grid=grid, warmup=warmup, rep=rep, verbose=verbose)

    return wrap
