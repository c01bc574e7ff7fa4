"""Hand-built diagnostics shared by the renderer tests: the shapes the checker produces, written out by hand.

They are built directly on the diagnostics model, so the renderer tests do not depend on the checker.
"""

from __future__ import annotations

from ownership_check.diagnostics import Diagnostic, Label, Severity, Span

TILE_SOURCE = """\
from safekernels import tile

z = tile.zeros((1024,), f32).partition((128,))
op = add(z, x, y)
w = 1
add(z, x, z)
"""

SIMT_SOURCE = """\
def run() -> None:
    vecadd.launch(launch, stream, c, b, c)
"""

LOOP_SOURCE = """\
def run(z: Partition[f32]) -> None:
\tfor _ in range(3):
\t\tadd(z)
"""


def moved() -> Diagnostic:
    return Diagnostic(
        code="E0382",
        message="use of moved value: `z`",
        path="host.py",
        span=Span(6, 5, 6, 6),
        labels=(
            Label(Span(4, 10, 4, 11), "value moved here"),
            Label(Span(6, 5, 6, 6), "value used here after move", primary=True),
        ),
        help="use the values returned by `sync_on`",
    )


def conflict() -> Diagnostic:
    return Diagnostic(
        code="E0502",
        message="cannot borrow `c` as mutable because it is also borrowed as immutable",
        path="kern.py",
        span=Span(2, 40, 2, 41),
        labels=(
            Label(Span(2, 35, 2, 36), "immutable borrow occurs here"),
            Label(Span(2, 40, 2, 41), "mutable borrow occurs here", primary=True),
            Label(Span(2, 5, 2, 18), "borrow later used by call"),
        ),
        notes=("`c` is the output `DisjointSlice` of `vecadd`", "second line\nwrapped"),
    )


def in_loop() -> Diagnostic:
    return Diagnostic(
        code="E0382",
        message="use of moved value: `z`",
        path="loop.py",
        span=Span(3, 7, 3, 8),
        labels=(
            Label(Span(3, 7, 3, 8), "value moved here, in previous iteration of loop", primary=True),
            Label(Span(2, 2, 2, 19), "inside of this loop"),
        ),
    )


def unused_suppression() -> Diagnostic:
    return Diagnostic(
        code="W0001",
        message="unused suppression `# ownership: ignore[E0502]`",
        path="clean.py",
        span=Span(1, 3, 1, 30),
        severity=Severity.WARNING,
    )


def no_source() -> Diagnostic:
    """A diagnostic whose file text the renderer does not have (a syntax error in an unreadable file)."""
    return Diagnostic(code="E0001", message="invalid syntax", path="gone.py", span=Span(12, 1, 12, 2))


SOURCES = {"host.py": TILE_SOURCE, "kern.py": SIMT_SOURCE, "loop.py": LOOP_SOURCE, "clean.py": "x = 1\n"}
