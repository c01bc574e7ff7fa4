"""The `requires=` relations of a launch contract: a tiny grammar, checked at decoration, evaluated at launch.

Grammar (cuda-oxide's, spelled in Python):

    relation := expr CMP expr             exactly one of  <  <=  >  >=  ==  !=
    expr     := expr (+ | - | *) expr  |  ( expr )  |  len(SLICE)  |  UNSIGNED_SCALAR  |  INTEGER_LITERAL

`SLICE` is a `Slice`/`DisjointSlice`/`AtomicSlice` parameter; `UNSIGNED_SCALAR` a `u8`..`u64` parameter.
Anything else is rejected when the decorator runs, with the offending token and the operands that are
available.  At launch the relation is evaluated in u64 with checked arithmetic (as cuda-oxide does), so
`len(a) - n` cannot wrap."""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from safekernels.simt.params import KernelParam
from safekernels.simt.validation import LaunchContractError

_U64_MAX = (1 << 64) - 1

_COMPARE: dict[type[ast.cmpop], tuple[str, Callable[[int, int], bool]]] = {
    ast.Lt: ("<", operator.lt),
    ast.LtE: ("<=", operator.le),
    ast.Gt: (">", operator.gt),
    ast.GtE: (">=", operator.ge),
    ast.Eq: ("==", operator.eq),
    ast.NotEq: ("!=", operator.ne),
}
_ARITH: dict[type[ast.operator], str] = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*"}
_BAD_BINOPS: dict[type[ast.operator], str] = {
    ast.Div: "/",
    ast.FloorDiv: "//",
    ast.Mod: "%",
    ast.Pow: "**",
    ast.LShift: "<<",
    ast.RShift: ">>",
    ast.BitOr: "|",
    ast.BitAnd: "&",
    ast.BitXor: "^",
    ast.MatMult: "@",
}
_BAD_UNARY: dict[type[ast.unaryop], str] = {ast.USub: "-", ast.UAdd: "+", ast.Not: "not", ast.Invert: "~"}
_BAD_CMP: dict[type[ast.cmpop], str] = {ast.In: "in", ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not"}

GRAMMAR_HELP = (
    "a relation is one comparison (< <= > >= == !=) between expressions built from len(<slice parameter>), "
    "unsigned scalar parameters, integer literals, + - * and parentheses"
)

# A parsed operand: ("len", name) | ("param", name) | ("lit", value) | ("bin", op, left, right)
Expr = tuple[object, ...]


@dataclass(frozen=True)
class Relation:
    """One checked `requires` relation."""

    text: str
    left: Expr
    op: str
    right: Expr

    def evaluate(self, lengths: Mapping[str, int], scalars: Mapping[str, int]) -> tuple[bool, int, int]:
        """(holds, lhs, rhs); raises OverflowError when an intermediate leaves the u64 range."""
        lhs = _eval(self.left, lengths, scalars)
        rhs = _eval(self.right, lengths, scalars)
        compare = next(fn for sym, fn in _COMPARE.values() if sym == self.op)
        return compare(lhs, rhs), lhs, rhs

    def fast_check_lines(
        self, lengths: Mapping[str, str], scalars: Mapping[str, str], prefix: str
    ) -> list[str]:
        """Python statements for a generated launch function that `return False` unless the relation holds
        with every intermediate inside the u64 range.  `lengths`/`scalars` name the variables holding
        `len(slice)` and the unsigned scalars; `prefix` names the temporaries.  The generated code decides
        only "common case or not": on False the caller takes the checked path, which raises the precise
        error through `evaluate`."""
        lines: list[str] = []
        count = 0

        def emit(expr: Expr) -> str:
            nonlocal count
            tag = expr[0]
            if tag == "len":
                return lengths[str(expr[1])]
            if tag == "param":
                return scalars[str(expr[1])]
            if tag == "lit":
                value = expr[1]
                assert isinstance(value, int) and not isinstance(value, bool)
                return str(int(value))
            op, left, right = str(expr[1]), expr[2], expr[3]
            assert op in ("+", "-", "*")
            a = emit(left)  # type: ignore[arg-type]
            b = emit(right)  # type: ignore[arg-type]
            name = f"{prefix}{count}"
            count += 1
            lines.append(f"{name} = {a} {op} {b}")
            lines.append(f"if not 0 <= {name} <= {_U64_MAX}: return False")
            return name

        lhs = emit(self.left)
        rhs = emit(self.right)
        assert self.op in ("<", "<=", ">", ">=", "==", "!=")
        lines.append(f"if not {lhs} {self.op} {rhs}: return False")
        return lines


def _eval(expr: Expr, lengths: Mapping[str, int], scalars: Mapping[str, int]) -> int:
    tag = expr[0]
    if tag == "len":
        return lengths[str(expr[1])]
    if tag == "param":
        return scalars[str(expr[1])]
    if tag == "lit":
        value = expr[1]
        assert isinstance(value, int)
        return value
    op, left, right = expr[1], expr[2], expr[3]
    a = _eval(left, lengths, scalars)  # type: ignore[arg-type]
    b = _eval(right, lengths, scalars)  # type: ignore[arg-type]
    value = a + b if op == "+" else a - b if op == "-" else a * b
    if not 0 <= value <= _U64_MAX:
        raise OverflowError(f"{a} {op} {b} leaves the u64 range")
    return value


class _Parser:
    def __init__(self, kernel: str, text: str, params: Sequence[KernelParam]) -> None:
        self.kernel = kernel
        self.text = text
        self.by_name = {p.name: p for p in params}

    def available(self) -> str:
        operands = [f"len({p.name})" for p in self.by_name.values() if p.is_buffer]
        operands += [p.name for p in self.by_name.values() if p.kind == "scalar" and p.dtype.kind == "u"]
        operands.append("integer literals")
        return ", ".join(operands)

    def fail(self, problem: str) -> LaunchContractError:
        return LaunchContractError(
            f"{self.kernel}: {problem} in requires `{self.text}`\n  = help: {GRAMMAR_HELP}\n"
            f"  = note: available operands: {self.available()}"
        )

    def relation(self) -> Relation:
        try:
            tree = ast.parse(self.text.strip(), mode="eval")
        except SyntaxError as exc:
            raise self.fail(f"syntax error ({exc.msg})") from None
        node = tree.body
        if not isinstance(node, ast.Compare):
            raise self.fail("expected exactly one comparison (< <= > >= == !=), found none")
        if len(node.ops) != 1:
            raise self.fail(f"expected exactly one comparison, found {len(node.ops)} (chained comparison)")
        cmp = type(node.ops[0])
        if cmp not in _COMPARE:
            raise self.fail(f"comparison `{_BAD_CMP.get(cmp, cmp.__name__)}` is not supported")
        return Relation(self.text, self.expr(node.left), _COMPARE[cmp][0], self.expr(node.comparators[0]))

    def expr(self, node: ast.expr) -> Expr:
        if isinstance(node, ast.BinOp):
            op = type(node.op)
            if op not in _ARITH:
                raise self.fail(f"operator `{_BAD_BINOPS.get(op, op.__name__)}` is not supported")
            return ("bin", _ARITH[op], self.expr(node.left), self.expr(node.right))
        if isinstance(node, ast.UnaryOp):
            symbol = _BAD_UNARY.get(type(node.op), type(node.op).__name__)
            raise self.fail(f"unary operator `{symbol}` is not supported")
        if isinstance(node, ast.Constant):
            if isinstance(node.value, bool) or not isinstance(node.value, int):
                raise self.fail(f"literal `{node.value!r}` is not an integer literal")
            if node.value > _U64_MAX:
                raise self.fail(f"literal `{node.value}` does not fit in u64")
            return ("lit", node.value)
        if isinstance(node, ast.Name):
            param = self.by_name.get(node.id)
            if param is None:
                raise self.fail(f"unknown identifier `{node.id}`")
            if param.is_buffer:
                raise self.fail(f"slice parameter `{node.id}` used without len(); write `len({node.id})`")
            if param.dtype.kind != "u":
                kind = "signed integer" if param.dtype.kind == "i" else "non-integer"
                raise self.fail(
                    f"{kind} parameter `{node.id}: {param.dtype.name}` is not supported (use u32 or u64)"
                )
            return ("param", node.id)
        if isinstance(node, ast.Call):
            if not (isinstance(node.func, ast.Name) and node.func.id == "len"):
                raise self.fail(f"call `{ast.unparse(node.func)}(...)` is not supported (only len(<slice>))")
            if len(node.args) != 1 or node.keywords or not isinstance(node.args[0], ast.Name):
                raise self.fail(f"`{ast.unparse(node)}`: len() takes one slice parameter name")
            name = node.args[0].id
            param = self.by_name.get(name)
            if param is None:
                raise self.fail(f"unknown identifier `{name}`")
            if not param.is_buffer:
                raise self.fail(
                    f"`len({name})`: `{name}` is a scalar parameter, len() takes a slice parameter"
                )
            return ("len", name)
        raise self.fail(f"`{ast.unparse(node)}` is not supported")


def parse_requires(
    kernel: str, relations: Sequence[str], params: Sequence[KernelParam]
) -> tuple[Relation, ...]:
    """Check every relation against the grammar and the kernel's parameters (raises `LaunchContractError`)."""
    parsed = []
    for text in relations:
        if not isinstance(text, str):
            raise LaunchContractError(
                f'{kernel}: requires entries are strings such as "len(a) >= n", got {text!r}'
            )
        parsed.append(_Parser(kernel, text, params).relation())
    return tuple(parsed)
