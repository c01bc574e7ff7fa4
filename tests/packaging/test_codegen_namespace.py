"""The code generator is imported as `safekernels.codegen` everywhere (issue 16 item 10).

The sources live in `src/safekernels/codegen/`, a plain subpackage (no link, no path mapping: a Windows checkout,
mypy and editors see the same tree as the wheel), so the compiler installs under the `safekernels` namespace and
never as a top-level `codegen` (a PyPI project of that name exists).  These tests keep it that way: no module
imports a top-level `codegen`, the checkout holds no symbolic link, and compiling a kernel loads one copy of the
compiler.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TREES = ("src/safekernels", "src/ownership_check", "mypy_plugin", "tests", "bench", "examples")


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
        for path in sorted(root.rglob("*.py")):
            if "checker_cases" in path.parts or "fixtures" in path.parts:
                continue
            offenders += [f"{path.relative_to(REPO)}:{line}" for line in _top_level_codegen_imports(path)]
    assert offenders == [], "import the compiler as `safekernels.codegen`: " + ", ".join(offenders)


def test_the_checkout_holds_no_symbolic_link() -> None:
    tracked = subprocess.run(["git", "ls-files", "-s"], capture_output=True, text=True, cwd=REPO)
    if tracked.returncode != 0:  # an unpacked sdist: no git metadata, walk the tree instead
        links = [str(p.relative_to(REPO)) for p in (REPO / "src").rglob("*") if p.is_symlink()]
    else:  # mode 120000 is a link in git's index, whatever the checkout's file system made of it
        links = [line.split("\t", 1)[1] for line in tracked.stdout.splitlines() if line.startswith("120000 ")]
    assert links == []
    assert (REPO / "src" / "safekernels" / "codegen" / "__init__.py").is_file()
    assert not (REPO / "src" / "codegen").exists()


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
