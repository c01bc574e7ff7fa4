"""Mutation testing of the modules whose mistakes the suite must notice, with mutmut, bounded and reproducible.

Why a wrapper: mutmut mutates a copy of the sources and runs the tests per mutant; on this project that copy
must be the committed tree (other work in progress must not leak in or be overwritten), the codegen disk cache
must be off (a mutated lowering would otherwise read the unmutated PTX back from the cache and "survive"), each
module group is tested with its own small test selection (mutmut then runs, per mutant, only the tests that
reach the mutated function), and a deterministic sample of mutants keeps a run bounded.

    python bench/tools/mutation.py requires validation --sample 200      # a seeded sample per group
    python bench/tools/mutation.py core --sample 0                       # every mutant (the full run)
    python bench/tools/mutation.py --list                                # the groups

Each group reports killed / survived / no tests / timeout and the kill rate
`killed / (killed + survived + no tests + timeout)`: a mutant no selected test reaches counts as a survivor.
Survivors are listed with `--show` (their diffs, from `mutmut show`).  Results go to stdout and, as JSON, to
`--json PATH`.  The work happens in a temporary copy of `git archive HEAD` under `nice -n 19`; nothing in the
checkout is touched.  Needs `pip install mutmut` (3.x; not part of `[dev]`).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Group:
    """Modules mutated together and the tests that must notice."""

    modules: tuple[str, ...]
    tests: tuple[str, ...]


GROUPS: dict[str, Group] = {
    "requires": Group(
        ("src/safekernels/simt/requires.py",),
        (
            "tests/simt/test_simt_requires.py",
            "tests/simt/test_runtime_regressions.py",
            "tests/simt/test_simt_fast_launch.py",
            "tests/simt/test_simt_launch.py",
            "tests/simt/test_mutation_kills.py",
        ),
    ),
    "validation": Group(
        ("src/safekernels/simt/validation.py",),
        (
            "tests/simt/test_simt_validation.py",
            "tests/simt/test_simt_launch.py",
            "tests/simt/test_simt_fast_launch.py",
            "tests/simt/test_mutation_kills.py",
        ),
    ),
    "borrows": Group(
        ("src/safekernels/simt/borrows.py",),
        (
            "tests/simt/test_simt_launch.py",
            "tests/simt/test_simt_fast_launch.py",
            "tests/runtime_graph/test_runtime_graph.py",
            "tests/simt/test_mutation_kills.py",
        ),
    ),
    "ownership": Group(
        ("src/safekernels/runtime/ownership.py",),
        (
            "tests/tile/test_tile_ownership.py",
            "tests/tile/test_tile_launch_plan.py",
            "tests/bridge/test_bridge_ownership.py",
            "tests/runtime_graph",
            "tests/simt/test_runtime_regressions.py",
            "tests/simt/test_mutation_kills.py",
        ),
    ),
    "core": Group(
        (
            "src/ownership_check/core/calls.py",
            "src/ownership_check/core/cfg.py",
            "src/ownership_check/core/checker.py",
            "src/ownership_check/core/ir.py",
            "src/ownership_check/core/liveness.py",
            "src/ownership_check/core/messages.py",
        ),
        ("tests/checker_core", "tests/checker_golden"),
    ),
    # mutmut's trampolines do not reach the lowering's tests (it reports "no test covers any mutant"): measure
    # the lowering with bench/tools/ast_mutation.py instead (docs/reliability.md, "Mutation testing").
    "lowering": Group(
        (
            "src/safekernels/codegen/lowering/assumptions.py",
            "src/safekernels/codegen/lowering/function.py",
            "src/safekernels/codegen/lowering/llvm_types.py",
            "src/safekernels/codegen/lowering/math_lowering.py",
            "src/safekernels/codegen/lowering/module.py",
            "src/safekernels/codegen/lowering/nvvm.py",
        ),
        ("tests/codegen",),
    ),
}

#: mutmut's exit codes; a crashed test process (-11, -9) noticed the mutant, so it counts as killed.
_STATUS = {
    1: "killed",
    3: "killed",
    -11: "killed",
    -9: "killed",
    0: "survived",
    5: "no tests",
    33: "no tests",
    36: "timeout",
    -24: "timeout",
    24: "timeout",
}


def _mutmut() -> list[str]:
    found = shutil.which("mutmut", path=str(Path(sys.executable).parent)) or shutil.which("mutmut")
    if found is None:
        raise SystemExit("mutmut is not installed: `pip install mutmut` (3.x)")
    return ["nice", "-n", "19", found]


def _copy_head(dest: Path) -> str:
    """`git archive HEAD` of the checkout into `dest`; the commit id."""
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, check=True, capture_output=True, text=True)
    archive = subprocess.run(["git", "archive", "HEAD"], cwd=ROOT, check=True, capture_output=True)
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive.stdout, check=True)
    return commit.stdout.strip()


def _failing_tests(work: Path, tests: tuple[str, ...], env: dict[str, str]) -> list[str]:
    """Tests failing on the unmutated copy (mutmut needs a green baseline); they are deselected and reported."""
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rf", *tests],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
    )
    return [line.split()[1] for line in proc.stdout.splitlines() if line.startswith("FAILED ")]


def _configure(work: Path, group: Group, deselect: list[str]) -> None:
    selection = [*group.tests, *(f"--deselect={t}" for t in deselect)]
    lines = [
        "",
        "[tool.mutmut]",
        'source_paths = ["src"]',
        f"only_mutate = {json.dumps(list(group.modules))}",
        f"pytest_add_cli_args_test_selection = {json.dumps(selection)}",
        'pytest_add_cli_args = ["-p", "no:cacheprovider", "-x", "-q"]',
        'also_copy = ["tests", "examples", "bench", "mypy_plugin", "docs", "README.md", ".pre-commit-hooks.yaml"]',
        "",
    ]
    with (work / "pyproject.toml").open("a") as handle:
        handle.write("\n".join(lines))


def _results(work: Path, group: Group) -> dict[str, int]:
    codes: dict[str, int] = {}
    for module in group.modules:
        meta = work / "mutants" / f"{module}.meta"
        if meta.exists():
            codes.update(json.loads(meta.read_text())["exit_code_by_key"])
    return codes


def run_group(
    name: str, sample: int, seed: int, children: int, show: bool, only: list[str] | None = None
) -> dict[str, object]:
    group = GROUPS[name]
    with tempfile.TemporaryDirectory(prefix=f"sk_mutation_{name}_") as tmp:
        work = Path(tmp)
        commit = _copy_head(work)
        tests = tuple(t for t in group.tests if t.startswith("-") or (work / t).exists())
        group = Group(group.modules, tests)
        env = {**os.environ, "SAFEKERNELS_NO_CACHE": "1", "SAFEKERNELS_DEVICE": "cpu", "PYTHONPATH": ""}
        env.pop("PYTHONPATH")
        deselect = _failing_tests(work, group.tests, env)
        _configure(work, group, deselect)
        # First pass: generate the mutants and the test map, run none (no name matches this pattern).
        first = subprocess.run(
            [*_mutmut(), "run", "no-mutant-has-this-name"], cwd=work, env=env, capture_output=True, text=True
        )
        names = sorted(_results(work, group))
        chosen = names if sample <= 0 or sample >= len(names) else sorted(random.Random(seed).sample(names, sample))
        if only:  # re-run named mutants (the survivors of an earlier run, after new tests)
            chosen = sorted(key for key in names if key in set(only))
        for start in range(0, len(chosen), 200):
            subprocess.run(
                [*_mutmut(), "run", "--max-children", str(children), *chosen[start : start + 200]],
                cwd=work,
                env=env,
                capture_output=True,
            )
        codes = _results(work, group)
        counts: dict[str, int] = {}
        survivors: list[str] = []
        for key in chosen:
            code = codes.get(key)
            status = "not run" if code is None else _STATUS.get(code, "suspicious")
            counts[status] = counts.get(status, 0) + 1
            if status in ("survived", "no tests", "timeout", "not run"):
                survivors.append(key)
        judged = sum(counts.get(s, 0) for s in ("killed", "survived", "no tests", "timeout"))
        report: dict[str, object] = {
            "group": name,
            "commit": commit,
            "modules": list(group.modules),
            "tests": list(group.tests),
            "deselected_failing_tests": deselect,
            "mutants_total": len(names),
            "mutants_run": len(chosen),
            "seed": seed,
            "counts": counts,
            "kill_rate": round(counts.get("killed", 0) / judged, 4) if judged else None,
            "survivors": survivors,
        }
        if counts.get("not run"):
            report["mutmut_output"] = (first.stdout + first.stderr)[-3000:]
        if show:
            diffs = {}
            for key in survivors:
                proc = subprocess.run([*_mutmut(), "show", key], cwd=work, env=env, capture_output=True, text=True)
                diffs[key] = "\n".join(
                    line for line in proc.stdout.splitlines() if line[:1] in "+-" and line[:3] not in ("+++", "---")
                )
            report["survivor_diffs"] = diffs
        return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("groups", nargs="*", help=f"groups to run ({', '.join(GROUPS)}); default: all")
    parser.add_argument("--sample", type=int, default=150, help="mutants per group, seeded (0: all)")
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--max-children", type=int, default=2)
    parser.add_argument("--show", action="store_true", help="include the survivors' diffs")
    parser.add_argument("--json", type=Path, help="write the reports to this file")
    parser.add_argument("--list", action="store_true", help="list the groups and exit")
    parser.add_argument("--only", nargs="+", metavar="MUTANT", help="run these mutants (names as reported)")
    args = parser.parse_args(argv)
    if args.list:
        for name, group in GROUPS.items():
            print(f"{name}: {', '.join(group.modules)}  <-  {', '.join(group.tests)}")
        return 0
    unknown = [g for g in args.groups if g not in GROUPS]
    if unknown:
        parser.error(f"unknown group(s) {', '.join(unknown)}; known: {', '.join(GROUPS)}")
    reports = []
    for name in args.groups or list(GROUPS):
        report = run_group(name, args.sample, args.seed, args.max_children, args.show, args.only)
        reports.append(report)
        rate = report["kill_rate"]
        shown = f"{rate:.1%}" if isinstance(rate, float) else "n/a"
        run, total = report["mutants_run"], report["mutants_total"]
        print(f"{name}: {shown} killed of {run} mutants (of {total}) {report['counts']}")
        if "mutmut_output" in report:
            print(f"  mutmut did not run every mutant; its output ends with:\n{report['mutmut_output']}")
        for key in report["survivors"]:  # type: ignore[attr-defined]
            print(f"  not killed: {key}")
            if args.show:
                print("    " + str(report["survivor_diffs"][key]).replace("\n", "\n    "))  # type: ignore[index]
        sys.stdout.flush()
    if args.json:
        args.json.write_text(json.dumps(reports, indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
