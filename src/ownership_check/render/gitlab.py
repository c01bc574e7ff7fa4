"""GitLab Code Quality reports (`artifacts: reports: codequality:`), so findings appear in merge requests.

    [{"description": "E0382 use of moved value: `z`", "check_name": "E0382", "fingerprint": "…",
      "severity": "major", "location": {"path": "host.py", "lines": {"begin": 12, "end": 12}}}]

GitLab tracks a finding across pipelines by its `fingerprint`, so it must not change when unrelated lines move:
it hashes the path, the code, the message and the finding's rank among identical ones (not the line number).
Paths are written relative to the working directory with `/` separators, as GitLab resolves them from the
repository root where the job runs.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Sequence
from typing import Any

from ownership_check.diagnostics import Diagnostic, Severity
from ownership_check.render.json_format import dumps_utf8

#: GitLab's severities are info, minor, major, critical, blocker.
_SEVERITY = {Severity.ERROR: "major", Severity.WARNING: "minor"}


def _path(path: str) -> str:
    return path.replace("\\", "/").removeprefix("./")


def render_gitlab(diagnostics: Sequence[Diagnostic]) -> str:
    seen: Counter[tuple[str, str, str]] = Counter()
    report: list[dict[str, Any]] = []
    for diag in diagnostics:
        key = (_path(diag.path), diag.code, diag.message)
        seen[key] += 1
        digest = hashlib.sha256("\0".join((*key, str(seen[key]))).encode("utf-8", "surrogateescape"))
        report.append(
            {
                "description": f"{diag.code} {diag.message}",
                "check_name": diag.code,
                "fingerprint": digest.hexdigest(),
                "severity": _SEVERITY.get(diag.severity, "info"),
                "location": {"path": key[0], "lines": {"begin": diag.span.line, "end": diag.span.end_line}},
            }
        )
    return dumps_utf8(report)
