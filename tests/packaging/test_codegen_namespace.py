"""The code generator is imported as `safekernels.codegen` everywhere (issue 16 item 10).

The source folder stays `src/codegen/` (SPEC §2's layout); `src/safekernels/codegen` is a link to it, so the wheel
installs it under the `safekernels` namespace and never as a top-level `codegen` (a PyPI project of that name
exists).  In a checkout `src/` is on the path, so a stray `import codegen` would still work here while failing
for pip users, and it would load a second copy of every compiler module (two `SkDiagnostic` classes, two caches).
This test keeps both from happening.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TREES = ("src/safekernels", "src/ownership_check", "src/codegen", "mypy_plugin", "tests", "bench", "examples")


def _top_level_codegen_imports(path: Path) -> list[int]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    lines: list[int] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            lines += [node.lineno for alias in node.names if alias.name.split(".")[0] == "codegen"]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".")[0] == "codegen":
            lines.append(node.lineno)
    return lines


def test_no_module_imports_the_top_level_codegen_name() -> None:
    offenders: list[str] = []
    for tree in TREES:
        root = REPO / tree
        if root.is_symlink():
            continue
        for path in sorted(root.rglob("*.py")):
            if "checker_cases" in path.parts or "fixtures" in path.parts:
                continue
            offenders += [f"{path.relative_to(REPO)}:{line}" for line in _top_level_codegen_imports(path)]
    assert offenders == [], "import the compiler as `safekernels.codegen`: " + ", ".join(offenders)


def test_the_source_link_points_at_the_codegen_folder() -> None:
    link = REPO / "src" / "safekernels" / "codegen"
    assert link.is_symlink() and link.resolve() == (REPO / "src" / "codegen").resolve()


def test_compiling_a_kernel_loads_one_copy_of_the_compiler(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from safekernels import codegen, simt\n"
        "from safekernels.simt import DisjointSlice, Slice, thread\n"
        "from safekernels.dtypes import f32\n"
        "@simt.kernel\n"
        "@simt.launch_contract(block=32)\n"
        "def k(a: Slice[f32], c: DisjointSlice[f32]) -> None:\n"
        "    idx = thread.index_1d()\n"
        "    i = idx.get()\n"
        "    if (o := c.get_mut(idx)) is not None:\n"
        "        o.set(a[i])\n"
        "codegen.compile_simt_kernel(k, use_cache=False)\n"
        "print(sorted(m for m in sys.modules if m == 'codegen' or m.startswith('codegen.')))\n"
    )
    script = tmp_path / "one_copy.py"  # a file: the compiler reads the kernel's source with `inspect`
    script.write_text(code, encoding="utf-8")
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, check=True, cwd=REPO)
    assert result.stdout.strip() == "[]", result.stdout
