"""Keep `python -m ownership_check` / `python -m safekernels` from importing the checked tree's files.

For `python -m NAME`, Python puts the current directory first on `sys.path` before it imports the package.  A
checker that runs in CI on an untrusted pull request would then import a `json.py`, `typing.py` or
`dataclasses.py` sitting in the checked directory instead of the standard library's, i.e. execute the code it
was asked to read (docs/reference.md §7: the checker never imports or executes the code it checks).  The console scripts
(`ownership-check`, `safekernels`) are not affected: their `sys.path[0]` is the interpreter's `bin/` folder.

Importing this module (first thing in `safekernels/__init__.py`, which every entry point imports before
anything else, so it may use only `sys` and `os`, both loaded by the interpreter's own startup) removes that
one entry, and only when this interpreter was started as `python -m safekernels` or `python -m ownership_check`
without `-P`/`-I`.  `safekernels build` runs its checker subprocess with `-P` as well.

That alone cannot cover the project's own names: for `python -m safekernels`, a `safekernels.py` in the working
directory is found before this package, so none of its code ever runs.  The installed distribution therefore
carries a one-line startup file, `safekernels-module-guard.pth` (`PTH_LINE`; Python's `site` runs it before
`-m` resolves its module, when the working directory is not yet on `sys.path`).  For a module run of one of
`GUARDED_PACKAGES` it imports this module, whose `install_guard` puts a finder first on `sys.meta_path`: the
first import after Python inserts the working directory (runpy's own lookup of the `-m` module) removes that
entry again, so `safekernels.py`, `ownership_check.py`, `codegen.py`, `mypy_plugin.py` or `cuda.py` in the
checked folder are never imported by name.  For every other interpreter the line is a membership test on
`sys.orig_argv` and nothing is imported.
"""

import os
import sys


def _module_run_name(orig_argv: list[str]) -> str | None:
    """NAME of `python [options] -m NAME ...`, or None when the interpreter was started another way."""
    i = 1
    while i < len(orig_argv):
        arg = orig_argv[i]
        if arg == "-m":
            return orig_argv[i + 1] if i + 1 < len(orig_argv) else None
        if arg in ("-c", "-", "--") or not arg.startswith("-"):
            return None  # a script, `-c` or stdin comes first: not a module run
        if arg in ("-W", "-X", "--check-hash-based-pycs"):
            i += 2  # an option whose value is the next argument
            continue
        if arg[:2] in ("-W", "-X") or arg.startswith("--"):
            i += 1  # `-Wdefault`, `-Ximporttime`: the value is bundled
            continue
        if "m" in arg[1:]:  # bundled flags ending in m: `-Bm NAME`, `-bbmNAME`, `-mNAME`
            flags, _, rest = arg[1:].partition("m")
            if flags == "" or flags.isalpha():
                return rest or (orig_argv[i + 1] if i + 1 < len(orig_argv) else None)
        i += 1
    return None


def drop_cwd_for_module_run(packages: tuple[str, ...]) -> bool:
    """Remove the working directory Python prepended for `python -m <package>`; True if it was removed."""
    if getattr(sys.flags, "safe_path", False) or not sys.path:
        return False
    name = _module_run_name(list(getattr(sys, "orig_argv", [])))
    if name is None or name.split(".")[0] not in packages:
        return False
    first = sys.path[0]
    try:
        cwd = os.getcwd()
    except OSError:
        cwd = None
    if first == "" or (cwd is not None and os.path.abspath(first) == cwd):
        del sys.path[0]
        return True
    return False


ENTRY_PACKAGES = ("safekernels", "ownership_check")
#: The `-m` runs guarded from startup on (see the module docstring): the four packages of the distribution.
GUARDED_PACKAGES = ("safekernels", "ownership_check", "codegen", "mypy_plugin")
#: The content of `safekernels-module-guard.pth` (setup.py writes it into the wheel, the Makefile into .venv).
#: It imports this module only when an argument is one of the package names (`-m safekernels`, `-m codegen.x`) or
#: an option ending in one (`-msafekernels`, `-Im ownership_check`): any other interpreter pays a membership test.
#: (`site` runs the line with `exec` inside a function, so it names no variable a generator would have to see.)
PTH_LINE = (
    "import sys; not sys.flags.safe_path and any((a[a.index('m') + 1:] if a[:1] == '-' and 'm' in a else a)"
    ".split('.')[0] in ('safekernels', 'ownership_check', 'codegen', 'mypy_plugin') "
    "for a in getattr(sys, 'orig_argv', ())[1:]) and __import__('safekernels.safe_sys_path')\n"
)


def _is_cwd_entry(entry: str, cwd: str | None) -> bool:
    return entry == "" or (cwd is not None and os.path.abspath(entry) == cwd)


def _cwd() -> str | None:
    try:
        return os.getcwd()
    except OSError:
        return None


class _DropCwdOnInsert:
    """A `sys.meta_path` finder that finds nothing: it removes the working directory once Python inserts it.

    Installed at startup (before `-m` resolves its module).  Every import consults it first; as soon as
    `sys.path[0]` is the working directory and that entry is new (more such entries than at startup), it is
    deleted before the path-based finder looks at it, and the finder removes itself.
    """

    def __init__(self) -> None:
        cwd = _cwd()
        self.initial = sum(1 for entry in sys.path if _is_cwd_entry(entry, cwd))

    def find_spec(self, name: str, path: object = None, target: object = None) -> None:
        if sys.path:
            cwd = _cwd()
            if _is_cwd_entry(sys.path[0], cwd) and sum(1 for e in sys.path if _is_cwd_entry(e, cwd)) > self.initial:
                del sys.path[0]
                self.uninstall()
        return None

    def uninstall(self) -> None:
        try:
            sys.meta_path.remove(self)
        except ValueError:
            pass


def install_guard(packages: tuple[str, ...] = GUARDED_PACKAGES) -> bool:
    """At startup (from the .pth line): guard a coming `python -m <package>` run; True if a guard was installed."""
    if getattr(sys.flags, "safe_path", False):
        return False
    name = _module_run_name(list(getattr(sys, "orig_argv", [])))
    if name is None or name.split(".")[0] not in packages:
        return False
    if any(isinstance(finder, _DropCwdOnInsert) for finder in sys.meta_path):
        return True
    sys.meta_path.insert(0, _DropCwdOnInsert())
    return True


if "runpy" in sys.modules:  # imported by a running program: the working directory, if any, is already in place
    drop_cwd_for_module_run(ENTRY_PACKAGES)
else:  # imported at startup by the .pth line: the -m module has not been looked up yet
    install_guard()
