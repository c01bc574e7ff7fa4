"""The mypy front end of the safekernels ownership checker (docs/editors.md): `plugins = ["mypy_plugin"]`.

It reports the CLI's diagnostics (`E0382`, `E0499`, `E0502`, `E0505`, `E0133`, `E0308`) as mypy errors with the same
codes, from one shared analysis core (`ownership_check.core`), and types launches from the kernels' own
signatures.  See docs/editors.md for the configuration and the few documented differences from the CLI.
"""

from mypy_plugin.hooks import SafeKernelsPlugin, plugin

__all__ = ["SafeKernelsPlugin", "plugin"]
