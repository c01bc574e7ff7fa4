"""JSON encoding of the core's flow IR and diagnostics, for the core's differential snapshot test.

The snapshot stores the *lowered IR* (not source files), so it pins the core alone: a front-end change cannot
make it stale, and a core change that alters any diagnostic of any stored function fails the test.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ownership_check.core import ir
from ownership_check.diagnostics import Diagnostic, Label, Severity, Span

_CLASSES: dict[str, type[Any]] = {
    cls.__name__: cls
    for cls in (
        ir.Place, ir.FromPlace, ir.Fresh, ir.Whole, ir.Range, ir.Half, ir.Bind, ir.View, ir.Borrow, ir.Move,
        ir.Use, ir.Del, ir.CheckBrand, ir.RequireUnsafe, ir.Suspend, ir.Return,
        ir.Raise, ir.Break, ir.Continue, ir.Branch,
        ir.Loop, ir.Try, ir.Unsafe, ir.Function,
    )
}


def encode(value: object) -> Any:
    """IR (dataclasses, tuples, spans) as plain JSON data; spans become 4-lists."""
    if isinstance(value, Span):
        return [value.line, value.column, value.end_line, value.end_column]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        name = type(value).__name__
        assert name in _CLASSES, name
        out: dict[str, Any] = {"@": name}
        for f in dataclasses.fields(value):
            item = getattr(value, f.name)
            if item != f.default:
                out[f.name] = encode(item)
        return out
    if isinstance(value, tuple):
        return {"()": [encode(v) for v in value]}
    assert value is None or isinstance(value, str | int | bool), value
    return value


def _span_field(cls: type[Any], name: str) -> bool:
    return name in ("span", "callee_span")


def decode(data: Any) -> Any:
    if isinstance(data, dict) and "()" in data:
        return tuple(decode(v) for v in data["()"])
    if isinstance(data, dict):
        cls = _CLASSES[data["@"]]
        kwargs = {
            k: (Span(*v) if _span_field(cls, k) else decode(v)) for k, v in data.items() if k != "@"
        }
        return cls(**kwargs)
    return data


def decode_function(data: Any) -> ir.Function:
    function = decode(data)
    assert isinstance(function, ir.Function)
    return function


def encode_diagnostic(d: Diagnostic) -> dict[str, Any]:
    return {
        "code": d.code,
        "message": d.message,
        "path": d.path,
        "span": encode(d.span),
        "severity": str(d.severity),
        "labels": [[encode(lb.span), lb.message, lb.primary] for lb in d.labels],
        "notes": list(d.notes),
        "help": d.help,
    }


def decode_diagnostic(data: dict[str, Any]) -> Diagnostic:
    return Diagnostic(
        data["code"],
        data["message"],
        data["path"],
        Span(*data["span"]),
        Severity(data["severity"]),
        tuple(Label(Span(*s), m, p) for s, m, p in data["labels"]),
        tuple(data["notes"]),
        data["help"],
    )
