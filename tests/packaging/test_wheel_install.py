"""A pip user's first session, from the wheel alone: build it, install it into a fresh venv outside the
repository, and do what the README and the quickstart say, in a folder that has never seen this checkout.

What it proves (issue 16): the README's first kernel runs (CPU executor); `ownership-check` reports a planted
E0502 with an absolute documentation link (and SARIF URIs are absolute); `safekernels explain E0502` works without
docs/ (the pages ship as package data, printed without the docs harness's markers); mypy with
`plugins = ["mypy_plugin"]` resolves the installed package and reports the same E0502; `safekernels demo` runs the
bundled examples; `safekernels new` creates projects whose own tests pass and which pass `mypy --strict` with
default flags; `safekernels doctor` says mypy resolves `safekernels` from the user's folder.
And every page of docs/ runs literally from the wheel (issue 25): each Python block, each error-index block through
the installed `ownership-check`, and mypy with the recommended configuration over all of them.

Cost: about 50-65 s on the 2-core machine (measured 65 s while other work ran): ~30 s to build the wheel, create
the venv and `pip install` it with its dependencies (numpy, llvmlite, cuda-bindings, nvJitLink, libdevice, libcst,
mypy; from pip's cache, the first time longer), the rest mostly mypy runs over the installed package.  The
wheel is built from a copy of the sources, so the checkout gets no build/ or egg-info.
It is marked `slow` (it still runs in `make test`; `-m "not slow"` skips it for quick local runs).
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
#: What a source distribution carries (pyproject + setup.py + MANIFEST.in decide what goes into the wheel).
SOURCES = (
    "pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "CHANGELOG.md", "src", "mypy_plugin", "docs", "examples",
)  # fmt: skip
_JUNK = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", ".mypy_cache", ".pytest_cache")

PLANTED_BUG = "vecadd.launch(vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=256), dev), stream, c, b, c)\n"


@dataclass(frozen=True)
class Installed:
    venv: Path
    home: Path  # the user's folder: outside the repository, no docs/ or examples/ in sight
    env: dict[str, str]

    def bin(self, name: str) -> str:
        return str(self.venv / "bin" / name)

    def run(self, argv: Sequence[str], cwd: Path | None = None, timeout: int = 300) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            list(argv), cwd=cwd or self.home, env=self.env, capture_output=True, text=True, timeout=timeout
        )


def _checked(proc: subprocess.CompletedProcess[str], what: str) -> subprocess.CompletedProcess[str]:
    assert proc.returncode == 0, f"{what} failed ({proc.returncode}):\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}"
    return proc


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    root = tmp_path_factory.mktemp("pip_user")
    assert REPO not in root.parents, "the user's folder must be outside the checkout"
    source = root / "source"
    source.mkdir()
    for name in SOURCES:
        path = REPO / name
        if path.is_dir():
            shutil.copytree(path, source / name, ignore=_JUNK)
        else:
            shutil.copy2(path, source / name)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "MYPYPATH", "PYTHONHOME")}
    env.update(SAFEKERNELS_DEVICE="cpu", SAFEKERNELS_CACHE_DIR=str(root / "kernel-cache"), PYTHONNOUSERSITE="1")
    env["MYPY_CACHE_DIR"] = str(root / "mypy-cache")  # one venv, so its mypy runs may share a cache
    wheels = root / "wheels"
    _checked(
        subprocess.run(
            [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(wheels), str(source)],
            env=env, capture_output=True, text=True, timeout=600,
        ),
        "pip wheel",
    )  # fmt: skip
    (wheel,) = wheels.glob("safekernels-*.whl")
    venv = root / "venv"
    _checked(subprocess.run([sys.executable, "-m", "venv", str(venv)], capture_output=True, text=True), "venv")
    _checked(
        subprocess.run(
            [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", str(wheel), "pytest"],
            env=env, capture_output=True, text=True, timeout=600,
        ),
        "pip install of the wheel",
    )  # fmt: skip
    home = root / "home"
    home.mkdir()
    return Installed(venv, home, env)


def _readme_first_kernel() -> str:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    match = re.search(r"```python\n(.*?)```", text, re.DOTALL)
    assert match, "README.md has no python block"
    return match.group(1)


def test_the_package_comes_from_the_venv_not_the_checkout(installed: Installed) -> None:
    proc = _checked(
        installed.run([installed.bin("python"), "-c", "import safekernels, mypy_plugin; print(safekernels.__file__)"]),
        "import",
    )
    assert Path(proc.stdout.strip()).is_relative_to(installed.venv), proc.stdout


def test_the_wheel_installs_no_top_level_codegen(installed: Installed) -> None:
    """The compiler ships as `safekernels.codegen`: a top-level `codegen` would collide with the PyPI project of
    that name (issue 16 item 10).  `mypy_plugin` stays top-level because `plugins = ["mypy_plugin"]` names it."""
    script = (
        "import importlib.util, safekernels.codegen as c\n"
        "print(importlib.util.find_spec('codegen') is None, c.__name__)\n"
    )
    proc = _checked(installed.run([installed.bin("python"), "-c", script]), "namespace check")
    assert proc.stdout.split() == ["True", "safekernels.codegen"], proc.stdout


def test_python_m_safekernels_never_runs_a_planted_lookalike(installed: Installed) -> None:
    """The wheel carries safekernels-module-guard.pth (issue 22, class A): without it `python -m safekernels`
    finds a `safekernels.py` in the working folder before the package and runs it."""
    folder = installed.home / "lookalikes"
    folder.mkdir()
    for name in ("safekernels", "ownership_check", "mypy_plugin", "cuda"):
        (folder / f"{name}.py").write_text(f"open('EXECUTED-{name}', 'w').close()\nraise SystemExit(0)\n")
    (folder / "host.py").write_text("x = 1\n")
    for module in ("safekernels", "ownership_check"):
        argv = [installed.bin("python"), "-m", module, *(["check"] if module == "safekernels" else []), "host.py"]
        proc = installed.run(argv, cwd=folder)
        assert sorted(p.name for p in folder.glob("EXECUTED-*")) == [], proc.stderr
        assert proc.returncode == 0 and "checked 1 file" in proc.stdout, proc.stdout + proc.stderr


def test_readme_first_kernel_runs_on_the_cpu_executor(installed: Installed) -> None:
    (installed.home / "first.py").write_text(_readme_first_kernel(), encoding="utf-8")
    proc = _checked(installed.run([installed.bin("python"), "first.py"]), "the README's first kernel")
    assert re.search(r"\[[-+0-9. e]+\]", proc.stdout), proc.stdout  # c[:4] printed


def test_ownership_check_reports_a_planted_e0502_with_absolute_links(installed: Installed) -> None:
    (installed.home / "bug.py").write_text(_readme_first_kernel() + PLANTED_BUG, encoding="utf-8")
    proc = installed.run([installed.bin("ownership-check"), "bug.py"])
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "error[E0502]: cannot borrow `c` as mutable because it is also borrowed as immutable" in proc.stdout
    footer = proc.stdout.strip().splitlines()[-1]
    assert re.search(r"see https://\S+/checker\.md#e0502$", footer), footer
    sarif = json.loads(installed.run([installed.bin("ownership-check"), "bug.py", "--format", "sarif"]).stdout)
    driver = sarif["runs"][0]["tool"]["driver"]
    assert driver["informationUri"].startswith("https://")
    assert all(rule["helpUri"].startswith("https://") for rule in driver["rules"])


def test_explain_works_without_a_checkout(installed: Installed) -> None:
    proc = _checked(installed.run([installed.bin("safekernels"), "explain", "E0502"]), "explain E0502")
    assert proc.stdout.startswith("## E0502")
    assert "<!--" not in proc.stdout and "https://" in proc.stdout
    assert "Failing example" in proc.stdout
    sk = _checked(installed.run([installed.bin("safekernels"), "explain", "SK001"]), "explain SK001")
    assert "| SK001 |" in sk.stdout


def test_mypy_with_the_plugin_reports_the_e0502(installed: Installed) -> None:
    project = installed.home / "mypy-project"
    project.mkdir()
    (project / "pyproject.toml").write_text(
        '[tool.mypy]\nplugins = ["mypy_plugin"]\ncheck_untyped_defs = true\n', encoding="utf-8"
    )
    (project / "bug.py").write_text(_readme_first_kernel() + PLANTED_BUG, encoding="utf-8")
    proc = installed.run([installed.bin("mypy"), "bug.py"], cwd=project)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "import-not-found" not in proc.stdout, proc.stdout
    line = len(_readme_first_kernel().splitlines()) + 1
    assert f"bug.py:{line}: error: cannot borrow `c` as mutable because it is also borrowed as immutable  [E0502]" in (
        proc.stdout
    ), proc.stdout
    doctor = installed.run([installed.bin("safekernels"), "doctor", "--json"], cwd=project)
    checks = {c["name"]: c for c in json.loads(doctor.stdout)["checks"]}
    assert checks["mypy imports"]["status"] == "ok", checks["mypy imports"]
    assert doctor.returncode == 0, doctor.stdout


def test_demo_runs_the_bundled_examples(installed: Installed) -> None:
    proc = _checked(installed.run([installed.bin("safekernels"), "demo"]), "safekernels demo")
    examples = len([p for p in (REPO / "examples").glob("*.py") if not p.name.startswith("_")])
    assert f"== all {examples} examples PASSED" in proc.stdout, proc.stdout


@pytest.mark.parametrize("track", ["simt", "tile"])
def test_new_project_runs_its_tests_and_passes_mypy_strict(installed: Installed, track: str) -> None:
    name = f"proj-{track}"
    _checked(installed.run([installed.bin("safekernels"), "new", name, "--track", track]), "safekernels new")
    project = installed.home / name
    # what the scaffold's README says first: install the project; its `safekernels` requirement is satisfied by the
    # installed wheel (there is no release on an index to fetch it from), so pip must not replace it
    before = installed.run([installed.bin("python"), "-c", "import safekernels; print(safekernels.__file__)"]).stdout
    pip_install = [installed.bin("python"), "-m", "pip", "install", "-q", "-e", "."]
    _checked(installed.run(pip_install, project), "pip install -e . of the new project")
    after = installed.run([installed.bin("python"), "-c", "import safekernels; print(safekernels.__file__)"]).stdout
    assert after == before, (before, after)
    pytest_argv = [installed.bin("python"), "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    _checked(installed.run(pytest_argv, project), "the scaffold's own tests")
    _checked(installed.run([installed.bin("mypy"), "--strict", "src", "tests"], project), "mypy --strict")
    _checked(installed.run([installed.bin("ownership-check"), "src", "tests"], project), "ownership-check")


def _docs_harness() -> Any:
    """tests/docs/test_doc_snippets.py as a module: its block parser, conventions and preludes decide what a page's
    code is, so the wheel run and the checkout run read the docs the same way."""
    path = REPO / "tests" / "docs" / "test_doc_snippets.py"
    spec = importlib.util.spec_from_file_location("doc_snippets_for_the_wheel", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up while they are built
    spec.loader.exec_module(module)
    return module


def _installed_has(installed: Installed, module: str) -> bool:
    probe = f"import importlib.util, sys; sys.exit(importlib.util.find_spec({module!r}) is None)"
    return installed.run([installed.bin("python"), "-c", probe]).returncode == 0


def test_every_docs_page_runs_literally_from_the_wheel(installed: Installed) -> None:
    """Every python block of every page, as a reader copies it, against the installed wheel only: runnable blocks
    run in the user's folder (the checkout's snippet test runs each twice in one cache; once is enough here),
    error-index blocks give exactly their code from the installed `ownership-check`, and mypy with the recommended
    configuration and the installed plugin is clean on the runnable blocks and reports each error block's code."""
    docs = _docs_harness()
    folder = installed.home / "docs-literal"
    folder.mkdir()
    failures: list[str] = []
    ran = 0
    for index, (block, program) in enumerate(docs.RUNNABLE):
        needs = block.options.get("requires")
        if needs and not _installed_has(installed, needs):
            continue  # torch / JAX are optional extras, not installed from the wheel here
        script = folder / f"block_{index}.py"
        script.write_text(program, encoding="utf-8")
        proc = installed.run([installed.bin("python"), script.name], cwd=folder)
        ran += 1
        if proc.returncode != 0:
            failures.append(f"{block.label}: exit {proc.returncode}\n{proc.stderr[-1500:]}")
    for index, (block, program) in enumerate(docs.CHECKED):
        script = folder / f"error_{index}.py"
        script.write_text(program, encoding="utf-8")
        proc = installed.run([installed.bin("ownership-check"), script.name, "--format", "json", "--no-cache"], folder)
        expected = block.options["checker-expect"]
        codes = sorted({d["code"] for d in json.loads(proc.stdout)["diagnostics"]}) if proc.returncode < 2 else None
        if codes != ([] if expected == "none" else [expected]):
            failures.append(f"{block.label}: ownership-check reported {codes} ({proc.stderr[-500:]})")
    assert ran >= len(docs.RUNNABLE) * 3 // 4 and len(docs.CHECKED) >= 10  # the pages really were executed
    assert failures == [], "\n\n".join(failures)

    typed = folder / "typed"
    typed.mkdir()
    config = "\n".join(f"{key} = {json.dumps(value)}" for key, value in _recommended_mypy().items())
    (typed / "pyproject.toml").write_text(f"[tool.mypy]\n{config}\n", encoding="utf-8")
    blocks = [
        (b, p)
        for b, p in docs.ALL
        if "skip" not in b.options
        and b.options.get("checker-expect") not in docs.CLI_ONLY
        and not (b.options.get("requires") and not _installed_has(installed, b.options["requires"]))
    ]
    for index, (_, program) in enumerate(blocks):
        (typed / f"snippet_{index}.py").write_text(program, encoding="utf-8")
    files = [f"snippet_{index}.py" for index in range(len(blocks))]
    proc = installed.run(
        [installed.bin("mypy"), "--show-column-numbers", "--no-error-summary", "--no-pretty", *files], typed, 600
    )
    assert proc.returncode in (0, 1), proc.stdout + proc.stderr
    found: dict[int, set[str]] = {}
    for line in proc.stdout.splitlines():
        if ": note: " in line:
            continue  # the notes of an error (value moved here, help)
        match = docs._MYPY_LINE.match(line)
        assert match, f"mypy printed a line about something other than the snippets: {line}"
        found.setdefault(int(match.group(1)), set()).add(match.group(4) or "")
    wrong = []
    for index, (block, _) in enumerate(blocks):
        expected = block.options.get("checker-expect")
        want = set() if expected in (None, "none") else {expected}
        if found.get(index, set()) != want:
            wrong.append(f"{block.label}: mypy reported {sorted(found.get(index, set()))}, expected {sorted(want)}")
    assert wrong == [], "\n".join(wrong)


def _recommended_mypy() -> dict[str, Any]:
    """The one configuration the pages recommend (tests/docs/test_mypy_config.py pins every page to it)."""
    path = REPO / "tests" / "docs" / "test_mypy_config.py"
    spec = importlib.util.spec_from_file_location("mypy_config_for_the_wheel", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return dict(module.RECOMMENDED)
