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
#: (None left: a kernel returned by a kernel factory and an `async def` awaited from another nested function are
#: followed now, so their runtime errors count as misses.)
DOCUMENTED_UNSEEN: dict[str, str] = {}


def unseen_reason(outcome: Outcome, line: int) -> str | None:
    """Why a missed runtime error at `line` is in a form the checker documents it does not follow, or None."""
    lines = outcome.source.splitlines()
    candidates = [line, *sorted(outcome.call_lines.get(line, set()))]
    for number in candidates:
        text = lines[number - 1] if 0 < number <= len(lines) else ""
        for marker, reason in DOCUMENTED_UNSEEN.items():
            if re.search(marker, text):
                return reason
    return None


_NOTE_LINE = re.compile(r"\(line (\d+), column \d+\)")
_NOTE_SPOT = re.compile(r"\(line (\d+), column (\d+)\)")
_HEADER = re.compile(r"^\s*(?P<kind>if|elif|else|match|case|for|while|try|except|finally|with|def|async def)\b")
_FLOW_CLASSES = {
    "try": "an exception edge: the pairing site is in a `try` whose handler or `finally` path the runs never took",
    "loop": "a loop: the pairing site is on a path of another iteration (loop exits and back edges joined)",
    "branch": "uncorrelated branches: the pairing site and the reported line are on branches of one condition "
    "(`flag`, `k`) no run takes together (paths joined)",
}


def _enclosing(lines: Sequence[str], line: int) -> list[str]:
    """The kinds of the compound statements enclosing `line`, innermost first (`if`, `for`, `try`...; a `with
    contextlib.suppress(...)` is `suppress`)."""
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    indent = len(text) - len(text.lstrip())
    out: list[str] = []
    for number in range(line - 1, 0, -1):
        header = lines[number - 1]
        stripped = header.lstrip()
        depth = len(header) - len(stripped)
        if not stripped or depth >= indent:
            continue
        indent = depth
        match = _HEADER.match(header)
        if match is not None:
            kind = match.group("kind")
            out.append("suppress" if kind == "with" and "suppress(" in header else kind)
        if depth == 0:
            break
    return out


def _conservative_operand(text: str) -> bool:
    """Whether `text` (from just before a reported column: the span of `(p or q)` starts inside its parentheses)
    starts with a parenthesised `p or q` or `p if c else q`, or a tuple display subscripted by a computed index
    (`(p, q)[k % 2]`: any item to the checker, so two such operands indexed alike may name one place)."""
    text = text if text.startswith("(") else text[1:]
    if not text.startswith("("):
        return False
    depth = 0
    for end, char in enumerate(text):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0:
            inner = text[1:end]
            indexed = text[end + 1:end + 2] == "[" and not text[end + 2:end + 3].isdigit()
            return " or " in inner or (" if " in inner and " else " in inner) or ("," in inner and indexed)
    return False


def false_alarm_class(outcome: Outcome, line: int, column: int, code: str) -> str:
    """Why an error reported on a program that ran clean on every run is not shown wrong by the runs (a class),
    from the lines the runs executed and the sites the diagnostic's notes name (the earlier move or borrow):

    - the runtime did raise there (an ownership error: not a false alarm; or another error first), and the
      program's own `except` caught it;
    - the reported line never ran: a path none of the four runs took;
    - a `launch_unchecked` (the runtime skips its checks), an operand `p or q` or `(p, q)[i]` (either place);
    - a loop's moved-in-previous-iteration report; an escaping closure checked as if called again; a move in a
      `try` body or `with suppress` before its use;
    - the pairing site never ran in a run that reached the reported line, by the compound statement between them
      (a `try`, a loop, a branch);
    - otherwise the runs did produce the reported history and raised nothing: a real false alarm (or a form the
      analysis treats conservatively), listed apart."""
    if outcome.raised_lines.get(line):
        return "not a false alarm: the runtime raised an ownership error there and the program's `except` caught it"
    if line in outcome.raised_lines:
        return "the runtime raised another error there first (a shape or type error), caught by the program"
    if line not in outcome.executed:
        return "never ran: the reported line is on a path none of the four runs took"
    notes = [n for (at, _, c, _), found in (outcome.cli_notes | outcome.plugin_notes).items()
             if at == line and c == code for n in found]
    if any("in previous iteration of loop" in note for note in notes):
        return "a loop: a value moved on the back edge looks maybe-moved on the first pass (moved facts joined)"
    if any("may be called again" in note for note in notes):
        return "an escaping closure, checked as if called again (Rust's `FnMut` rule); this program called it once"
    lines = outcome.source.splitlines()
    if code in ("E0499", "E0502") and ".launch_unchecked(" in lines[line - 1]:
        return "`launch_unchecked`: the runtime checks no aliasing or pending loans there, the checker does (by design)"
    spots = [(line, column)] + [(int(at), int(col)) for note in notes for at, col in _NOTE_SPOT.findall(note)]
    if any(_conservative_operand(lines[at - 1][max(col - 2, 0):]) for at, col in spots if 0 < at <= len(lines)):
        return "an operand `p or q` / `p if c else q` / `(p, q)[i]`: either place, where the runtime took one"
    sites = {int(n) for note in notes for n in _NOTE_LINE.findall(note)} - {line}
    together = [ran for ran in outcome.runs_executed if line in ran]
    if code == "E0382" and any(
        kind in ("try", "suppress") for site in sites for kind in _enclosing(lines, site)[:1]
    ) and any(sites & ran for ran in together):
        return ("an exception edge: a call in a `try` body or `with contextlib.suppress` may raise after its moves, "
                "leaving a moved value that the next statement uses")
    if sites and not any(sites & ran for ran in together):
        kinds = [kind for site in sorted(sites) for kind in _enclosing(lines, site)] + _enclosing(lines, line)
        for kind, label in (("try", "try"), ("except", "try"), ("finally", "try")):
            if kind in kinds:
                return _FLOW_CLASSES[label]
        if any(k in ("if", "elif", "else", "match", "case") for k in kinds):
            return _FLOW_CLASSES["branch"]
        if any(k in ("for", "while") for k in kinds):
            return _FLOW_CLASSES["loop"]
        return "the pairing site never ran with the reported line (other flow)"
    return f"ran clean with its history: not explained by the paths the runs took ({code})"


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
    false_alarm_classes: Counter[str] = field(default_factory=Counter)  # by `false_alarm_class`
    false_alarm_sites: list[tuple[str, int, str, str]] = field(default_factory=list)  # (program, line, code, class)
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
        for line, column, code in sorted(outcome.false_alarms):
            ran = "ran clean" if line in outcome.executed else "never ran"
            key = f"{code} at `{statement_kind(outcome.source, line)}` ({ran})"
            self.false_alarms[key] += 1
            self.false_alarm_examples.setdefault(key, outcome)
            why = false_alarm_class(outcome, line, column, code)
            self.false_alarm_classes[why] += 1
            self.false_alarm_sites.append((outcome.name, line, code, why))
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
            "candidate false alarms by class (`false_alarm_class`):",
            *(f"    {count:5}  {why}" for why, count in self.false_alarm_classes.most_common()),
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
