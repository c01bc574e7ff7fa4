"""Fresh host programs, written against the user docs only, judged by the runtime and scored per front end.

Every program runs on the CPU executor first: one with an expected diagnostic must fail with the runtime's own
error at the expected line, a clean one must run (else the program, not the checker, is wrong). Then one
`ownership-check` run and one mypy run over the folder must report exactly the expected (code, line) on each
program. A gap named in a program's `# fresh-known-...` line is an expected failure (strict: fixing it fails the
test until the marker is removed). About 15 s on 2 cores.
"""

from __future__ import annotations

import re
from functools import cache

import fresh_scoring as scoring
import pytest

PROGRAMS = scoring.load_programs()
FRONT_ENDS = ("cli", "mypy")
#: A false report a known gap's text names, allowed beside it (`test_known_miss_reports_nothing_elsewhere`).
_NAMED_FALSE = re.compile(r"false ([EW]\d{4}) at (?:line )?(\d+)")


@cache
def _oracle() -> dict[str, scoring.Finding | None]:
    return scoring.run_oracle(PROGRAMS)


@cache
def _reports(front_end: str) -> dict[str, set[scoring.Finding]]:
    return scoring.run_cli() if front_end == "cli" else scoring.run_mypy()


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.path.stem)
def test_runtime_agrees_with_header(program: scoring.Program) -> None:
    verdicts = _oracle()
    assert program.path.name in verdicts, "the oracle process did not report this program"
    assert verdicts[program.path.name] == program.expected


def _cases() -> list[object]:
    cases: list[object] = []
    for program in PROGRAMS:
        for front_end in FRONT_ENDS:
            marks = []
            if front_end in program.known:
                marks.append(pytest.mark.xfail(strict=True, reason=program.known[front_end]))
            cases.append(pytest.param(program, front_end, marks=marks, id=f"{program.path.stem}-{front_end}"))
    return cases


@pytest.mark.parametrize(("program", "front_end"), _cases())
def test_front_end_reports_exactly_the_runtime_error(program: scoring.Program, front_end: str) -> None:
    got = _reports(front_end).get(program.path.name, set())
    assert got == ({program.expected} if program.expected else set())


def test_front_ends_agree() -> None:
    """Same codes at the same lines, except on a program whose known gap is one front end's only."""
    one_sided = {p.path.name for p in PROGRAMS if p.known.get("cli") != p.known.get("mypy")}
    cli = {k: v for k, v in _reports("cli").items() if k not in one_sided}
    plugin = {k: v for k, v in _reports("mypy").items() if k not in one_sided}
    assert scoring.disagreements(cli, plugin) == []


@pytest.mark.parametrize(
    ("program", "front_end"),
    [
        pytest.param(p, f, id=f"{p.path.stem}-{f}")
        for p in PROGRAMS
        for f in FRONT_ENDS
        if p.known.get(f, "").startswith("miss") and p.expected is not None
    ],
)
def test_known_miss_reports_nothing_elsewhere(program: scoring.Program, front_end: str) -> None:
    """A known miss is an expected failure of the exact comparison, which would also hide a new false alarm on
    the same program: such a program may report only at the line the runtime raises (where a wrong code is part
    of the named gap, e.g. E0382 where the runtime raises E0505), or where its gap names a false report
    ("false E0499 at 43")."""
    assert program.expected is not None
    got = _reports(front_end).get(program.path.name, set())
    named = {(code, int(line)) for code, line in _NAMED_FALSE.findall(program.known[front_end])}
    assert {line for _, line in got - named} <= {program.expected[1]}
