"""Score both checker front ends on the fresh programs against what the runtime catches.

Each program in `programs/` says in its first line what the runtime raises and where
(``# fresh-expect: E0502 at line 28``) or that it runs clean (``# fresh-expect: clean``). A known checker gap is
named in a second line, ``# fresh-known-miss: cli,mypy <class>`` (or ``fresh-known-false-alarm``), so the test
records it as an expected failure instead of hiding it. `python tests/checker_fresh/fresh_scoring.py` prints the table
that docs/checker-internals.md quotes ("Fresh programs").
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

PROGRAMS = Path(__file__).parent / "programs"
ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent
#: The ownership codes scored; mypy's own type errors in the programs are not.
OWNERSHIP_CODES = frozenset({"E0382", "E0499", "E0502", "E0505", "E0133", "E0308", "W0003"})
#: The configuration docs/quickstart.md recommends (tests/docs/test_mypy_config.py RECOMMENDED).
MYPY_INI = """[mypy]
plugins = mypy_plugin
check_untyped_defs = True
allow_redefinition_new = True
local_partial_types = True
"""
_EXPECT = re.compile(r"^# fresh-expect: (?:(clean)|(\w+) at line (\d+))$")
_KNOWN = re.compile(r"^# fresh-known-(miss|false-alarm): ([a-z,]+) (.+)$")
_MYPY_LINE = re.compile(r"^(?P<path>[^:]+\.py):(?P<line>\d+): error: .*\[(?P<code>[A-Z]\d{4})\]$")

Finding = tuple[str, int]


@dataclass(frozen=True)
class Program:
    """One fresh program and what its header expects."""

    path: Path
    expected: Finding | None
    known: dict[str, str] = field(default_factory=dict)  # front end -> named class of a known gap


def load_programs() -> list[Program]:
    programs = []
    for path in sorted(PROGRAMS.glob("*.py")):
        lines = path.read_text(encoding="utf-8").splitlines()
        match = _EXPECT.match(lines[0])
        if match is None:
            raise ValueError(f"{path}:1:1: first line must be `# fresh-expect: CODE at line N` or `... clean`")
        expected = None if match.group(1) else (match.group(2), int(match.group(3)))
        known: dict[str, str] = {}
        for line in lines[1:3]:
            if (gap := _KNOWN.match(line)) is not None:
                known.update(dict.fromkeys(gap.group(2).split(","), f"{gap.group(1)}: {gap.group(3)}"))
        programs.append(Program(path, expected, known))
    return programs


def run_cli(folder: Path = PROGRAMS) -> dict[str, set[Finding]]:
    """One `ownership-check --format json` over the folder: file name -> reported (code, line)."""
    proc = subprocess.run(
        [str(VENV_BIN / "ownership-check"), str(folder), "--format", "json", "--no-cache", "--exit-zero"],
        capture_output=True, text=True, cwd=ROOT, check=False,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"ownership-check failed ({proc.returncode}): {proc.stderr[-2000:]}")
    found: dict[str, set[Finding]] = {}
    for diag in json.loads(proc.stdout)["diagnostics"]:
        if diag["code"] in OWNERSHIP_CODES:
            found.setdefault(Path(diag["path"]).name, set()).add((diag["code"], int(diag["line"])))
    return found


def run_mypy(folder: Path = PROGRAMS) -> dict[str, set[Finding]]:
    """One mypy run with the plugin and the recommended configuration: file name -> reported (code, line)."""
    with tempfile.TemporaryDirectory() as tmp:
        ini = Path(tmp) / "mypy.ini"
        ini.write_text(MYPY_INI, encoding="utf-8")
        proc = subprocess.run(
            [sys.executable, "-m", "mypy", "--config-file", str(ini), "--no-incremental", "--cache-dir", tmp,
             "--hide-error-context", "--no-error-summary", "--show-error-codes", "--no-pretty", str(folder)],
            capture_output=True, text=True, cwd=ROOT, check=False,
        )
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"mypy failed ({proc.returncode}): {proc.stdout[-2000:]}{proc.stderr[-2000:]}")
    found: dict[str, set[Finding]] = {}
    for line in proc.stdout.splitlines():
        if (match := _MYPY_LINE.match(line)) and match.group("code") in OWNERSHIP_CODES:
            found.setdefault(Path(match.group("path")).name, set()).add((match.group("code"), int(match.group("line"))))
    return found


def run_oracle(programs: list[Program]) -> dict[str, Finding | None]:
    """The runtime's verdict on each program (one process for all): file name -> (code, line) or None.

    The line is where the runtime raised, or the expected line when that is a call on the failing stack (the
    convention of the older programs, whose conflicts made by a call's arguments inside a helper were put at the
    call; the checker now reports them where the runtime raises) or another line of the statement that raised
    (an argument's own line in a launch written over several lines)."""
    proc = subprocess.run(
        [sys.executable, str(Path(__file__).parent / "fresh_oracle.py"), *(str(p.path) for p in programs)],
        capture_output=True, text=True, cwd=ROOT, check=False, env={**_env(), "SAFEKERNELS_DEVICE": "cpu"},
    )
    verdicts: dict[str, Finding | None] = {}
    expected_by_name = {p.path.name: p.expected for p in programs}
    for line in proc.stdout.splitlines():
        if line.startswith("{"):
            row = json.loads(line)
            name = Path(row["path"]).name
            verdicts[name] = None if row["code"] == "clean" else (row["code"], row["line"])
            expected = expected_by_name.get(name)
            if expected is not None and expected[0] == row["code"] and expected[1] in row.get("calls", []):
                verdicts[name] = expected  # raised inside a helper for the arguments this call passed
            span = row.get("span")
            if expected is not None and expected[0] == row["code"] and span and span[0] <= expected[1] <= span[1]:
                verdicts[name] = expected  # the argument's line of a launch written over several lines
    return verdicts


def _env() -> dict[str, str]:
    return dict(os.environ)


@dataclass(frozen=True)
class Score:
    """Recall over the expected diagnostics, precision over the reports, for one front end."""

    expected: int
    found: int
    reports: int
    correct_reports: int
    missed: list[str]
    false_alarms: list[str]

    @property
    def recall(self) -> float:
        return self.found / self.expected if self.expected else 1.0

    @property
    def precision(self) -> float:
        return self.correct_reports / self.reports if self.reports else 1.0


def score(programs: list[Program], reports: dict[str, set[Finding]]) -> Score:
    expected = found = total = correct = 0
    missed: list[str] = []
    false_alarms: list[str] = []
    for program in programs:
        got = reports.get(program.path.name, set())
        total += len(got)
        if program.expected is not None:
            expected += 1
            if program.expected in got:
                found += 1
                correct += 1
            else:
                missed.append(program.path.name)
        wrong = got - ({program.expected} if program.expected else set())
        if wrong:
            false_alarms.append(f"{program.path.name}: {sorted(wrong)}")
    return Score(expected, found, total, correct, missed, false_alarms)


def disagreements(cli: dict[str, set[Finding]], plugin: dict[str, set[Finding]]) -> list[str]:
    return [
        f"{name}: cli {sorted(cli.get(name, set()))} mypy {sorted(plugin.get(name, set()))}"
        for name in sorted(set(cli) | set(plugin))
        if cli.get(name, set()) != plugin.get(name, set())
    ]


def main() -> int:
    programs = load_programs()
    cli, plugin = run_cli(), run_mypy()
    buggy = sum(p.expected is not None for p in programs)
    print(f"{len(programs)} programs: {buggy} with an expected diagnostic, {len(programs) - buggy} clean")
    print("| front end | recall | precision | missed | false alarms |")
    print("|---|---|---|---|---|")
    for name, reports in (("ownership-check", cli), ("mypy plugin", plugin)):
        s = score(programs, reports)
        recall = f"{s.recall:.3f} ({s.found}/{s.expected})"
        precision = f"{s.precision:.3f} ({s.correct_reports}/{s.reports})"
        missed, alarms = ', '.join(s.missed) or '-', '; '.join(s.false_alarms) or '-'
        print(f"| {name} | {recall} | {precision} | {missed} | {alarms} |")
    print("disagreements:", disagreements(cli, plugin) or "none")
    return 0


if __name__ == "__main__":
    sys.exit(main())
