"""Keep `python -m ownership_check` / `python -m safekernels` from importing the checked tree's files.

For `python -m NAME`, Python puts the current directory first on `sys.path` before it imports the package.  A
checker that runs in CI on an untrusted pull request would then import a `json.py`, `typing.py` or
`dataclasses.py` sitting in the checked directory instead of the standard library's, i.e. execute the code it
was asked to read (SPEC §2: the checker never imports or executes the code it checks).  The console scripts
(`ownership-check`, `safekernels`) are not affected: their `sys.path[0]` is the interpreter's `bin/` folder.

Importing this module (first thing in `safekernels/__init__.py`, which every entry point imports before
anything else, so it may use only `sys` and `os`, both loaded by the interpreter's own startup) removes that
one entry, and only when this interpreter was started as `python -m safekernels` or `python -m ownership_check`
without `-P`/`-I`.  `safekernels build` runs its checker subprocess with `-P` as well.
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
drop_cwd_for_module_run(ENTRY_PACKAGES)
