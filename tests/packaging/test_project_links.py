"""Printed links come from `[project.urls]`: the source-tree fallback equals pyproject.toml, installed metadata wins."""

from __future__ import annotations

import email.message
import importlib.metadata
import tomllib
from pathlib import Path

import pytest

from safekernels import project_links

REPO = Path(__file__).resolve().parents[2]


def _urls() -> dict[str, str]:
    data = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    urls: dict[str, str] = data["project"]["urls"]
    return urls


def test_fallback_is_the_documentation_url_of_pyproject() -> None:
    assert project_links.DOCUMENTATION == _urls()["Documentation"]
    assert all(url.startswith("https://") for url in _urls().values())


def test_installed_metadata_decides_and_anchors_are_lowercase(monkeypatch: pytest.MonkeyPatch) -> None:
    meta = email.message.Message()
    meta["Project-URL"] = "Homepage, https://example.org/fork"
    meta["Project-URL"] = "Documentation, https://example.org/fork/docs/"
    monkeypatch.setattr(importlib.metadata, "metadata", lambda name: meta)
    project_links.documentation_url.cache_clear()
    try:
        assert project_links.error_index_url("E0502") == "https://example.org/fork/docs/checker.md#e0502"
        assert project_links.docs_url("docs/tile.md") == "https://example.org/fork/docs/tile.md"
    finally:
        project_links.documentation_url.cache_clear()


def test_without_metadata_the_fallback_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(name: str) -> object:
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "metadata", missing)
    project_links.documentation_url.cache_clear()
    try:
        assert project_links.error_index_url() == f"{project_links.DOCUMENTATION}/checker.md"
    finally:
        project_links.documentation_url.cache_clear()
