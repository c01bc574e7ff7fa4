"""`ownership-check --fix` / `--diff`: apply (or show) the verified fixes of every reported file.

Each file is re-checked through `server.workspace.Workspace`, the incremental checker the editor server uses,
so the CLI and the code actions offer exactly the same fixes.  Line endings, a UTF-8 BOM and everything the
fixes do not touch are written back as they were.
"""

from __future__ import annotations

import difflib
import os
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ownership_check.diagnostics import Diagnostic
from ownership_check.fixes.catalog import Fix
from ownership_check.fixes.verify import apply_fixes

_BOM = b"\xef\xbb\xbf"


@dataclass
class FixOutcome:
    applied: dict[str, list[Fix]] = field(default_factory=dict)  # display path -> fixes, in order
    diff: str = ""
    errors: list[str] = field(default_factory=list)

    @property
    def count(self) -> int:
        return sum(len(f) for f in self.applied.values())


def fix_files(
    diagnostics: Sequence[Diagnostic],
    sources: dict[str, str],
    *,
    write: bool,
    unsafe: bool,
    wanted: Callable[[Diagnostic], bool] = lambda d: True,
) -> FixOutcome:
    """Fix each file that has diagnostics; write it back when `write`, else collect a unified diff."""
    from ownership_check.server.workspace import Workspace

    outcome = FixOutcome()
    by_path: dict[str, list[Diagnostic]] = {}
    for d in diagnostics:
        if d.code not in ("E0001", "W0001", "W0002"):
            by_path.setdefault(d.path, []).append(d)
    workspace = Workspace([os.getcwd()])
    for display, _ in sorted(by_path.items()):
        source = sources.get(display)
        if source is None:
            continue
        full = os.path.abspath(display)

        def recheck(text: str, full: str = full) -> list[Diagnostic] | None:
            return workspace.check_text(full, text)

        before = recheck(source)
        if before is None:
            outcome.errors.append(f"{display}: internal error while checking it for fixes (please report it)")
            continue
        fixed, applied = apply_fixes(source, before, recheck, unsafe=unsafe, wanted=wanted)
        if not applied:
            continue
        outcome.applied[display] = applied
        if write:
            try:
                _write_back(full, fixed)
            except OSError as exc:
                outcome.errors.append(f"{display}: cannot write the fixed file: {exc.strerror or exc}")
                del outcome.applied[display]
        else:
            outcome.diff += "".join(
                difflib.unified_diff(
                    source.splitlines(keepends=True),
                    fixed.splitlines(keepends=True),
                    fromfile=f"a/{display}",
                    tofile=f"b/{display}",
                )
            )
    return outcome


def _write_back(path: str, text: str) -> None:
    with open(path, "rb") as f:
        original = f.read()
    if b"\r\n" in original:
        text = text.replace("\n", "\r\n")
    data = text.encode("utf-8")
    if original.startswith(_BOM):
        data = _BOM + data
    tmp = f"{path}.ownership-fix.tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    shutil.copymode(path, tmp)
    os.replace(tmp, path)
