"""The golden checker cases that mix SIMT buffers with tile moves (`tests/checker_cases/e0505_*.py`) actually run.

Each case is made runnable on the CPU executor by one textual change, `sk.Device(0)` -> `sk.Device.default()`
(with `SAFEKERNELS_DEVICE=cpu`; line numbers are kept), imported from a temporary directory, and its `main` run.
The runtime must do what the checker says: raise `BorrowError` worded like E0505 exactly at the line marked
`# expect: E0505` (and run to completion on the path where the checker reports nothing), and the checker must
report the same line for the runnable version.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from safekernels.errors import BorrowError

CASES = Path(__file__).resolve().parents[1] / "checker_cases"
EXPECT = re.compile(r"#\s*expect:\s*(E\d{4})")


def runnable(case: str, tmp_path: Path) -> tuple[Path, int]:
    """The case rewritten for the CPU executor, and the line of its `# expect:` marker."""
    source = (CASES / case).read_text()
    assert source.count("sk.Device(0)") == 1, "the case changed: update this test"
    text = source.replace("sk.Device(0)", "sk.Device.default()")
    assert text.count("\n") == source.count("\n")
    lines = [i for i, line in enumerate(text.splitlines(), 1) if EXPECT.search(line)]
    assert len(lines) == 1
    path = tmp_path / f"runnable_{case}"
    path.write_text(text)
    return path, lines[0]


def load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[path.stem]
    return module


def raised_at(excinfo: pytest.ExceptionInfo[BaseException], path: Path) -> int:
    """The line of `path` the exception came out of."""
    frames = [entry for entry in excinfo.traceback if Path(str(entry.path)) == path]
    assert frames, excinfo.traceback
    return frames[-1].lineno + 1  # pytest's traceback lines are 0-based


def checker_lines(path: Path, code: str) -> list[int]:
    pytest.importorskip("libcst")
    from ownership_check.api import check_paths

    result = check_paths([str(path)], use_cache=False)
    return sorted(d.line for d in result.diagnostics if d.code == code)


@pytest.mark.parametrize(
    ("case", "name", "args"),
    [
        ("e0505_partition_while_async_borrowed.py", "c", (1000,)),
        ("e0505_borrow_still_pending_on_one_path.py", "c", (1000, False)),
        ("e0505_tile_launch_while_async_borrowed.py", "a", (1000,)),
    ],
)
def test_case_raises_e0505_at_the_checked_line(case: str, name: str, args: tuple[Any, ...], tmp_path: Path) -> None:
    path, line = runnable(case, tmp_path)
    module = load(path)
    with pytest.raises(BorrowError) as excinfo:
        module.main(*args)
    assert str(excinfo.value).startswith(f"cannot move out of `{name}` because it is borrowed (E0505)")
    assert raised_at(excinfo, path) == line
    assert checker_lines(path, "E0505") == [line]


def test_the_synced_path_of_the_one_path_case_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """With `eager=True` the first op is synced before `c` moves: no E0505 on that path, and none at runtime."""
    path, _ = runnable("e0505_borrow_still_pending_on_one_path.py", tmp_path)
    load(path).main(1000, True)
    assert "Partition[f32](shape=(1000,), tile=(256,), grid=(4,))" in capsys.readouterr().out


def test_the_tile_case_runs_once_the_borrow_ends(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Moving the `sync_on` above the tile launch (what the checker's help says) makes the program run."""
    path, _ = runnable("e0505_tile_launch_while_async_borrowed.py", tmp_path)
    lines = path.read_text().splitlines()
    sync = next(i for i, text in enumerate(lines) if text.strip() == "pending.sync_on(stream)")
    moved = lines.pop(sync)
    launch_async = next(i for i, text in enumerate(lines) if "= vecadd.launch_async(" in text)
    lines.insert(launch_async + 1, moved)  # right after the launch_async, before the tile launch
    path.write_text("\n".join(lines) + "\n")
    assert checker_lines(path, "E0505") == []
    load(path).main(1000)
    out = capsys.readouterr().out
    assert "Partition[f32]" in out and "DeviceBuffer[f32](len=1000" in out
