"""The project index: every relevant module of one run, its import bindings and its kernels.

A kernel defined in `kernels.py` and launched from `main.py` (`from kernels import add`, `import kernels as
k`, or through a package that re-exports it) resolves to the same `KernelSummary` here.  Resolution follows
import bindings and `from M import *` statements module by module (any depth; a visited set ends import cycles),
like Python's own attribute lookup on modules, but without importing anything.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from typing import Any

from ownership_check.frontend.prescan import FileSummary, KernelSummary, safekernels_exports


class ProjectIndex:
    def __init__(self, summaries: Iterable[FileSummary] = ()) -> None:
        self.modules: dict[str, FileSummary] = {}
        for summary in summaries:
            self.add(summary)
        self._resolved: dict[str, str] = {}

    def add(self, summary: FileSummary) -> None:
        self.modules[summary.module] = summary
        self._resolved = {}

    def resolve(self, qualified: str) -> str:
        """Follow re-exports: `pkg.add` -> `pkg.kernels.add` when `pkg/__init__.py` imports it (by name or by
        `from .kernels import *`), however long the chain; a cycle of re-exports ends where it closes."""
        found = self._resolved.get(qualified)
        if found is not None:
            return found
        result = qualified
        seen: set[str] = set()
        while result not in seen:
            seen.add(result)
            step = self._step(result, seen)
            if step is None:
                break
            result = step
        self._resolved[qualified] = result
        return result

    def _step(self, qualified: str, seen: set[str]) -> str | None:
        """One re-export hop of `qualified`, or None when it is where the name is defined (or unknown)."""
        # safekernels' public names are what the ownership table speaks: when the project is safekernels' own
        # checkout (its sources in the index), `safekernels.simt.kernel` must not resolve on to the module that
        # defines it.
        if qualified == "safekernels" or qualified.startswith("safekernels."):
            return None
        parts = qualified.split(".")
        for i in range(len(parts) - 1, 0, -1):
            summary = self.modules.get(".".join(parts[:i]))
            if summary is None:
                continue
            head, rest = parts[i], parts[i + 1 :]
            if head in summary.kernels:
                return None
            if head in summary.imports:
                target = ".".join([summary.imports[head], *rest])
                return target if target != qualified else None
            for star in reversed(summary.star_imports):  # `from .k import *`: the last star import wins
                target = ".".join([star, head, *rest])
                if target not in seen and self._defines(target, seen):
                    return target
            return None
        return None

    def _defines(self, qualified: str, seen: set[str]) -> bool:
        """Whether `qualified`'s module binds its name (a kernel, an import, a safekernels export), directly or
        through its own star imports, without revisiting `seen` (iterative: chains of any length)."""
        stack = [qualified]
        visited = set(seen)
        while stack:
            current = stack.pop()
            if current in visited:
                continue
            visited.add(current)
            module, _, name = current.rpartition(".")
            if module == "safekernels" or module.startswith("safekernels."):
                if name in safekernels_exports(module):
                    return True
                continue
            summary = self.modules.get(module)
            if summary is None:
                continue
            if name in summary.kernels or name in summary.imports:
                return True
            stack.extend(f"{star}.{name}" for star in summary.star_imports)
        return False

    def qualify_star(self, name: str, stars: list[str]) -> str | None:
        """`name` (a dotted expression whose first segment no binding of the file names) through the file's
        `from M import *` statements, the last one that binds it winning; None when none does."""
        head, _, rest = name.partition(".")
        for star in reversed(stars):
            target = f"{star}.{head}"
            if self._defines(target, set()):
                return f"{target}.{rest}" if rest else target
        return None

    def kernel(self, qualified: str) -> tuple[str, KernelSummary] | None:
        resolved = self.resolve(qualified)
        module, _, name = resolved.rpartition(".")
        summary = self.modules.get(module)
        if summary is None or name not in summary.kernels:
            return None
        return resolved, summary.kernels[name]

    def fingerprint(self) -> str:
        """What one file's analysis can read of the project: every module's bindings and kernels, without the
        lines kernels are defined on and without the kernels local to a function body (only their own file
        reads those, and its content hash already covers them).  A file's cached diagnostics stay valid while this
        is unchanged, so editing one function body (which shifts the kernels below it) re-analyses that file only.
        """
        data = json.dumps({m: _observable(s.to_json()) for m, s in sorted(self.modules.items())}, sort_keys=True)
        return hashlib.sha256(data.encode()).hexdigest()[:24]


def _observable(summary: dict[str, Any]) -> dict[str, Any]:
    kernels = {name: {k: v for k, v in kernel.items() if k != "line"} for name, kernel in summary["kernels"].items()}
    return {**{k: v for k, v in summary.items() if k != "local_kernels"}, "kernels": kernels}
