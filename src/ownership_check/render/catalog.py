"""What each diagnostic code means, in one line and in one paragraph, and where its long story lives.

SARIF needs a `rules` entry per code (short and full description, a help URI), the text renderer's footer
points at the error index, and `docs/checker.md` has one `## CODE` section per entry here (a test keeps the
two in sync).  Codes not listed (for example codegen's `SK` codes) still render; they get a generic rule
entry.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from safekernels.project_links import error_index_url

#: Where the error index lives, relative to the repository root; each code is the anchor `#e0382`-style.
#: Printed links are absolute (`docs_index()`, `docs_anchor(code)`): pip users have no docs/ folder.
DOCS_PATH: Final[str] = "docs/checker.md"


@dataclass(frozen=True)
class CodeInfo:
    """One entry of the error index."""

    code: str
    name: str  # a stable kebab-case name (the mypy plugin's spelling of the same rule)
    summary: str  # the first line of the error index entry
    explanation: str  # a short paragraph: what is wrong and why it matters on a GPU


CODES: Final[dict[str, CodeInfo]] = {
    info.code: info
    for info in (
        CodeInfo(
            "E0382",
            "use-after-move",
            "A value was used after it was moved into a tile launch, a `partition` or a `sync_on`.",
            "Tile launches, `partition`, `unpartition`, `sync_on`, `sync`, `then`, `zip`, `first` and "
            "`shared` take ownership of their value. Using the old name afterwards would read or write "
            "storage that a pending GPU operation owns. Kernel-side, `get_mut(idx)` consumes the "
            "thread-index witness.",
        ),
        CodeInfo(
            "E0499",
            "double-mutable-borrow",
            "A buffer was borrowed as mutable more than once at a time.",
            "The same buffer was passed as two mutable outputs (`DisjointSlice`) of one launch, or two "
            "`get_mut` results of one slice are live together. Two writers to one element race on the GPU.",
        ),
        CodeInfo(
            "E0502",
            "mutable-and-shared-borrow",
            "A buffer was borrowed as mutable while it is also borrowed as immutable.",
            "A buffer (or an overlapping view of it) was passed to one launch both as a read-only input "
            "(`Slice`) and as the mutable output (`DisjointSlice`). Threads would read elements other "
            "threads are writing.",
        ),
        CodeInfo(
            "E0505",
            "move-while-borrowed",
            "A value was moved while a pending operation still borrows it.",
            "`launch_async` returns a `DeviceOp` that borrows its buffers until it is consumed by "
            "`sync_on`/`sync`. Moving a borrowed buffer in the meantime hands storage to new work while "
            "the GPU may still use it.",
        ),
        CodeInfo(
            "E0133",
            "unsafe-operation",
            "An operation that requires `with simt.unsafe():` was used outside one.",
            "`simt.shared_array`, `get_unchecked_mut` and `launch_unchecked` bypass checks that make "
            "kernels safe; they are allowed only lexically inside `with simt.unsafe():`.",
        ),
        CodeInfo(
            "E0308",
            "mismatched-prepared-launch",
            "A prepared launch was used with a kernel other than the one that prepared it.",
            "`kernel.prepare(...)` validates a launch configuration against that kernel's contract and "
            "registers; the resulting `PreparedLaunch` is branded and proves nothing about another kernel.",
        ),
        CodeInfo(
            "E0001",
            "syntax-error",
            "A checked file could not be parsed.",
            "The file is not valid Python, so nothing in it was checked. The other files of the run still "
            "are.",
        ),
        CodeInfo(
            "W0001",
            "unused-suppression",
            "An `# ownership: ignore[...]` comment suppressed nothing.",
            "The suppressed code is not reported on that line (any more). Remove the comment so it cannot "
            "hide a future error.",
        ),
        CodeInfo(
            "W0002",
            "not-analyzed",
            "A file that mentions safekernels was not checked: the parser rejects it or it is too complex.",
            "Python accepts the file, but the checker's parser does not, or it is over a size, nesting or "
            "time limit, or one function's analysis ran out of its step budget before it converged (reported at "
            "that function). Rather than guess, the checker reports that the file's ownership is unchecked, so a "
            "CI gate never silently skips it.",
        ),
        CodeInfo(
            "W0003",
            "unused-device-op",
            "A lazy `DeviceOp` (a launch, a combinator) is built and never run.",
            "Tile launches, `launch_async` and the combinators only describe work; the kernel runs when "
            "`sync_on`, `sync` or `graph_on` consumes the op. An op dropped unrun (an expression statement, or "
            "a binding dropped on some path) is a kernel that silently never runs, and the values moved into "
            "it are lost.",
        ),
    )
}


def docs_index() -> str:
    """The error index's absolute URL (from the project's `[project.urls] Documentation`)."""
    return error_index_url()


def docs_anchor(code: str) -> str:
    """The error index URL for `code` (GitHub's heading anchor of `## E0382` is `#e0382`)."""
    return error_index_url(code)


def code_info(code: str) -> CodeInfo:
    """The catalog entry for `code`, or a generic one for codes this catalog does not describe."""
    known = CODES.get(code)
    if known is not None:
        return known
    return CodeInfo(code, code.lower(), f"Diagnostic {code}.", f"Diagnostic {code} reported by safekernels.")
