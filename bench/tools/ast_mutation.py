"""A small AST mutation runner, for modules mutmut cannot instrument.

mutmut (bench/tools/mutation.py) wraps every function in a trampoline that lives in mutmut's own package.  Code
that walks the call stack to find the *user's* frame (`safekernels.runtime.ownership`: "use of moved value: `z`
(moved at app.py:12)") then sees the trampoline as the caller, so the unmutated baseline already fails and mutmut
refuses to start.  This runner mutates the module's source itself, one mutant at a time, in a temporary copy of
`git archive HEAD`, and runs a targeted test selection against each mutant (`pytest -x`, the copy's `src` first on
`sys.path`, `nice -n 19`, a time limit of ten times the baseline).

Classic operators, one site at a time, in source order:

    compare     <  <=  >  >=  ==  !=  is  is not  in  not in   flipped (< -> >=) and moved across the boundary
                (< -> <=, > -> >=, and back)
    boolean     and <-> or;  `not x` -> `x`
    arithmetic  + <-> -
    constant    an int n -> n + 1; True <-> False
    statement   an assignment, expression statement, `raise` or `return` replaced by `pass`
    return      `return x` -> `return None`

    python bench/tools/ast_mutation.py src/safekernels/runtime/ownership.py tests/tile/test_tile_ownership.py \
        tests/bridge/test_bridge_ownership.py --sample 0

Reports killed / survived / timeout per module and the kill rate killed / all, and lists each survivor as
`line: operator: original -> mutant`.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

_FLIP: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.GtE,
    ast.GtE: ast.Lt,
    ast.Gt: ast.LtE,
    ast.LtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
}
_BOUNDARY: dict[type[ast.cmpop], type[ast.cmpop]] = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt}
_STATEMENTS = (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr, ast.Raise, ast.Return)


@dataclass(frozen=True)
class Mutant:
    """The `index`-th mutation site of kind `operator`; `label` says what changes, for the report."""

    index: int
    operator: str
    line: int
    label: str


def _is_docstring(node: ast.stmt, parent_body: list[ast.stmt]) -> bool:
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
        and parent_body
        and parent_body[0] is node
    )


def _sites(tree: ast.Module) -> Iterator[tuple[str, ast.AST, object]]:
    """Every (operator, node, detail) in a deterministic order (ast.walk is breadth-first and stable)."""
    bodies: dict[int, list[ast.stmt]] = {}
    for node in ast.walk(tree):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if isinstance(block, list):
                for stmt in block:
                    bodies[id(stmt)] = block
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            for k, op in enumerate(node.ops):
                if type(op) in _FLIP:
                    yield "compare", node, (k, _FLIP[type(op)])
                if type(op) in _BOUNDARY:
                    yield "boundary", node, (k, _BOUNDARY[type(op)])
        elif isinstance(node, ast.BoolOp):
            yield "boolean", node, ast.Or if isinstance(node.op, ast.And) else ast.And
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            yield "negation", node, None
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub):
            yield "arithmetic", node, ast.Sub if isinstance(node.op, ast.Add) else ast.Add
        elif isinstance(node, ast.Constant) and isinstance(node.value, bool):
            yield "constant", node, not node.value
        elif isinstance(node, ast.Constant) and isinstance(node.value, int):
            yield "constant", node, node.value + 1
        if isinstance(node, _STATEMENTS) and not _is_docstring(node, bodies.get(id(node), [])):
            if isinstance(node, ast.Return) and node.value is None:
                continue
            yield "statement", node, None
            if isinstance(node, ast.Return) and not (isinstance(node.value, ast.Constant) and node.value.value is None):
                yield "return", node, None


class _Apply(ast.NodeTransformer):
    """Apply the `index`-th site of `_sites` to a fresh tree."""

    def __init__(self, target: ast.AST, operator: str, detail: object) -> None:
        self.target, self.operator, self.detail = target, operator, detail

    def generic_visit(self, node: ast.AST) -> ast.AST:
        super().generic_visit(node)
        return node

    def visit(self, node: ast.AST) -> ast.AST | None:
        if node is not self.target:
            return self.generic_visit(node)
        op, detail = self.operator, self.detail
        if op in ("compare", "boundary"):
            k, new = detail  # type: ignore[misc]
            assert isinstance(node, ast.Compare)
            node.ops[k] = new()
        elif op == "boolean":
            assert isinstance(node, ast.BoolOp)
            node.op = detail()  # type: ignore[operator]
        elif op == "negation":
            assert isinstance(node, ast.UnaryOp)
            return node.operand
        elif op == "arithmetic":
            assert isinstance(node, ast.BinOp)
            node.op = detail()  # type: ignore[operator]
        elif op == "constant":
            assert isinstance(node, ast.Constant)
            node.value = detail
        elif op == "statement":
            return ast.copy_location(ast.Pass(), node)
        elif op == "return":
            assert isinstance(node, ast.Return)
            node.value = ast.Constant(None)
        return node


def mutants(source: str) -> list[Mutant]:
    tree = ast.parse(source)
    found = []
    for index, (op, node, _detail) in enumerate(_sites(tree)):
        line = getattr(node, "lineno", 0)
        original = ast.get_source_segment(source, node) or ast.unparse(node)
        found.append(Mutant(index, op, line, original.splitlines()[0][:80]))
    return found


def mutate(source: str, mutant: Mutant) -> str:
    tree = ast.parse(source)
    for index, (op, node, detail) in enumerate(_sites(tree)):
        if index == mutant.index:
            assert op == mutant.operator
            new_tree = _Apply(node, op, detail).visit(tree)
            assert new_tree is not None
            return ast.unparse(ast.fix_missing_locations(new_tree))
    raise IndexError(mutant.index)


def _describe(mutant: Mutant) -> str:
    """`line: operator: original source` and the site index (`#n`, stable for a given source)."""
    return f"{mutant.line}: {mutant.operator}: {mutant.label} (#{mutant.index})"


def _pytest(work: Path, tests: list[str], timeout: float) -> tuple[str, float]:
    env = {**os.environ, "PYTHONPATH": str(work / "src"), "SAFEKERNELS_NO_CACHE": "1", "SAFEKERNELS_DEVICE": "cpu"}
    command = ["nice", "-n", "19", sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *tests]
    start = time.perf_counter()
    try:
        proc = subprocess.run(command, cwd=work, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", time.perf_counter() - start
    status = "survived" if proc.returncode == 0 else "killed"
    if proc.returncode not in (0, 1):  # collection error, usage error: the mutant broke the import
        status = "killed"
    return status, time.perf_counter() - start


def run(module: str, tests: list[str], sample: int, seed: int, only: set[int] | None = None) -> dict[str, object]:
    with tempfile.TemporaryDirectory(prefix="sk_ast_mutation_") as tmp:
        work = Path(tmp)
        archive = subprocess.run(["git", "archive", "HEAD"], cwd=ROOT, check=True, capture_output=True)
        subprocess.run(["tar", "-x", "-C", str(work)], input=archive.stdout, check=True)
        commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, check=True, capture_output=True, text=True)
        path = work / module
        original = path.read_text()
        path.write_text(ast.unparse(ast.parse(original)))  # the baseline is the unparsed source, like the mutants
        baseline, seconds = _pytest(work, tests, timeout=600)
        if baseline != "survived":
            raise SystemExit(f"the tests fail on the unmutated copy of {module}; fix them first")
        every = mutants(original)
        chosen = every if sample <= 0 or sample >= len(every) else random.Random(seed).sample(every, sample)
        if only is not None:  # re-run named sites (the survivors of an earlier run, after new tests)
            chosen = [m for m in every if m.index in only]
        chosen.sort(key=lambda m: m.index)
        results: dict[str, list[Mutant]] = {"killed": [], "survived": [], "timeout": []}
        for k, mutant in enumerate(chosen, 1):
            path.write_text(mutate(original, mutant))
            status, _ = _pytest(work, tests, timeout=max(10 * seconds, 30))
            results[status].append(mutant)
            # progress on stderr, so that a run stopped early still says what it measured
            print(f"[{k}/{len(chosen)}] {status}: {_describe(mutant)}", file=sys.stderr, flush=True)
        path.write_text(original)
        killed = len(results["killed"])
        return {
            "module": module,
            "commit": commit.stdout.strip(),
            "tests": tests,
            "mutants_total": len(every),
            "mutants_run": len(chosen),
            "seed": seed,
            "counts": {k: len(v) for k, v in results.items()},
            "kill_rate": round(killed / len(chosen), 4) if chosen else None,
            "survivors": [_describe(m) for m in results["survived"] + results["timeout"]],
        }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("module", help="the source file to mutate, relative to the repository root")
    parser.add_argument("tests", nargs="+", help="pytest selection run against every mutant")
    parser.add_argument("--sample", type=int, default=0, help="mutants to run, seeded (0: all)")
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--only", help="comma-separated site indices (`#n` in a report) to run instead of a sample")
    args = parser.parse_args(argv)
    only = {int(k) for k in args.only.split(",")} if args.only else None
    report = run(args.module, args.tests, args.sample, args.seed, only)
    rate = report["kill_rate"]
    shown = f"{rate:.1%}" if isinstance(rate, float) else "n/a"
    print(f"{args.module}: {shown} killed of {report['mutants_run']} (of {report['mutants_total']}) {report['counts']}")
    for line in report["survivors"]:  # type: ignore[attr-defined]
        print(f"  not killed: {line}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
