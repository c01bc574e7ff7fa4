"""Run surface programs (`surface.py`) through both front ends and the CPU executor; count what the oracle says.

    programs --write--> files --CLI, mypy + plugin, runtime--> `differential.Outcome`s --> `SurfaceReport`

The report holds the table's coverage (every entry, expression form and flow form, with how many times it was
generated), the misses (a runtime ownership error on a line neither front end reports), the candidate false alarms
(an error reported on a program that ran clean on every run), classified by code and statement, the disagreements
between the CLI and the plugin (codes, positions, notes), and W0003 against its runtime twin.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from differential import Outcome, describe, run_batch
from surface import COMPANIONS, Program, coverage

_STATEMENT = re.compile(r"^\s*(?:[\w, ().\[\]]+ = )?(?P<head>[\w.]+(?:\(|\[)?)")


#: Forms the error index lists as ones the checker does not follow (docs/checker.md, before the index): the runtime
#: raises there, the checker stays silent by design.  A miss whose line (or the call that reached it) uses one of
#: them (a pattern searched in the line) is counted apart from the real misses, by this reason.
DOCUMENTED_UNSEEN: dict[str, str] = {
    r"\bh\.[abc]\b": "an attribute of an object built by a call (`Bufs(a, b, c).a`)",
    r"\bmade\(": "a kernel returned by a kernel factory (`made = make_tile_kernel()`)",
    r"\bHolder\d+\(.*\)\.run\(\)": "a method of a class holding buffers, called while the caller's op borrows them",
    r"\bawait awaited\d+\(": "an `async def` awaited from another nested function (not called by its name in `main`)",
}


def unseen_reason(outcome: Outcome, line: int) -> str | None:
    """Why a missed runtime error at `line` is in a form the checker documents it does not follow, or None."""
    lines = outcome.source.splitlines()
    main = next(i for i, text in enumerate(lines, 1) if text.startswith("def main("))
    candidates = [line, *sorted(outcome.call_lines.get(line, set()))]
    for number in candidates:
        text = lines[number - 1] if 0 < number <= len(lines) else ""
        for marker, reason in DOCUMENTED_UNSEEN.items():
            if re.search(marker, text):
                return reason
    if line < main:
        return "a helper or method body, reached from `main` (calls of functions and methods)"
    if any(_AWAITED_RUN.search(text) for text in lines[main:line - 1]):
        # what an `async def` awaited from another one does to the `nonlocal` names is not applied at the
        # `asyncio.run(...)` that runs them (the error index lists calls other than by name in `main`)
        return DOCUMENTED_UNSEEN[r"\bawait awaited\d+\("]
    return None


_AWAITED_RUN = re.compile(r"^\s*asyncio\.run\(outer_awaited\d+\(\)\)")


def statement_kind(source: str, line: int) -> str:
    """A short name for the statement on `line` (`vecadd.launch(`, `add(`, `print(`...), to classify reports."""
    lines = source.splitlines()
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    match = _STATEMENT.match(text)
    return match.group("head") if match else text.strip()[:30]


@dataclass
class SurfaceReport:
    programs: int = 0
    typed: int = 0
    ran_clean: int = 0
    runtime_errors: int = 0
    internal_errors: int = 0
    diagnostics: Counter[str] = field(default_factory=Counter)
    misses: list[tuple[Outcome, int]] = field(default_factory=list)
    unseen: Counter[str] = field(default_factory=Counter)  # misses in documented unseen forms, by reason
    false_alarms: Counter[str] = field(default_factory=Counter)
    false_alarm_examples: dict[str, Outcome] = field(default_factory=dict)
    disagreements: list[Outcome] = field(default_factory=list)
    disagreements_untyped: int = 0
    notes_mypy_hides: int = 0
    unrun_without_w0003: int = 0
    w0003_runs_clean_no_warning: int = 0
    generated: list[Program] = field(default_factory=list)

    def add(self, program: Program, outcome: Outcome) -> None:
        self.programs += 1
        self.generated.append(program)
        self.typed += outcome.typed
        self.ran_clean += outcome.runs_clean
        self.runtime_errors += len(outcome.runtime_lines)
        self.internal_errors += len(outcome.internal_errors)
        self.diagnostics.update(code for _, _, code in outcome.cli)
        reported = {line for line, _, _ in outcome.cli | outcome.plugin}
        for line in sorted(outcome.runtime_lines - reported):
            if reported & outcome.call_lines.get(line, set()):
                continue  # raised in a helper, reported at the call that reached it
            reason = unseen_reason(outcome, line)
            if reason is None:
                self.misses.append((outcome, line))
            else:
                self.unseen[reason] += 1
        for line, _, code in sorted(outcome.false_alarms):
            ran = "ran clean" if line in outcome.executed else "never ran"
            key = f"{code} at `{statement_kind(outcome.source, line)}` ({ran})"
            self.false_alarms[key] += 1
            self.false_alarm_examples.setdefault(key, outcome)
        self.notes_mypy_hides += outcome.notes_mypy_hides
        if outcome.disagrees:
            if outcome.typed:
                self.disagreements.append(outcome)
            else:
                self.disagreements_untyped += 1
        w0003 = {line for line, _, code in outcome.cli if code == "W0003"}
        self.unrun_without_w0003 += len(outcome.unrun_lines - w0003)
        if outcome.runs_clean and w0003 and not outcome.unrun_lines:
            self.w0003_runs_clean_no_warning += 1

    def merge(self, other: SurfaceReport) -> None:
        """Add a report over other programs (a chunk of a long run) to this one."""
        for name, value in vars(other).items():
            mine = getattr(self, name)
            if isinstance(value, dict) and not isinstance(value, Counter):
                for key, item in value.items():
                    mine.setdefault(key, item)
            elif isinstance(value, Counter | list):
                mine += value
            else:
                setattr(self, name, mine + value)

    def failures(self) -> list[str]:
        """What must be zero: misses, internal errors, disagreements where mypy types the program."""
        out = [f"miss at line {line}: {describe(o)}" for o, line in self.misses[:3]]
        out += [f"disagreement: {describe(o)}" for o in self.disagreements[:3]]
        if self.internal_errors:
            out.append(f"{self.internal_errors} internal errors")
        return out

    def table(self, minimum: int) -> str:
        entries, expressions, flows = coverage(self.generated)
        lines = [
            f"programs {self.programs}, typed by mypy {self.typed}, ran clean {self.ran_clean}, "
            f"runtime ownership errors {self.runtime_errors}, internal errors {self.internal_errors}",
            f"diagnostics (CLI): {dict(sorted(self.diagnostics.items()))}",
            f"misses (runtime error on a line neither front end reports): {len(self.misses)}"
            + "".join(f"; {o.name} line {line}" for o, line in self.misses),
            f"runtime errors in forms the error index says the checker does not follow: {sum(self.unseen.values())}",
            *(f"    {count:5}  {reason}" for reason, count in self.unseen.most_common()),
            f"disagreements CLI vs plugin (codes, positions, notes): {len(self.disagreements)} "
            f"(+{self.disagreements_untyped} where mypy does not type the program; notes compared as mypy prints "
            f"them: {self.notes_mypy_hides} repeated on their line were not printed)"
            + "".join(f"; {o.name}" for o in self.disagreements),
            f"candidate false alarms (an error on a program that ran clean): {sum(self.false_alarms.values())}",
            *(f"    {count:5}  {key}" for key, count in self.false_alarms.most_common()),
            f"ops collected unrun on a line without W0003: {self.unrun_without_w0003}; "
            f"programs with W0003 that ran clean with no op collected unrun: {self.w0003_runs_clean_no_warning}",
            f"table coverage (every entry at least {minimum} times):",
            *(f"    {count:5}  {name}" for name, count in sorted(entries.items())),
            "expression forms: " + ", ".join(f"{k} {v}" for k, v in sorted(expressions.items())),
            "flow forms: " + ", ".join(f"{k} {v}" for k, v in sorted(flows.items())),
        ]
        return "\n".join(lines)

    def under_covered(self, minimum: int) -> list[str]:
        entries, expressions, flows = coverage(self.generated)
        return [name for counts in (entries, expressions, flows) for name, n in counts.items() if n < minimum]


def run_surface(programs: Sequence[Program], directory: Path, cache: Path, report: SurfaceReport) -> None:
    """Check and run `programs` (one mypy run for the batch), adding what happened to `report`."""
    outcomes = run_batch([p.source for p in programs], directory, cache, companions=COMPANIONS, trace_lines=True)
    for program, outcome in zip(programs, outcomes, strict=True):
        if program.seed is not None:
            outcome.name = f"seed {program.seed}"  # `random_program(seed)` regenerates it
        report.add(program, outcome)
