"""`safekernels new NAME [--track simt|tile]`: a new project that is checked from its first commit.

The scaffold wires every safety net the product has, so a newcomer gets them without reading the docs first:
mypy with the plugin (editor diagnostics), the `ownership-check` pre-commit hook, a kernel with a launch contract
(SIMT) or a partitioned launch (Tile), and a test that runs it on whatever device the machine has.  The generated
code passes `mypy --strict` under the one mypy configuration the documentation recommends (the tile example
names the values `sync_on` hands back, so it passes on mypy releases without `allow_redefinition_new` too), and a
`.gitignore` keeps build output and caches out of the first `git add -A`.
"""

from __future__ import annotations

import argparse
import keyword
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from safekernels.project_links import docs_url

_PYPROJECT = """\
[build-system]
requires = ["setuptools>=77"]
build-backend = "setuptools.build_meta"

[project]
name = "{name}"
version = "0.1.0"
requires-python = ">=3.11"
# safekernels is not on PyPI yet: install it first (from its checkout: `pip install .`, or a wheel built there);
# pip then finds this requirement satisfied.
dependencies = ["safekernels"]

[project.optional-dependencies]
dev = ["pytest", "pre-commit"]

[tool.setuptools.packages.find]
where = ["src"]

[tool.pytest.ini_options]
testpaths = ["tests"]
pythonpath = ["src"]

[tool.mypy]
plugins = ["mypy_plugin"]
check_untyped_defs = true        # required: mypy runs no plugin hook inside unannotated functions otherwise
allow_redefinition_new = true    # `z, x, y = op.sync_on(stream)` rebinds the names that held DeviceOps
local_partial_types = true       #   to the tensors you get back (mypy >= 1.16; required by the line above)
mypy_path = "src"                # this project's layout

[tool.ownership-check]
exclude = [".venv", "build"]
"""

_PRE_COMMIT = """\
# The ownership checker as a pre-commit hook (it is installed with safekernels, so the hook uses it directly).
repos:
  - repo: local
    hooks:
      - id: ownership-check
        name: ownership-check
        entry: ownership-check
        language: system
        types: [python]
        require_serial: true   # one process sees every staged file: kernels launched across modules resolve
"""

_GITIGNORE = """\
.venv/
venv/
__pycache__/
*.egg-info/
build/
dist/
.pytest_cache/
.mypy_cache/
.ruff_cache/
.ownership_check_cache/
.safekernels_cache/
"""

_SIMT_KERNEL = '''\
"""Vector addition, SIMT track: each thread writes its own element of `c`."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=256, requires=("len(a) >= len(c)", "len(b) >= len(c)"))
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] + b[i])


def add(x: npt.NDArray[np.float32], y: npt.NDArray[np.float32], device: sk.Device) -> npt.NDArray[np.float32]:
    """x + y computed by the kernel on `device`."""
    stream = device.new_stream()
    a = sk.to_device(x, stream)
    b = sk.to_device(y, stream)
    c = sk.zeros(len(x), f32, stream)
    launch = vecadd.prepare(simt.LaunchConfig1D.for_len(len(x), block=256), device)
    vecadd.launch(launch, stream, a, b, c)
    return c.to_numpy(stream)
'''

_TILE_KERNEL = '''\
"""Vector addition, Tile track: each tile block adds one 128-element tile."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add_kernel(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def add(a: npt.NDArray[np.float32], b: npt.NDArray[np.float32], device: sk.Device) -> npt.NDArray[np.float32]:
    """a + b computed by the kernel on `device`."""
    stream = device.new_stream()
    x = tile.from_numpy(a)
    y = tile.from_numpy(b)
    z = tile.zeros((len(a),), f32).partition((128,))
    total, _, _ = add_kernel(z, x, y).sync_on(stream)  # the launch moved z, x, y and hands them back
    result: npt.NDArray[np.float32] = total.unpartition().to_numpy(stream)
    return result
'''

_TEST = '''\
import numpy as np

import safekernels as sk
from {package}.kernels import add


def test_add_matches_numpy() -> None:
    rng = np.random.default_rng(0)
    x = rng.random(1000, dtype=np.float32)
    y = rng.random(1000, dtype=np.float32)
    np.testing.assert_array_equal(add(x, y, sk.Device.cpu()), x + y)
'''

_README = """\
# {name}

GPU kernels written with [safekernels]({docs}) ({track} track),
checked for aliasing and use-after-move before they run.

safekernels has no PyPI release yet: install it into this environment first, from its checkout or a wheel
built from one ([how]({install})). Then the next three commands:

```sh
pip install -e '.[dev]'        # this project, pytest, pre-commit (safekernels is already installed)
pytest                         # runs the kernel on the CPU executor (no GPU needed)
ownership-check src tests      # the ownership checker; `pre-commit install` runs it on every commit
```

Editors: mypy with the safekernels plugin is configured in pyproject.toml (`plugins = ["mypy_plugin"]`);
`mypy --strict src tests` passes as generated.  `safekernels explain E0502` explains any diagnostic code.
"""


_TRACK_NAMES = {"simt": "SIMT", "tile": "Tile"}


def _package_name(name: str) -> str:
    package = re.sub(r"[^0-9a-zA-Z_]", "_", name).lower()
    if not package or package[0].isdigit() or keyword.iskeyword(package):
        package = f"project_{package}"
    return package


#: A distribution name pip accepts (PEP 508: letters, digits, `.`, `_`, `-`; a letter or digit at both ends).
_PROJECT_NAME = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$")
#: Longest project name: the name is also a folder and (as a package) a second folder; file systems stop at 255.
MAX_NAME = 100


class ScaffoldError(ValueError):
    """The project cannot be created there or with that name (the message says why and what to do)."""


def check_target(target: Path, name: str) -> None:
    """Refuse, before writing anything, a name pip would refuse or a folder that cannot hold the project."""
    if len(name) > MAX_NAME:
        raise ScaffoldError(f"the project name is {len(name)} characters long; use at most {MAX_NAME}")
    if not _PROJECT_NAME.match(name):
        raise ScaffoldError(
            f"{name!r} is not a valid project name: use letters, digits, '.', '_' and '-', "
            "starting and ending with a letter or digit"
        )
    for parent in target.parents:
        if parent.exists() and not parent.is_dir():
            raise ScaffoldError(f"{target} lies below {parent}, which is not a directory")
    if target.exists() or target.is_symlink():
        if not target.is_dir():
            raise ScaffoldError(f"{target} exists and is not a directory; choose a new directory")
        try:
            empty = not any(target.iterdir())
        except OSError as exc:
            raise ScaffoldError(f"{target}: cannot read the directory ({exc.strerror or exc})") from None
        if not empty:
            raise FileExistsError(f"{target} exists and is not empty; choose a new directory")


def create_project(target: Path, name: str, track: str) -> list[Path]:
    """Write the scaffold into `target` (which must not exist or be empty); returns the files written.

    Raises `ScaffoldError` (or `FileExistsError`) with a message for a bad name or place, and for a write that
    fails (a read-only folder, /proc, a full disk)."""
    if track not in ("simt", "tile"):
        raise ValueError(f"track must be 'simt' or 'tile', got {track!r}")
    check_target(target, name)
    package = _package_name(name)
    files = {
        "pyproject.toml": _PYPROJECT.format(name=name),
        ".pre-commit-config.yaml": _PRE_COMMIT,
        ".gitignore": _GITIGNORE,
        "README.md": _README.format(
            name=name, track=_TRACK_NAMES[track], docs=docs_url("quickstart.md"), install=docs_url("install.md")
        ),
        f"src/{package}/__init__.py": f'"""{name}: safekernels kernels."""\n',
        f"src/{package}/kernels.py": _SIMT_KERNEL if track == "simt" else _TILE_KERNEL,
        "tests/test_kernels.py": _TEST.format(package=package),
    }
    written = []
    for relative, text in files.items():
        path = target / relative
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise ScaffoldError(f"cannot write {path}: {exc.strerror or exc}") from None
        written.append(path)
    return written


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="safekernels new", description="Create a new safekernels project.")
    parser.add_argument("name", help="project directory (and distribution) name")
    parser.add_argument("--track", choices=("simt", "tile"), default="simt", help="kernel track (default: simt)")
    args = parser.parse_args(list(argv))
    target = Path(args.name)
    try:
        written = create_project(target, target.name, args.track)
    except (FileExistsError, ValueError) as exc:
        print(f"safekernels new: {exc}", file=sys.stderr)
        return 2
    print(f"created {target}/ with {len(written)} files ({args.track} track). Next:")
    print(f"  cd {target}\n  pip install -e '.[dev]'\n  pytest\n  ownership-check src tests")
    return 0
