"""One build step on top of pyproject.toml: bundle the error index and the examples into the wheel.

`safekernels explain CODE` prints sections of docs/checker.md and the compiler guides, and `safekernels demo`
runs examples/*.py.  Both folders sit beside `src/`, outside any package, so a plain wheel would not carry them
and a pip user would get "no explanation" and "no examples".  This step copies them into the built package as
`safekernels/_bundled/{docs,examples}/` (the docs stay the single source: nothing is generated or committed).
Editable installs skip it: `safekernels.explain` and `safekernels demo` read the checkout's folders directly.
MANIFEST.in puts the same files into the sdist, so a wheel built from the sdist has them too.
It also writes `safekernels-module-guard.pth` at the wheel's root (the startup guard of `python -m safekernels`).

The compiler's sources live in `src/safekernels/codegen/` (one folder per pipeline stage), a plain subpackage: no
link or path mapping that a Windows checkout, mypy or an editor would have to understand, and the wheel and the
sdist carry one copy of the compiler (tests/packaging).
"""

from __future__ import annotations

from pathlib import Path

from setuptools import find_packages, setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent

#: bundle name -> (source folder, file names). The docs list is `safekernels.explain`'s index pages.
BUNDLES = {
    "docs": ("docs", ("checker.md", "simt-compiler.md", "tile-compiler.md", "tile.md", "simt.md")),
    "examples": ("examples", ()),  # every examples/*.py
}


def packages() -> tuple[list[str], dict[str, str]]:
    """The distribution's packages and where each lives: `safekernels` and `ownership_check` from `src/`,
    `mypy_plugin` from the root."""
    own = find_packages("src", include=["safekernels", "safekernels.*", "ownership_check", "ownership_check.*"])
    plugin = find_packages(".", include=["mypy_plugin", "mypy_plugin.*"])
    return [*own, *plugin], {"": "src", "mypy_plugin": "mypy_plugin"}


class BuildPyWithBundles(build_py):
    """`build_py` that also copies the bundles into `safekernels/_bundled/` of the build tree."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        # The startup guard of `python -m safekernels` (see safekernels/safe_sys_path.py): a .pth at the
        # root of the wheel, which pip installs into site-packages beside the packages.
        namespace: dict[str, object] = {}
        guard = ROOT / "src" / "safekernels" / "safe_sys_path.py"
        exec(compile(guard.read_text(), str(guard), "exec"), namespace)  # defines PTH_LINE; its guard is a no-op here
        (Path(self.build_lib) / "safekernels-module-guard.pth").write_text(str(namespace["PTH_LINE"]))
        target = Path(self.build_lib) / "safekernels" / "_bundled"
        for bundle, (folder, names) in BUNDLES.items():
            source = ROOT / folder
            files = [source / name for name in names] if names else sorted(source.glob("*.py"))
            missing = [str(path) for path in files if not path.is_file()]
            if missing or not files:
                raise SystemExit(f"cannot bundle {bundle}: missing {', '.join(missing) or source}")
            (target / bundle).mkdir(parents=True, exist_ok=True)
            for path in files:
                self.copy_file(str(path), str(target / bundle / path.name))


PACKAGES, PACKAGE_DIR = packages()
setup(packages=PACKAGES, package_dir=PACKAGE_DIR, cmdclass={"build_py": BuildPyWithBundles})
