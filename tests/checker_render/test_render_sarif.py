"""SARIF 2.1.0: valid against the schema's required fields and closed property sets, with every label."""

from __future__ import annotations

import json
from typing import Any

from render_fixtures import SOURCES, conflict, moved, unused_suppression
from sarif_required import validate

from ownership_check.diagnostics import Diagnostic, Span
from ownership_check.render import render
from ownership_check.render.sarif import artifact_uri
from safekernels.project_links import error_index_url


def _sarif(*diags: Diagnostic) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(render(list(diags), "sarif", sources=SOURCES, files_checked=3))
    return doc


def test_valid_and_complete() -> None:
    doc = _sarif(moved(), conflict(), unused_suppression())
    assert validate(doc) == []
    assert doc["version"] == "2.1.0"
    assert doc["$schema"].endswith("sarif-2.1.0.json")
    driver = doc["runs"][0]["tool"]["driver"]
    assert driver["name"] == "ownership-check"
    rules = driver["rules"]
    assert [rule["id"] for rule in rules] == ["W0001", "E0382", "E0502"]
    for rule in rules:
        assert rule["shortDescription"]["text"]
        assert rule["fullDescription"]["text"]
        assert rule["helpUri"] == error_index_url(rule["id"])
        assert rule["helpUri"].startswith("https://")
    assert driver["informationUri"] == error_index_url()
    results = doc["runs"][0]["results"]
    assert [r["ruleId"] for r in results] == ["W0001", "E0382", "E0502"]
    assert [r["level"] for r in results] == ["warning", "error", "error"]
    for result in results:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]


def test_result_locations_and_related_labels() -> None:
    (result,) = _sarif(conflict())["runs"][0]["results"]
    assert result["message"]["text"].startswith("cannot borrow `c` as mutable because")
    (location,) = result["locations"]
    assert location["physicalLocation"] == {
        "artifactLocation": {"uri": "kern.py"},
        "region": {"startLine": 2, "startColumn": 40, "endLine": 2, "endColumn": 41},
    }
    related = result["relatedLocations"]
    assert [(r["id"], r["message"]["text"]) for r in related] == [
        (0, "immutable borrow occurs here"),
        (1, "borrow later used by call"),
    ]
    assert related[0]["physicalLocation"]["region"]["startColumn"] == 35
    assert result["properties"]["notes"][0] == "`c` is the output `DisjointSlice` of `vecadd`"


def test_empty_run_is_valid() -> None:
    doc = _sarif()
    assert validate(doc) == []
    assert doc["runs"][0]["results"] == []
    assert doc["runs"][0]["tool"]["driver"]["rules"] == []


def test_unknown_codes_get_a_generic_rule() -> None:
    doc = _sarif(Diagnostic("SK0101", "unsupported statement", "k.py", Span(1, 1, 1, 2)))
    assert validate(doc) == []
    (rule,) = doc["runs"][0]["tool"]["driver"]["rules"]
    assert rule["id"] == "SK0101"


def test_validator_catches_broken_documents() -> None:
    doc = _sarif(moved())
    del doc["runs"][0]["tool"]["driver"]["name"]
    doc["runs"][0]["results"][0]["level"] = "fatal"
    doc["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] = 0
    doc["runs"][0]["results"][0]["bogus"] = 1
    del doc["runs"][0]["results"][0]["message"]
    problems = validate(doc)
    assert any("missing required 'name'" in p for p in problems)
    assert any("'fatal' not in" in p for p in problems)
    assert any("startLine: must be an integer >= 1" in p for p in problems)
    assert any("'bogus' not allowed" in p for p in problems)
    assert any("missing required 'message'" in p for p in problems)


def test_artifact_uris() -> None:
    assert artifact_uri("pkg/mod.py") == "pkg/mod.py"
    assert artifact_uri("my dir/a.py") == "my%20dir/a.py"
    assert artifact_uri("/abs/a.py") == "file:///abs/a.py"
    assert artifact_uri("pkg\\win.py") == "pkg/win.py"
