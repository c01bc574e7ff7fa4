"""Which fix each diagnostic can have, as data a user can read: the titles shown in editors and `--diff`.

    any code        suppress on this line         `# ownership: ignore[CODE]` (editors only; never by --fix)
    E0502           fresh output buffer           the output that is also an input gets its own copy
    E0382           share a tile input            `x = x.shared()` before the first launch that moves `x`
    E0133           unsafe block (unsafe)         `with simt.unsafe():` around the operation's statement

Candidates are unverified; `verify.verified_fixes` re-checks each one before anything is offered.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from dataclasses import dataclass

import libcst as cst

from ownership_check.core.messages import MOVED_HERE
from ownership_check.diagnostics import Diagnostic, Span
from ownership_check.fixes import transforms
from ownership_check.frontend.prescan import collect_imports
from ownership_check.suppressions import DIRECTIVE, WILDCARD, find_suppressions
from safekernels.ownership_model import KERNEL_DECORATORS


@dataclass(frozen=True)
class Fix:
    """One edit that resolves one diagnostic: the whole new file text (edits are computed from it)."""

    kind: str  # "suppress" | "fresh-output" | "shared-input" | "unsafe-block"
    title: str
    diagnostic: Diagnostic
    new_source: str
    unsafe: bool = False


def _lines(source: str) -> list[str]:
    lines = source.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    return lines


def suppression_fix(source: str, diag: Diagnostic) -> Fix | None:
    """`# ownership: ignore[CODE]` on the diagnostic's line (added to an existing directive's code list)."""
    if diag.code.startswith("E0001"):
        return None
    lines = _lines(source)
    line_no = diag.span.line
    if not 1 <= line_no <= len(lines):
        return None
    title = f"Suppress {diag.code} on this line"
    line = lines[line_no - 1]
    body = line.rstrip("\r\n")
    for sup in find_suppressions(source):
        if sup.line != line_no:
            continue
        if WILDCARD in sup.codes or diag.code in sup.codes:
            return None
        start = sup.span.column - 1
        match = DIRECTIVE.match(body, start)
        if match is None:
            return None
        directive = f"# ownership: ignore[{', '.join((*sup.codes, diag.code))}]"
        lines[line_no - 1] = body[:start] + directive + body[match.end() :] + "\n"
        return Fix("suppress", title, diag, "".join(lines))
    if body.rstrip().endswith("\\"):
        return None  # a comment cannot follow a line continuation
    comment_col: int | None = None
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type == tokenize.COMMENT and tok.start[0] == line_no:
                comment_col = tok.start[1]
            if tok.start[0] > line_no:
                break
    except (tokenize.TokenError, SyntaxError):
        return None
    directive = f"# ownership: ignore[{diag.code}]"
    if comment_col is not None:
        rest = body[comment_col:]
        lines[line_no - 1] = f"{body[:comment_col]}{directive}  {rest}\n"
    else:
        lines[line_no - 1] = f"{body}  {directive}\n"
    return Fix("suppress", title, diag, "".join(lines))


def _labels(diag: Diagnostic, message: str) -> list[Span]:
    return [lb.span for lb in diag.all_labels() if lb.message == message]


def _tile_tensor_checker(tree: ast.Module, imports: dict[str, str]) -> transforms.TensorInputTest:
    """Whether argument `i` of a call goes to a `Tensor` parameter of a tile kernel defined in this file."""
    kernels: dict[str, list[str]] = {}
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef):
            continue
        for dec in node.decorator_list:
            target = ast.unparse(dec.func if isinstance(dec, ast.Call) else dec)
            head, _, rest = target.partition(".")
            qualified = f"{imports[head]}.{rest}" if head in imports and rest else imports.get(head, target)
            if KERNEL_DECORATORS.get(qualified) == "tile":
                kernels[node.name] = [
                    ast.unparse(a.annotation) if a.annotation is not None else "" for a in node.args.args
                ]

    def test(call: cst.Call, position: int) -> bool:
        if not isinstance(call.func, cst.Name) or call.func.value not in kernels:
            return False
        params = kernels[call.func.value]
        return position < len(params) and re.search(r"(?<![A-Za-z_])Tensor\b", params[position]) is not None

    return test


def candidate_fixes(source: str, diag: Diagnostic) -> list[Fix]:
    """The mechanical fixes for `diag` whose pattern matches (not yet re-checked)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    imports, _ = collect_imports(tree, "__main__", False)
    out: list[Fix] = []
    try:
        if diag.code == "E0502":
            shared = _labels(diag, "immutable borrow occurs here")
            mutable = _labels(diag, "mutable borrow occurs here")
            if len(shared) == 1 and len(mutable) == 1:
                made = transforms.fresh_output_buffer(source, tree, imports, shared[0], mutable[0])
                if made is not None:
                    new, name = made
                    title = f"Write the result into a fresh buffer `{name}` (a copy of the output), then rebind"
                    out.append(Fix("fresh-output", title, diag, new))
        elif diag.code == "E0382":
            match = re.fullmatch(r"use of moved value: `([A-Za-z_][A-Za-z_0-9]*)`", diag.message)
            moves = _labels(diag, MOVED_HERE)
            if match and len(moves) == 1 and len(diag.labels) == 2:
                name = match.group(1)
                test = _tile_tensor_checker(tree, imports)
                new_text = transforms.shared_input(source, tree, name, moves[0], test)
                if new_text is not None:
                    title = f"Share `{name}` between launches: `{name} = {name}.shared()`"
                    out.append(Fix("shared-input", title, diag, new_text))
        elif diag.code == "E0133":
            new_text = transforms.unsafe_block(source, tree, imports, diag.span)
            if new_text is not None:
                title = "Wrap in `with simt.unsafe():` (unsafe: only after checking why this is sound)"
                out.append(Fix("unsafe-block", title, diag, new_text, unsafe=True))
    except (cst.ParserSyntaxError, RecursionError):
        return out
    return out
