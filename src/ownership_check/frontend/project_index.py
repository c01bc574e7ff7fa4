"""The project index: every relevant module of one run, its import bindings and its kernels.

A kernel defined in `kernels.py` and launched from `main.py` (`from kernels import add`, `import kernels as
k`, or through a package that re-exports it) resolves to the same `KernelSummary` here.  Resolution follows
import bindings module by module (bounded depth, so import cycles cannot loop), exactly like Python's own
attribute lookup on modules, but without importing anything.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable

from ownership_check.frontend.prescan import FileSummary, KernelSummary


class ProjectIndex:
    def __init__(self, summaries: Iterable[FileSummary] = ()) -> None:
        self.modules: dict[str, FileSummary] = {}
        for summary in summaries:
            self.add(summary)
        self._resolved: dict[str, str] = {}

    def add(self, summary: FileSummary) -> None:
        self.modules[summary.module] = summary
        self._resolved = {}

    def resolve(self, qualified: str, depth: int = 0) -> str:
        """Follow re-exports: `pkg.add` -> `pkg.kernels.add` when `pkg/__init__.py` imports it."""
        if depth == 0 and qualified in self._resolved:
            return self._resolved[qualified]
        result = qualified
        # safekernels' public names are what the ownership table speaks: when the project is safekernels' own
        # checkout (its sources in the index), `safekernels.simt.kernel` must not resolve on to the module that
        # defines it.
        if depth < 12 and not (qualified == "safekernels" or qualified.startswith("safekernels.")):
            parts = qualified.split(".")
            for i in range(len(parts) - 1, 0, -1):
                module = ".".join(parts[:i])
                summary = self.modules.get(module)
                if summary is None:
                    continue
                head, rest = parts[i], parts[i + 1 :]
                if head in summary.imports and head not in summary.kernels:
                    target = ".".join([summary.imports[head], *rest])
                    if target != qualified:
                        result = self.resolve(target, depth + 1)
                break
        if depth == 0:
            self._resolved[qualified] = result
        return result

    def kernel(self, qualified: str) -> tuple[str, KernelSummary] | None:
        resolved = self.resolve(qualified)
        module, _, name = resolved.rpartition(".")
        summary = self.modules.get(module)
        if summary is None or name not in summary.kernels:
            return None
        return resolved, summary.kernels[name]

    def fingerprint(self) -> str:
        data = json.dumps({m: s.to_json() for m, s in sorted(self.modules.items())}, sort_keys=True)
        return hashlib.sha256(data.encode()).hexdigest()[:24]
