"""Seeded mutations of generated kernels, and the rule both executors must keep on every one of them.

    python tests/parity/kernel_mutations.py --track tile --cases 500 --seed 1    # a long run (minutes)
    python tests/parity/kernel_mutations.py --track corpus --cases 300           # the repository's tile kernels

A user's kernel is mostly wrong before it is right.  Starting from the language generator's legal kernels
(`language_generator`), each mutation bends the body the way edits do: an operator swapped, a constant replaced by
an edge value (0, -1, 2**40, 2**63, 1e300, -0.0, None, a string), a name or attribute replaced by another, an
argument dropped, duplicated or added, a keyword invented, a statement deleted, or a statement inserted from a list
of Python forms the languages do and do not support (loops with break, try, with, nested defs, lambdas, global,
del, assert, print, f-strings, slices, comprehensions, walrus, yield, match, imports, complex and huge literals).

The rule (`judge`): the CPU executor runs the mutant (or traps, or refuses it with a located SK diagnostic), and the
GPU compiler for sm_90a / sm_90 assembles it or refuses it; both reach the same verdict (both accept, or both refuse
with the same code at the same file:line:col), and nothing else ever escapes: no `IndexError` from a front end, no
bare `TypeError` / `UnboundLocalError` from the executor, no llvmlite or nvJitLink error.
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import random
import sys
import traceback
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from language_generator import Case, simt_cases, tile_cases
from language_runner import Outcome, compile_simt_case, compile_tile_case, run_simt, run_tile

_CONSTANTS: tuple[Any, ...] = (0, -1, 1 << 40, 2**63, 1e300, 2.5, True, None, "s", -0.0, 3)
_OPERATORS: tuple[type[ast.operator], ...] = (
    ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow, ast.LShift, ast.RShift, ast.BitAnd,
    ast.BitOr, ast.BitXor, ast.MatMult,
)  # fmt: skip
_ATTRIBUTES = (
    "sum", "max", "exp", "load", "store", "shape", "dtype", "astype", "reshape", "T", "partition", "bid", "zeros",
    "full", "where", "matmul", "cumsum", "nope", "tile_shape", "num_tiles",
)  # fmt: skip
_NAMES = ("a", "b", "x", "y", "z", "n", "tile", "i", "idx", "undefined_name", "f32", "i8", "len", "range", "print")
_KEYWORDS = ("axis", "dtype", "shape", "keepdims", "num_warps")
#: statements inserted at a random point; `{n}` is a name the kernel uses
STATEMENTS = (
    "while {n}:\n    break", "for q in range({n}):\n    continue", "try:\n    pass\nexcept Exception:\n    pass",
    "with {n}:\n    pass", "def inner(u):\n    return u\n{n} = inner({n})", "{n} = lambda: {n}", "global {n}",
    "del {n}", "assert {n}", "assert {n}, 'msg'", "print({n})", "print(f'{{{n}}}')", "{n} = [{n}, {n}]",
    "{n} = ({n}, {n})[0]", "{n} = {n}[1:3]", "{n} = {n}[::2]", "{n} = {{'k': {n}}}['k']",
    "{n} = [v for v in range(3)]", "{n} = 0 < {n} < 1", "{n} += {n}", "{n} **= 2", "{n} //= 0",
    "{n} = {n} if {n} else {n}", "{n} = not {n}", "{n} = ({n} := 3)", "{n}, = ({n},)", "*{n}, w = (1, 2)",
    "{n} = yield", "return {n}", "raise ValueError('x')", "{n} = {n}.T", "{n} = {n}[None]", "{n} = {n}[...]",
    "{n} = -{n}", "{n} = abs({n})", "{n} = int({n})", "{n} = float({n})", "{n} = {n} @ {n}", "{n} = {n} is {n}",
    "{n} = {n} in {n}", "{n} = len({n})", "{n} = {n}.shape", "{n} = {n}.dtype", "{n} = 'text'", "{n} = b'bytes'",
    "{n} = None", "{n} = 1j", "{n} = 10**100", "{n} = float('nan')",
    "if {n}:\n    {n} = 1\nelse:\n    {n} = 2.5", "for q in {n}:\n    pass", "match {n}:\n    case 1:\n        pass",
    "import math\n{n} = math.pi", "{n} = range(3)", "{n} = slice(1)", "other = {n}.nope",
)  # fmt: skip


class _Mutator(ast.NodeTransformer):
    """Rewrites the `target`-th visited node of a kind it knows."""

    def __init__(self, rng: random.Random, target: int) -> None:
        self.rng, self.target, self.seen = rng, target, 0

    def _hit(self) -> bool:
        self.seen += 1
        return self.seen == self.target

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        if self._hit():
            node.op = self.rng.choice(_OPERATORS)()
        return node

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        return ast.Constant(self.rng.choice(_CONSTANTS)) if self._hit() else node

    def visit_Name(self, node: ast.Name) -> ast.AST:
        return ast.Name(self.rng.choice(_NAMES), node.ctx) if self._hit() else node

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        self.generic_visit(node)
        if self._hit():
            node.attr = self.rng.choice(_ATTRIBUTES)
        return node

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        if self._hit():
            roll = self.rng.random()
            if roll < 0.3 and node.args:
                node.args.pop(self.rng.randrange(len(node.args)))
            elif roll < 0.6 and node.args:
                node.args.append(self.rng.choice(node.args))
            elif roll < 0.8:
                value = ast.Constant(self.rng.choice(_CONSTANTS))
                node.keywords.append(ast.keyword(self.rng.choice(_KEYWORDS), value))
            else:
                node.args.insert(0, ast.Tuple([ast.Constant(16), ast.Constant(3)], ast.Load()))
        return node

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        self.generic_visit(node)
        if self._hit():
            node.slice = ast.Constant(self.rng.choice([0, -1, 5, 1 << 33, 2.0]))
        return node


def _insert_statement(fn: ast.FunctionDef, rng: random.Random) -> None:
    names = sorted({n.id for n in ast.walk(fn) if isinstance(n, ast.Name)} | {a.arg for a in fn.args.args})
    text = rng.choice(STATEMENTS).replace("{n}", rng.choice(names)).replace("{{", "{").replace("}}", "}")
    position = rng.randrange(len(fn.body) + 1)
    fn.body[position:position] = ast.parse(text).body


def mutate(source: str, rng: random.Random) -> str:
    """`source` with its last function's body bent by one to three edits."""
    tree = ast.parse(source)
    fn = [n for n in tree.body if isinstance(n, ast.FunctionDef)][-1]
    size = sum(1 for _ in ast.walk(fn))
    for _ in range(rng.choice((1, 1, 2))):
        mutator = _Mutator(rng, rng.randrange(1, size))
        fn.body = [mutator.visit(s) for s in fn.body]
    if rng.random() < 0.1 and len(fn.body) > 1:
        del fn.body[rng.randrange(len(fn.body))]
    if rng.random() < 0.6:
        _insert_statement(fn, rng)
    ast.fix_missing_locations(tree)
    return ast.unparse(tree) + "\n"


def mutants(track: str, count: int, seed: int) -> list[Case]:
    """`count` distinct mutants that parse, from the track's legal generated kernels (deterministic per seed)."""
    rng = random.Random(seed)
    legal = [c for c in (tile_cases() if track == "tile" else simt_cases()) if c.expect != "reject" and not c.trap]
    out: list[Case] = []
    seen: set[str] = set()
    while len(out) < count:
        base = rng.choice(legal)
        source = mutate(base.source, rng)
        try:
            compile(source, "<mutant>", "exec")
        except SyntaxError:  # `yield` outside a function body and the like: Python's own error, not ours
            continue
        if source != base.source and source not in seen:
            seen.add(source)
            out.append(dataclasses.replace(base, source=source))
    return out


@dataclasses.dataclass(frozen=True)
class Verdict:
    outcome: Outcome | None
    crash: str = ""  # the traceback when something other than a located refusal or a trap escaped


def _verdict(run: Callable[[], Outcome]) -> Verdict:
    try:
        return Verdict(run())
    except Exception:
        return Verdict(None, traceback.format_exc(limit=-6))


def judge(case: Case, device: Any) -> str:
    """An empty string when both executors keep the rule on `case`, else what broke it."""
    if case.track == "tile":
        cpu = _verdict(lambda: run_tile(case, device))
        gpu = _verdict(lambda: compile_tile_case(case, "sm_90a"))
    else:
        cpu = _verdict(lambda: run_simt(case, device))
        gpu = _verdict(lambda: compile_simt_case(case, "sm_90"))
    if cpu.outcome is None or gpu.outcome is None:
        return f"crash\n{case.source}\nCPU: {cpu.crash or cpu.outcome}\nGPU: {gpu.crash or gpu.outcome}"
    cpu_runs = cpu.outcome.kind in ("accept", "trap")  # a data-dependent trap is a legal program
    gpu_builds = gpu.outcome.kind == "accept"
    if cpu_runs != gpu_builds or (not cpu_runs and not cpu.outcome.same_verdict(gpu.outcome)):
        return f"verdicts differ\n{case.source}\nCPU: {cpu.outcome}\nGPU: {gpu.outcome}"
    return ""


SKIPPED = "not a launchable kernel any more"


def _corpus_verdict(run: Callable[[], Any]) -> Verdict:
    from ownership_check.diagnostics import DiagnosticError
    from safekernels.errors import KernelTrapError

    try:
        result = run()
    except KernelTrapError:
        return Verdict(Outcome("trap"))
    except DiagnosticError as exc:
        return Verdict(Outcome("reject", " ".join(d.code for d in exc.diagnostics)))
    except Exception:
        return Verdict(None, traceback.format_exc(limit=-6))
    if isinstance(result, tuple) and result[0] == "reject":  # `kernel_corpus.compile_for_gpu`'s refusal
        return Verdict(Outcome("reject", result[1]))
    return Verdict(Outcome("accept"))


def judge_corpus_mutant(rng: random.Random, device: Any) -> str:
    """Mutate one tile kernel of the repository (examples, tests, bench) inside its own module, import the
    module, and hold both executors to the rule at the kernel's first specialization ("" when kept, `SKIPPED`
    when the mutant is not a launchable kernel any more)."""
    import importlib.util
    import inspect
    import tempfile

    import kernel_corpus

    found = rng.choice(kernel_corpus.collect()[0])
    path = Path(inspect.getsourcefile(found.kernel.fn) or "")
    tree = ast.parse(path.read_text())
    fn = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == found.kernel.fn.__name__)
    body = ast.Module([fn], [])
    text = mutate(ast.unparse(body), rng)
    fn.body = [n for n in ast.parse(text).body if isinstance(n, ast.FunctionDef)][-1].body
    source = ast.unparse(tree) + "\n"
    folder = Path(tempfile.gettempdir()) / "safekernels_mutants"
    folder.mkdir(exist_ok=True)
    target = folder / f"m{rng.getrandbits(48):012x}.py"
    target.write_text(source)
    sys.path.insert(0, str(path.parent))
    spec = importlib.util.spec_from_file_location(f"sk_mutant_{target.stem}", target)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
        kernel = getattr(module, found.where.rsplit(":", 1)[-1])
        candidate = next(iter(kernel_corpus.tile_candidates(kernel)))
    except Exception:  # the mutant no longer defines a launchable kernel (its module or signature broke)
        return SKIPPED
    cpu = _corpus_verdict(lambda: kernel_corpus.run_on(kernel, candidate, device))
    gpu = _corpus_verdict(lambda: kernel_corpus.compile_for_gpu(kernel, candidate, "sm_90a"))
    if cpu.outcome is None or gpu.outcome is None:
        return f"crash\n{found.where}: {target}\nCPU: {cpu.crash or cpu.outcome}\nGPU: {gpu.crash or gpu.outcome}"
    cpu_runs, gpu_builds = cpu.outcome.kind in ("accept", "trap"), gpu.outcome.kind == "accept"
    if cpu_runs != gpu_builds or (not cpu_runs and cpu.outcome.code != gpu.outcome.code):
        return f"verdicts differ\n{found.where}: {target}\nCPU: {cpu.outcome}\nGPU: {gpu.outcome}"
    return ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--track", choices=("tile", "simt", "corpus"), default="tile")
    parser.add_argument("--cases", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    import safekernels as sk

    device = sk.Device.cpu()
    counts: Counter[str] = Counter()
    rng = random.Random(args.seed)
    cases = mutants(args.track, args.cases, args.seed) if args.track != "corpus" else [None] * args.cases
    for case in cases:
        problem = judge(case, device) if case is not None else judge_corpus_mutant(rng, device)
        if problem == SKIPPED:
            counts[SKIPPED] += 1
        elif problem:
            counts[problem.split("\n", 1)[0]] += 1
            print("=" * 30, problem, sep="\n", flush=True)
        else:
            counts["kept the rule"] += 1
    print(f"{args.track}, seed {args.seed}: {dict(counts)}")
    return 1 if set(counts) - {"kept the rule", SKIPPED} else 0


if __name__ == "__main__":
    raise SystemExit(main())
