"""`import safekernels` / `import safekernels.simt` stay light: no libcst, mypy or llvmlite (SPEC §2)."""

from __future__ import annotations

import subprocess
import sys


def test_imports_pull_in_no_heavy_tools() -> None:
    code = (
        "import sys\n"
        "import safekernels, safekernels.simt\n"
        "from safekernels.simt import thread, warp\n"
        "import safekernels.cpu.simt_executor\n"
        "names = ('libcst', 'mypy', 'llvmlite', 'safekernels.codegen', 'codegen', 'ownership_check')\n"
        "heavy = [m for m in names if m in sys.modules]\n"
        "print(','.join(heavy))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "", f"heavy modules imported: {result.stdout.strip()}"
