"""Run one batch of generated programs through both front ends and the CPU executor, and compare.

- the CLI (`ownership_check.api.check_paths`, the libcst front end), one program at a time;
- mypy with the plugin, the whole batch in one in-process run (each program is its own module);
- the runtime: `main(flag, k)` for a few argument values on the CPU executor; an ownership error
  (`UseAfterMoveError`, `AliasingError`, `BorrowError`, `BrandError`, `UnsafeOperationError`) raised from a line of
  the program is a line the static checker must report, and an `UnusedDeviceOpWarning` names the line of an op
  that never ran (W0003's twin).

The two front ends are compared on everything they report: code, line, column and the notes (the plugin's notes
are the CLI diagnostic's secondary labels, notes and help, as `mypy_plugin.reporting.notes_of` spells them).

A program that mypy does not type cleanly (a non-ownership error in it) is compared too, but counted apart: where
mypy cannot type a call, no hook fires there, and that is mypy's limit, not a disagreement.
"""

from __future__ import annotations

import ast
import contextlib
import functools
import gc
import importlib.util
import io
import os
import signal
import sys
import traceback
import warnings
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

from mypy_harness import Reported, ownership_errors, run_mypy, write_config

from safekernels.errors import (
    AliasingError,
    BorrowError,
    BrandError,
    UnsafeOperationError,
    UnusedDeviceOpWarning,
    UseAfterMoveError,
)

Row = tuple[int, int, str]  # line, column, code
Notes = dict[tuple[int, int, str, str], tuple[str, ...]]  # (line, column, code, message) -> notes

RUNTIME_ERRORS = (UseAfterMoveError, AliasingError, BorrowError, BrandError, UnsafeOperationError)
#: The codes both front ends report (W0001 and W0002 are the CLI's alone).
COMPARED = ("E", "W0003")
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
    cli_notes: Notes = field(default_factory=dict)
    plugin_notes: Notes = field(default_factory=dict)
    runs_clean: bool = False  # every run of `main` returned without any exception
    unrun_lines: set[int] = field(default_factory=set)  # lines that built an op collected unrun
    call_lines: dict[int, set[int]] = field(default_factory=dict)  # error line -> the calls that reached it
    executed: set[int] = field(default_factory=set)  # lines of the program some run executed
    runs_executed: list[frozenset[int]] = field(default_factory=list)  # the lines each run executed, per run
    # lines an exception passed through, caught or not: True where one was an ownership error
    raised_lines: dict[int, bool] = field(default_factory=dict)

    @property
    def disagrees(self) -> bool:
        return self.cli_as_mypy_prints != self.plugin or bool(_notes_diff(self))

    @property
    def cli_as_mypy_prints(self) -> set[Row]:
        """The CLI's rows as mypy would print the same diagnostics: mypy prints a message repeated on one line once,
        at its first column (`add(z, x, x)` using a moved `x` twice, with two different `help:` lines: the CLI
        keeps two diagnostics, mypy shows the second one's notes under the first)."""
        first: dict[tuple[int, str, str], int] = {}
        for line, column, code, message in self.cli_notes:
            key = (line, code, message)
            first[key] = min(first.get(key, column), column)
        hidden = {(line, column, code) for (line, column, code, message) in self.cli_notes
                  if column != first[(line, code, message)]}
        return self.cli - hidden

    @property
    def notes_mypy_hides(self) -> int:
        """CLI notes mypy does not print: it removes a message repeated on one line (a second diagnostic's
        identical `help:`), as it does for errors."""
        shown = mypy_view(self.cli_notes)
        return sum(len(notes) - len(shown[key]) for key, notes in self.cli_notes.items())

    @property
    def false_alarms(self) -> set[Row]:
        """Errors reported on a program that ran clean on every run (candidates: not every path ran)."""
        if not self.runs_clean:
            return set()
        return {row for row in self.cli | self.plugin if row[2].startswith("E")}

    @property
    def missed_runtime_lines(self) -> set[int]:
        reported = {row[0] for row in self.cli}
        # an error raised inside a helper of the program counts as reported at a call that reached it
        return {
            line
            for line in self.runtime_lines
            if line not in reported and not reported & self.call_lines.get(line, set())
        }


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
    return run_program(path)[0]


@contextlib.contextmanager
def _line_coverage(path: Path, lines: set[int] | None, raised: dict[int, bool] | None = None) -> Iterator[None]:
    """Record into `lines` the lines of `path` that run (only that file's frames are traced line by line), and into
    `raised` those an exception passed through (raised there or by a call there), caught by the program or not:
    True where one was an ownership error; nothing is traced when `lines` is None."""
    if lines is None:
        yield
        return
    filename = str(path)

    def local(frame: FrameType, event: str, arg: Any) -> Any:
        if event == "line":
            lines.add(frame.f_lineno)
        elif event == "exception" and raised is not None:
            line = frame.f_lineno
            raised[line] = raised.get(line, False) or issubclass(arg[0], RUNTIME_ERRORS)
        return local

    def tracer(frame: FrameType, event: str, arg: Any) -> Any:
        if frame.f_code.co_filename == filename:
            lines.add(frame.f_lineno)
            return local
        return None

    old = sys.gettrace()
    sys.settrace(tracer)
    try:
        yield
    finally:
        sys.settrace(old)


def run_program(
    path: Path,
    executed: set[int] | None = None,
    per_run: list[frozenset[int]] | None = None,
    raised: dict[int, bool] | None = None,
) -> tuple[set[int], bool, set[int], dict[int, set[int]]]:
    """Run `main` of `path` over RUN_ARGUMENTS on the CPU executor: the lines that raised an ownership error,
    whether every run returned cleanly, the lines that built an op collected unrun, and the lines of the calls
    through which an ownership error raised in a helper of the program came; the lines that ran go into
    `executed`, each run's own lines into `per_run` (to tell whether two lines ever ran in one run), and the lines
    an exception passed through into `raised` (one the program caught itself leaves its run clean)."""
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    found: set[int] = set()
    calls: dict[int, set[int]] = {}
    clean = True
    with (
        _cpu_executor(),
        contextlib.redirect_stdout(io.StringIO()),
        contextlib.redirect_stderr(io.StringIO()),
        warnings.catch_warnings(record=True) as caught,
    ):
        warnings.simplefilter("always")
        spec.loader.exec_module(module)
        for flag, k in RUN_ARGUMENTS:
            ran: set[int] | None = None if executed is None else set()
            if ran is not None and per_run is not None:
                per_run.append(frozenset())
            try:
                with _time_limit(RUN_SECONDS), _line_coverage(path, ran, raised):
                    module.main(flag, k)
            except RUNTIME_ERRORS as exc:
                clean = False
                frames = _root_error_frames(exc, path)
                if frames and frames[-1].lineno is not None:
                    found.add(frames[-1].lineno)
                    # raised inside a helper of the program: the call in `main` is where a checker reports it
                    chain = calls.setdefault(frames[-1].lineno, set())
                    chain.update(f.lineno for f in frames[:-1] if f.lineno is not None)
            except _TooLong:
                raise
            except Exception:  # any other failure (a NameError, a kernel trap, ...) ends this run of the program
                clean = False
            finally:
                if ran is not None and executed is not None:
                    executed |= ran
                    if per_run is not None:
                        per_run[-1] = frozenset(ran)
        gc.collect()
    unrun = {
        w.lineno for w in caught if issubclass(w.category, UnusedDeviceOpWarning) and Path(w.filename) == path
    }
    return found, clean, unrun, calls


def _root_error_frames(exc: BaseException, path: Path) -> list[traceback.FrameSummary]:
    """The frames of `path` an ownership error came through, attributed to the error that started it: one raised
    by a `finally` block while an earlier ownership error was propagating (its `__context__`) is a consequence of
    that earlier error (the cleanup touches what the failed statement had moved), and the earlier line is the one
    a checker reports; Python would show both, "During handling of the above exception"."""
    while True:
        frames = [f for f in traceback.extract_tb(exc.__traceback__) if Path(f.filename) == path]
        earlier = exc.__context__
        if not (
            frames
            and frames[-1].lineno in _finally_lines(path.read_text())
            and isinstance(earlier, RUNTIME_ERRORS)
            and not exc.__suppress_context__
        ):
            return frames
        exc = earlier


@functools.cache
def _finally_lines(source: str) -> frozenset[int]:
    """The lines of the `finally` blocks of a program's `source`."""
    lines: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Try | ast.TryStar):
            for statement in node.finalbody:
                lines.update(range(statement.lineno, (statement.end_lineno or statement.lineno) + 1))
    return frozenset(lines)


def run_batch(
    sources: Sequence[str],
    directory: Path,
    cache_dir: Path,
    run: bool = True,
    companions: Mapping[str, str] | None = None,
    trace_lines: bool = False,
) -> list[Outcome]:
    """Check (and run) every program of the batch; `directory` receives the files, and `companions` (file name ->
    text) the files of the project the programs belong to (modules they import, a `pyproject.toml`); with
    `trace_lines`, each outcome records the lines its runs executed."""
    from ownership_check.api import check_paths

    for name, text in (companions or {}).items():
        (directory / name).write_text(text, encoding="utf-8")
    outcomes: list[Outcome] = []
    paths: list[Path] = []
    for i, source in enumerate(sources):
        name = f"fuzz_{os.getpid()}_{i}"
        path = directory / f"{name}.py"
        path.write_text(source, encoding="utf-8")
        paths.append(path)
        outcomes.append(Outcome(name, source))
    from mypy_plugin.reporting import notes_of

    for outcome, path in zip(outcomes, paths, strict=True):
        result = check_paths([str(path)], use_cache=False)
        outcome.internal_errors.extend(result.internal_errors)
        compared = [d for d in result.diagnostics if d.code.startswith(COMPARED)]
        outcome.cli = {(d.line, d.column, d.code) for d in compared}
        for d in compared:  # two diagnostics of one message at one position (different helps): both notes
            key = (d.line, d.column, d.code, d.message)
            outcome.cli_notes[key] = (*outcome.cli_notes.get(key, ()), *notes_of(d))
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
        owner = by_name.get(Path(row.path).stem)
        if owner is not None:
            owner.plugin.add((row.line, row.column, row.code or ""))
    for name, notes in _plugin_notes(reported).items():
        if name in by_name:
            by_name[name].plugin_notes = notes
    for row in reported:
        owner = by_name.get(Path(row.path).stem)
        if owner is not None and row.severity == "error" and not (row.code or "").startswith(COMPARED):
            owner.typed = False
    if run:
        sys.path.insert(0, str(directory))
        try:
            for outcome, path in zip(outcomes, paths, strict=True):
                outcome.runtime_lines, outcome.runs_clean, outcome.unrun_lines, calls = run_program(
                    path,
                    outcome.executed if trace_lines else None,
                    outcome.runs_executed if trace_lines else None,
                    outcome.raised_lines if trace_lines else None,
                )
                outcome.call_lines = calls
        finally:
            sys.path.remove(str(directory))
    return outcomes


def _plugin_notes(reported: Sequence[Reported]) -> dict[str, Notes]:
    """Per module: the notes mypy printed after each ownership error, at the error's own position."""
    found: dict[str, Notes] = {}
    current: tuple[str, tuple[int, int, str, str]] | None = None
    compared = {(r.path, r.line, r.column, r.code) for r in ownership_errors(list(reported))}
    for r in reported:
        name = Path(r.path).stem
        if r.severity == "error":
            row = (r.line, r.column, r.code or "", r.message)
            current = (name, row) if (r.path, r.line, r.column, r.code) in compared else None
            if current is not None:
                found.setdefault(name, {})[row] = ()
        elif r.severity == "note" and current is not None and current[0] == name and r.line == current[1][0]:
            module = found[name]
            module[current[1]] = (*module[current[1]], r.message)
    return found


def describe(outcome: Outcome) -> str:
    numbered = "\n".join(f"{i:3} {text}" for i, text in enumerate(outcome.source.splitlines(), 1))
    return (
        f"{outcome.name}: cli-only={sorted(outcome.cli_as_mypy_prints - outcome.plugin)} "
        f"plugin-only={sorted(outcome.plugin - outcome.cli_as_mypy_prints)} runtime={sorted(outcome.runtime_lines)} "
        f"missed={sorted(outcome.missed_runtime_lines)} typed={outcome.typed} internal={outcome.internal_errors}\n"
        f"notes differ: {_notes_diff(outcome)}\n"
        f"{numbered}"
    )


def mypy_view(notes: Notes) -> Notes:
    """`notes` as mypy prints them: in position order, a note already printed on the same line is dropped."""
    shown: Notes = {}
    seen: dict[int, set[str]] = {}
    for key in sorted(notes, key=lambda k: (k[0], k[1])):
        on_line = seen.setdefault(key[0], set())
        shown[key] = tuple(n for n in notes[key] if n not in on_line)
        on_line.update(notes[key])
    return shown


def _notes_diff(outcome: Outcome) -> list[tuple[int, tuple[str, ...], tuple[str, ...]]]:
    """The lines whose notes differ, compared as the set of notes printed on each line (as the golden parity test
    compares them): mypy ties a note to no error and prints it once per line, and prints a message repeated on a
    line once, with the notes of every diagnostic behind it (`core.check_module` merges such diagnostics, or keeps
    two where their `help:` differs)."""
    cli: dict[int, set[str]] = {}
    plugin: dict[int, set[str]] = {}
    for (line, _, _, _), notes in outcome.cli_notes.items():
        cli.setdefault(line, set()).update(notes)
    for (line, _, _, _), notes in outcome.plugin_notes.items():
        plugin.setdefault(line, set()).update(notes)
    return [
        (line, tuple(sorted(cli.get(line, ()))), tuple(sorted(plugin.get(line, ()))))
        for line in sorted(set(cli) | set(plugin))
        if cli.get(line, set()) != plugin.get(line, set())
    ]
