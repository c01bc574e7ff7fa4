"""Every fenced ```python block in docs/*.md and README.md runs, on the CPU executor, in a fresh process.

Convention (an HTML comment on the line right before the opening fence; words may be combined):

- no comment: the block runs alone, as a script, in a temp dir, with `SAFEKERNELS_DEVICE=cpu`; it must exit 0,
  twice in a row with the same caches (a reader runs a page again: the second run reads the compile cache and the
  autotuning table the first one wrote, so a snippet must not assume a cold cache).
- `<!-- snippet: continue -->`: the block continues the page's previous python block (their texts are joined and
  run as one program, so a page can build up an example step by step).
- `<!-- snippet: prelude=NAME -->`: `PRELUDES[NAME]` below (imports, kernels, buffers) is prepended, for short
  fragments such as the failing/fixed pairs of the error index.
- `<!-- snippet: checker-expect CODE -->`: the block demonstrates a diagnostic. It is not run; the ownership
  checker checks it (with its prelude / continuation) and must report exactly `CODE` (one or more times) and
  nothing else.  `checker-expect none` demands a clean check (for blocks that only make sense statically).
- `<!-- snippet: requires=MODULE -->` (e.g. `requires=torch`): runs like any block where MODULE imports, and is
  skipped (not run, not type-checked) where it does not, as in CI, which installs neither torch nor JAX.
- `<!-- snippet: skip reason=... -->`: not run; only for blocks that need a GPU or a configured editor.  At most
  `MAX_SKIPS` blocks may be skipped over all pages.

```sh``` / ```console``` / ```bash``` blocks are not run, but each `safekernels ...` or `ownership-check ...`
command line in them must parse: `ownership-check` (and `safekernels check`) arguments through the checker's own
argparse parser, other `safekernels` subcommands by their name and by every `--flag` appearing in their `--help`.
"""

from __future__ import annotations

import functools
import json
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PAGES = [*sorted((REPO / "docs").glob("*.md")), REPO / "README.md"]
MAX_SKIPS = 6

_SIMT_IMPORTS = """\
import numpy as np
import safekernels as sk
from safekernels import simt, tile
from safekernels.simt import Slice, DisjointSlice, thread
from safekernels.tile import Partition, Tensor
from safekernels.dtypes import f32
"""

PRELUDES = {
    # SIMT: vecadd, saxpy and a two-output kernel, prepared on the CPU executor, with buffers a, b, c, x, y, out.
    "simt": _SIMT_IMPORTS
    + """
@simt.kernel
@simt.launch_contract(block=256)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] + b[i])

@simt.kernel
@simt.launch_contract(block=128)
def saxpy(x: Slice[f32], y: Slice[f32], out: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(alpha * x[i] + y[i])

@simt.kernel
@simt.launch_contract(block=256)
def split2(src: Slice[f32], evens: DisjointSlice[f32], odds: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (e := evens.get_mut(idx)) is not None:
        e.set(src[2 * i])

dev = sk.Device.cpu()
stream = dev.new_stream()
n = 1024
a = sk.to_device(np.ones(n, np.float32), stream)
b = sk.to_device(np.ones(n, np.float32), stream)
c = sk.zeros(n, f32, stream)
src = sk.to_device(np.ones(n, np.float32), stream)
x, y, out = a, b, c
prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=256), dev)
split_n = n // 2
""",
    # The same, with `prepared` branded to `split2` (for the E0499 pair).
    "simt-split2": "",
    # Tile: the `add` kernel and x, y, z (z partitioned), on the CPU executor.
    "tile": _SIMT_IMPORTS
    + """
@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))

stream = sk.Device.cpu().new_stream()
x = tile.ones((1024,), f32)
y = tile.ones((1024,), f32)
z = tile.zeros((1024,), f32).partition((128,))
steps = 3
""",
}


@dataclass
class Block:
    page: Path
    line: int  # 1-based line of the opening fence
    lang: str
    text: str
    options: dict[str, str] = field(default_factory=dict)

    @property
    def label(self) -> str:
        return f"{self.page.relative_to(REPO)}:{self.line}"


_FENCE = re.compile(r"^(\s*)```(\w*)\s*$")
_OPTION = re.compile(r"<!--\s*snippet:\s*(.*?)\s*-->")


def parse_options(comment: str) -> dict[str, str]:
    """`continue checker-expect E0502 prelude=simt skip reason=needs a GPU` -> options."""
    options: dict[str, str] = {}
    reason = re.search(r"reason=(.*)$", comment)
    if reason:
        options["reason"] = reason.group(1).strip()
        comment = comment[: reason.start()]
    words = comment.split()
    i = 0
    while i < len(words):
        word = words[i]
        if word == "checker-expect" and i + 1 < len(words):
            options["checker-expect"] = words[i + 1]
            i += 2
            continue
        key, _, value = word.partition("=")
        options[key] = value
        i += 1
    return options


def blocks_of(page: Path) -> list[Block]:
    lines = page.read_text(encoding="utf-8").splitlines()
    found: list[Block] = []
    i = 0
    while i < len(lines):
        match = _FENCE.match(lines[i])
        if not match or not match.group(2):
            i += 1
            continue
        indent, lang = match.group(1), match.group(2)
        start = i
        body: list[str] = []
        i += 1
        while i < len(lines) and lines[i].strip() != "```":
            body.append(lines[i][len(indent) :] if lines[i].startswith(indent) else lines[i])
            i += 1
        previous = lines[start - 1] if start > 0 else ""
        option = _OPTION.search(previous)
        found.append(
            Block(page, start + 1, lang, "\n".join(body) + "\n", parse_options(option.group(1)) if option else {})
        )
        i += 1
    return found


def programs(page: Path) -> list[tuple[Block, str]]:
    """Each python block with the full program it stands for (continuations joined, prelude prepended)."""
    out: list[tuple[Block, str]] = []
    previous = ""
    for block in blocks_of(page):
        if block.lang != "python":
            continue
        program = (previous if "continue" in block.options else "") + block.text
        if "prelude" in block.options and "continue" not in block.options:
            program = PRELUDES[block.options["prelude"]] + program
        out.append((block, program))
        if "checker-expect" not in block.options:
            previous = program
    return out


PRELUDES["simt-split2"] = (
    PRELUDES["simt"] + "prepared = split2.prepare(simt.LaunchConfig1D.for_len(n, block=256), dev)\n"
)

ALL = [item for page in PAGES for item in programs(page)]


def _missing_requirement(block: Block) -> str | None:
    """The module a `requires=` block needs when it is not installed here, else None."""
    import importlib.util

    module = block.options.get("requires")
    return module if module and importlib.util.find_spec(module) is None else None


RUNNABLE = [(b, p) for b, p in ALL if "skip" not in b.options and "checker-expect" not in b.options]
CHECKED = [(b, p) for b, p in ALL if "checker-expect" in b.options]


def test_the_convention_is_used_sparingly() -> None:
    skipped = [b for b, _ in ALL if "skip" in b.options]
    assert len(skipped) <= MAX_SKIPS, [b.label for b in skipped]
    assert all(b.options.get("reason") for b in skipped), "every skip needs reason=..."
    allowed = {"continue", "prelude", "checker-expect", "skip", "reason", "requires"}
    unknown = {k for b, _ in ALL for k in b.options} - allowed
    assert not unknown
    assert all(b.options["prelude"] in PRELUDES for b, _ in ALL if "prelude" in b.options)
    assert len(RUNNABLE) >= 12 and len(CHECKED) >= 10  # the docs really are executed


@pytest.mark.parametrize(("block", "program"), RUNNABLE, ids=[b.label for b, _ in RUNNABLE])
def test_python_block_runs_on_the_cpu_executor(block: Block, program: str, tmp_path: Path) -> None:
    if (missing := _missing_requirement(block)) is not None:
        pytest.skip(f"{block.label} needs {missing}, which is not installed here")
    script = tmp_path / "snippet.py"
    script.write_text(program, encoding="utf-8")
    env = dict(os.environ, SAFEKERNELS_DEVICE="cpu", SAFEKERNELS_CACHE_DIR=str(tmp_path / "cache"))
    for run in ("first", "second"):  # the second run finds the caches the first one wrote
        proc = subprocess.run(
            [sys.executable, str(script)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
        )
        assert proc.returncode == 0, f"{block.label} failed on its {run} run:\n{proc.stdout}\n{proc.stderr[-3000:]}"


@pytest.mark.parametrize(("block", "program"), CHECKED, ids=[b.label for b, _ in CHECKED])
def test_error_block_produces_exactly_its_code(block: Block, program: str, tmp_path: Path) -> None:
    (tmp_path / "snippet.py").write_text(program, encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "ownership_check", "snippet.py", "--format", "json", "--no-cache"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode in (0, 1), proc.stderr
    codes = sorted({d["code"] for d in json.loads(proc.stdout)["diagnostics"]})
    expected = block.options["checker-expect"]
    assert codes == ([] if expected == "none" else [expected]), f"{block.label}: checker reported {codes}"


# -- shell blocks ------------------------------------------------------------------------------------------------


@functools.cache
def _help_text(subcommand: str) -> str:
    proc = subprocess.run(
        [sys.executable, "-m", "safekernels", subcommand, "--help"], capture_output=True, text=True, timeout=120
    )
    return proc.stdout + proc.stderr


def _command_lines(block: Block) -> list[list[str]]:
    commands = []
    for raw in block.text.splitlines():
        line = raw.strip().removeprefix("$ ").split(" #", 1)[0].strip()
        if not line.startswith(("safekernels ", "ownership-check")) or line.startswith("safekernels-"):
            continue
        line = line.split("|", 1)[0].split(">", 1)[0].split("&&", 1)[0].strip()
        commands.append(shlex.split(line))
    return commands


SHELL = [
    (b, cmd)
    for page in PAGES
    for b in blocks_of(page)
    if b.lang in ("sh", "console", "bash", "shell")
    for cmd in _command_lines(b)
]


@pytest.mark.parametrize(("block", "argv"), SHELL, ids=[f"{b.label}:{' '.join(a)[:40]}" for b, a in SHELL])
def test_shell_command_lines_parse(block: Block, argv: list[str]) -> None:
    from ownership_check.cli import build_parser
    from safekernels.cli import _COMMANDS

    if argv[0] == "ownership-check" or argv[:2] == ["safekernels", "check"]:
        args = argv[1:] if argv[0] == "ownership-check" else argv[2:]
        try:
            build_parser().parse_args(args)
        except SystemExit as exc:
            pytest.fail(f"{block.label}: `{' '.join(argv)}` does not parse ({exc})")
        return
    if len(argv) == 1 or argv[1] in ("--help", "-h", "--version", "-V"):
        return
    sub = argv[1]
    assert sub in _COMMANDS, f"{block.label}: unknown subcommand {sub!r}"
    help_text = _help_text(sub)
    for word in argv[2:]:
        flag = word.split("=", 1)[0]
        if flag.startswith("-") and flag not in ("-h", "--help"):
            assert flag in help_text, f"{block.label}: `safekernels {sub}` has no option {flag}"


# -- the same blocks under mypy with the plugin ------------------------------------------------------------------

#: The configuration docs/editors.md documents (the `safekernels new` scaffold is held to default flags in
#: tests/cli/test_scaffold.py).  `mypy_path` makes this checkout's sources visible whatever the install mode.
MYPY_CONFIG = f"""\
[tool.mypy]
plugins = ["mypy_plugin"]
check_untyped_defs = true
allow_redefinition_new = true
local_partial_types = true
mypy_path = {json.dumps(str(REPO / "src"))}

[[tool.mypy.overrides]]
module = ["safekernels.*", "ownership_check.*", "llvmlite.*", "cuda.*"]
follow_imports = "silent"
ignore_missing_imports = true
"""

_MYPY_LINE = re.compile(r"^snippet_(\d+)\.py:(\d+):(?:\d+:)? error: (.*?)(?:\s+\[([\w-]+)\])?$")
#: Codes only the CLI reports (docs/editors.md "Differences from the CLI"): a syntax error stops mypy before any
#: plugin hook, unused suppressions need the whole file's results, and W0002 is about libcst's parser.
CLI_ONLY = {"E0001", "W0001", "W0002"}
MYPY_BLOCKS = [
    (b, p)
    for b, p in ALL
    if "skip" not in b.options and b.options.get("checker-expect") not in CLI_ONLY and _missing_requirement(b) is None
]


@pytest.fixture(scope="module")
def mypy_report(tmp_path_factory: pytest.TempPathFactory) -> dict[int, list[tuple[int, str, str]]]:
    """One mypy run over every non-skipped block (each its own module): block index -> [(line, message, code)]."""
    pytest.importorskip("mypy")
    folder = tmp_path_factory.mktemp("mypy_snippets")
    (folder / "pyproject.toml").write_text(MYPY_CONFIG, encoding="utf-8")
    files = []
    for index, (_, program) in enumerate(MYPY_BLOCKS):
        path = folder / f"snippet_{index}.py"
        path.write_text(program, encoding="utf-8")
        files.append(path.name)
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--show-column-numbers", "--no-error-summary", "--no-pretty", *files],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode in (0, 1), proc.stdout + proc.stderr
    report: dict[int, list[tuple[int, str, str]]] = {}
    for line in proc.stdout.splitlines():
        match = _MYPY_LINE.match(line)
        if match:
            report.setdefault(int(match.group(1)), []).append(
                (int(match.group(2)), match.group(3), match.group(4) or "")
            )
        # Lines about other files are mypy reading the library from src/ as source (mypy_path), not the docs.
    return report


@pytest.mark.parametrize("index", range(len(MYPY_BLOCKS)), ids=[b.label for b, _ in MYPY_BLOCKS])
def test_python_block_type_checks_under_mypy_with_the_plugin(
    index: int, mypy_report: dict[int, list[tuple[int, str, str]]]
) -> None:
    """Runnable blocks are clean under mypy; a `checker-expect CODE` block gets exactly CODE from the plugin too."""
    block, _ = MYPY_BLOCKS[index]
    errors = mypy_report.get(index, [])
    expected = block.options.get("checker-expect")
    if expected is None or expected == "none":
        assert errors == [], f"{block.label}: mypy reports {errors}"
        return
    codes = sorted({code for _, _, code in errors})
    assert codes == [expected], f"{block.label}: mypy reports {errors}"
