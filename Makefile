# Two entry points (README): `make demo` runs the checker and the examples, `make test` runs the whole suite.
# Both create .venv if missing and install the project with its [dev] extra first.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
LOG := $(VENV)/install.log

.PHONY: demo test setup lint typecheck clean

# pip's and setuptools' chatter (the editable-install banner) goes to $(LOG), printed only when a step fails.
# setuptools' editable install resolves the packages through an import hook, which Python follows but mypy does
# not; the extra .pth puts src/ on the path as a plain folder, so mypy (and editors running it) resolve
# `safekernels` from any project using this venv (`safekernels doctor` checks it: the `mypy imports` line).
# safekernels-module-guard.pth is the startup guard of `python -m safekernels` (setup.py puts it in the wheel).
$(STAMP): pyproject.toml
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	@echo "installing safekernels[dev] into $(VENV) (editable; pip's log: $(LOG))"
	@$(PY) -m pip install -q --upgrade pip > $(LOG) 2>&1 || { cat $(LOG); exit 1; }
	@$(PY) -m pip install -q -e '.[dev]' >> $(LOG) 2>&1 || { cat $(LOG); exit 1; }
	@echo "$(CURDIR)/src" > "$$($(PY) -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')/safekernels-src.pth"
	@$(PY) -c 'import sysconfig; from safekernels.safe_sys_path import PTH_LINE; open(sysconfig.get_paths()["purelib"] + "/safekernels-module-guard.pth", "w").write(PTH_LINE)'
	@touch $(STAMP)

setup: $(STAMP)

demo: $(STAMP)
	$(PY) -m safekernels demo

# One worker per core; --dist loadfile keeps each test file on one worker, so a file's module-scoped fixtures
# (a corpus lowered once, a compiled kernel) are built once, as in a serial run.
test: $(STAMP)
	$(PY) -m pytest -q -n auto --dist loadfile

lint: $(STAMP)
	$(VENV)/bin/ruff check src mypy_plugin tests bench examples
	$(VENV)/bin/mypy

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .ownership_check_cache .safekernels_cache
