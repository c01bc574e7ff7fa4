"""`ownership-check server` / `safekernels lsp` as commands: the missing-dependency message and bad arguments."""

from __future__ import annotations

import importlib.util
from importlib.machinery import ModuleSpec

import pytest

from ownership_check.cli import main as check_main
from safekernels.cli import main as safekernels_main


def test_without_pygls_the_server_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    real = importlib.util.find_spec

    def find_spec(name: str, package: str | None = None) -> ModuleSpec | None:
        return None if name == "pygls" else real(name, package)

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)
    assert check_main(["server"]) == 2
    err = capsys.readouterr().err
    assert "ownership-check server: error: the language server needs pygls" in err
    assert "pip install 'safekernels[lsp]'" in err
    assert safekernels_main(["lsp"]) == 2
    assert "safekernels lsp: error: the language server needs pygls" in capsys.readouterr().err


def test_unknown_arguments_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert check_main(["server", "--tcp"]) == 2
    assert "unexpected argument(s): --tcp" in capsys.readouterr().err
    assert safekernels_main(["lsp", "--help"]) == 0
    assert "Language Server" in capsys.readouterr().out
