"""The one diagnostics model shared by every producer and every renderer.

The checker core, both checker front ends (libcst CLI, mypy plugin) and the code generator (`SK` codes) all
describe a problem the same way rustc does: a code, a one-line message, a primary span, secondary labels that
point at the other places involved, free-form notes and at most one `help:` suggestion.  Renderers (text,
concise, json, sarif, github) only ever read this model, so a diagnostic looks the same wherever it came from.

This module is deliberately dependency-free: `codegen` imports it (docs/reference.md §7 allows exactly this
import), and it must stay importable on machines without libcst or mypy.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field


class Severity(enum.StrEnum):
    """How bad a diagnostic is; `error` fails the run, `warning` does not (unless the caller decides so)."""

    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"


@dataclass(frozen=True, order=True)
class Span:
    """A half-open source range with 1-based lines and columns (`end_column` is one past the last character)."""

    line: int
    column: int
    end_line: int
    end_column: int

    @classmethod
    def point(cls, line: int, column: int, width: int = 1) -> Span:
        return cls(line, column, line, column + max(width, 1))


@dataclass(frozen=True)
class Label:
    """A message attached to a span; the primary label marks the span the diagnostic is reported at."""

    span: Span
    message: str
    primary: bool = False


@dataclass(frozen=True)
class Diagnostic:
    """One finding.  `path` is the file as the user named it (command line) or as the producer knows it."""

    code: str
    message: str
    path: str
    span: Span
    severity: Severity = Severity.ERROR
    labels: tuple[Label, ...] = ()
    notes: tuple[str, ...] = ()
    help: str | None = None

    @property
    def line(self) -> int:
        return self.span.line

    @property
    def column(self) -> int:
        return self.span.column

    def all_labels(self) -> tuple[Label, ...]:
        """Labels with the primary one guaranteed present (an unlabeled primary span gets an empty label)."""
        if any(label.primary for label in self.labels):
            return self.labels
        return (Label(self.span, "", primary=True), *self.labels)

    def related_labels(self) -> tuple[Label, ...]:
        """The labels other than the primary one at the reported span, which every format but the text window
        lists as related locations."""
        return tuple(label for label in self.labels if not (label.primary and label.span == self.span))

    def sort_key(self) -> tuple[str, int, int, str]:
        return (self.path, self.span.line, self.span.column, self.code)


@dataclass
class DiagnosticError(Exception):
    """An exception carrying diagnostics, for producers (codegen) that must stop and report.

    `str()` gives the concise rendering so an uncaught error still names file, line, column and code.
    """

    diagnostics: list[Diagnostic] = field(default_factory=list)

    def __str__(self) -> str:
        return "\n".join(
            f"{d.path}:{d.span.line}:{d.span.column}: {d.code} {d.message}" for d in self.diagnostics
        )
