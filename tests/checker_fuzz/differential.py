"""Run one batch of generated programs through both front ends and the CPU executor, and compare.

- the CLI (`ownership_check.api.check_paths`, the libcst front end), one program at a time;
- mypy with the plugin, the whole batch in one in-process run (each program is its own module);
- the runtime: `main(flag, k)` for a few argument values on the CPU executor; a `UseAfterMoveError`,
  `AliasingError` or `BorrowError` raised from a line of the program is a line the static checker must report.

A program that mypy does not type cleanly (a non-ownership error in it) is compared too, but counted apart: where
mypy cannot type a call, no hook fires there, and that is mypy's limit, not a disagreement.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import os
import signal
import sys
import traceback
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from mypy_harness import ownership_errors, run_mypy, write_config

from safekernels.errors import AliasingError, BorrowError, UseAfterMoveError

Row = tuple[int, int, str]  # line, column, code

RUNTIME_ERRORS = (UseAfterMoveError, AliasingError, BorrowError)
RUN_ARGUMENTS = ((False, 0), (True, 1), (False, 2), (True, 2))
RUN_SECONDS = 30.0


@dataclass
class Outcome:
    """What one program did."""

    name: str
    source: str
    cli: set[Row] = field(default_factory=set)
    plugin: set[Row] = field(default_factory=set)
    typed: bool = True
    runtime_lines: set[int] = field(default_factory=set)
    internal_errors: list[str] = field(default_factory=list)

    @property
    def disagrees(self) -> bool:
        return self.cli != self.plugin

    @property
    def missed_runtime_lines(self) -> set[int]:
        return {line for line in self.runtime_lines if line not in {row[0] for row in self.cli}}


@dataclass
class Counts:
    programs: int = 0
    typed: int = 0
    diagnostics: int = 0
    internal_errors: int = 0
    disagreements: int = 0
    disagreements_untyped: int = 0
    runtime_errors: int = 0
    runtime_missed: int = 0

    def add(self, outcome: Outcome) -> None:
        self.programs += 1
        self.typed += outcome.typed
        self.diagnostics += len(outcome.cli)
        self.internal_errors += len(outcome.internal_errors)
        if outcome.disagrees:
            if outcome.typed:
                self.disagreements += 1
            else:
                self.disagreements_untyped += 1
        self.runtime_errors += len(outcome.runtime_lines)
        self.runtime_missed += len(outcome.missed_runtime_lines)


class _TooLong(Exception):
    """A run of a generated program exceeded RUN_SECONDS (a generator bug: every loop it writes is bounded)."""


@contextlib.contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    if not hasattr(signal, "setitimer"):
        yield
        return

    def expire(signum: int, frame: object) -> None:
        raise _TooLong(f"a run took longer than {seconds} s")

    old = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


@contextlib.contextmanager
def _cpu_executor() -> Iterator[None]:
    old = os.environ.get("SAFEKERNELS_DEVICE")
    os.environ["SAFEKERNELS_DEVICE"] = "cpu"
    try:
        yield
    finally:
        if old is None:
            del os.environ["SAFEKERNELS_DEVICE"]
        else:
            os.environ["SAFEKERNELS_DEVICE"] = old


def runtime_lines(path: Path) -> set[int]:
    """Lines of `path` from which the runtime raised an ownership error, over RUN_ARGUMENTS."""
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    found: set[int] = set()
    with _cpu_executor(), contextlib.redirect_stdout(io.StringIO()):
        spec.loader.exec_module(module)
        for flag, k in RUN_ARGUMENTS:
            try:
                with _time_limit(RUN_SECONDS):
                    module.main(flag, k)
            except RUNTIME_ERRORS as exc:
                frames = [f for f in traceback.extract_tb(exc.__traceback__) if Path(f.filename) == path]
                if frames and frames[-1].lineno is not None:
                    found.add(frames[-1].lineno)
            except _TooLong:
                raise
            except Exception:  # any other failure (a NameError, ...) ends this run of the program
                pass
    return found


def run_batch(sources: Sequence[str], directory: Path, cache_dir: Path, run: bool = True) -> list[Outcome]:
    """Check (and run) every program of the batch; `directory` receives the files."""
    from ownership_check.api import check_paths

    outcomes: list[Outcome] = []
    paths: list[Path] = []
    for i, source in enumerate(sources):
        name = f"fuzz_{os.getpid()}_{i}"
        path = directory / f"{name}.py"
        path.write_text(source, encoding="utf-8")
        paths.append(path)
        outcomes.append(Outcome(name, source))
    for outcome, path in zip(outcomes, paths, strict=True):
        result = check_paths([str(path)], use_cache=False)
        outcome.internal_errors.extend(result.internal_errors)
        outcome.cli = {(d.line, d.column, d.code) for d in result.diagnostics if d.code.startswith("E")}
    # Code mypy finds unreachable is never type-checked, so no hook fires there: such programs count as untyped.
    config = write_config(directory, cache_dir, "warn_unreachable = True\n")
    old = os.getcwd()
    os.chdir(directory)
    try:
        reported, raw = run_mypy(["--config-file", str(config), *(p.name for p in paths)], allow_internal_errors=True)
    finally:
        os.chdir(old)
    by_name = {o.name: o for o in outcomes}
    for line in raw.splitlines():
        if "ownership checker internal error" in line:
            name = Path(line.split(":", 1)[0]).stem
            by_name.get(name, outcomes[0]).internal_errors.append(line)
    for row in ownership_errors(reported):
        outcome = by_name.get(Path(row.path).stem)
        if outcome is not None:
            outcome.plugin.add((row.line, row.column, row.code or ""))
    for row in reported:
        outcome = by_name.get(Path(row.path).stem)
        if outcome is not None and row.severity == "error" and not (row.code or "").startswith("E0"):
            outcome.typed = False
    if run:
        sys.path.insert(0, str(directory))
        try:
            for outcome, path in zip(outcomes, paths, strict=True):
                outcome.runtime_lines = runtime_lines(path)
        finally:
            sys.path.remove(str(directory))
    return outcomes


def describe(outcome: Outcome) -> str:
    numbered = "\n".join(f"{i:3} {text}" for i, text in enumerate(outcome.source.splitlines(), 1))
    return (
        f"{outcome.name}: cli-only={sorted(outcome.cli - outcome.plugin)} "
        f"plugin-only={sorted(outcome.plugin - outcome.cli)} runtime={sorted(outcome.runtime_lines)} "
        f"missed={sorted(outcome.missed_runtime_lines)} typed={outcome.typed} internal={outcome.internal_errors}\n"
        f"{numbered}"
    )
