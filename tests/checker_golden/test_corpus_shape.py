"""The corpus itself, checked without the checker: size, coverage of every code, well-formed markers, and
front-end neutrality (annotated functions, so the mypy plugin's hooks fire on every case).
"""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import pytest
from cases import (
    CASES_DIR,
    actual_expectations,
    case_files,
    case_name,
    discover_cases,
    load_expectations,
    parse_markers,
)

CASES = discover_cases()
ALL_CODES = {"E0382", "E0499", "E0502", "E0505", "E0133", "E0308", "E0001", "W0001", "W0003"}


def test_corpus_size_and_coverage() -> None:
    clean = [case for case in CASES if not load_expectations(case)]
    assert len(CASES) >= 85
    assert len(clean) >= 30
    codes = Counter(code for case in CASES for _, _, code, _ in load_expectations(case))
    assert set(codes) == ALL_CODES
    assert sum(1 for case in CASES if case.is_dir()) >= 4


@pytest.mark.parametrize("case", CASES, ids=case_name)
def test_case_name_matches_its_markers(case: Path) -> None:
    codes = {code for _, _, code, _ in load_expectations(case)}
    prefix = case_name(case).split("_", 1)[0]
    if prefix == "clean":
        assert codes == set()
    else:
        assert prefix.upper() in codes


@pytest.mark.parametrize("case", CASES, ids=case_name)
def test_case_functions_are_annotated(case: Path) -> None:
    for file in case_files(case):
        try:
            tree = ast.parse(file.read_bytes())
        except SyntaxError:
            assert case_name(case).startswith("e0001"), f"{file} does not parse"
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                params = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
                unannotated = [a.arg for a in params if a.annotation is None and a.arg not in ("self", "cls")]
                assert node.returns is not None, (
                    f"{file}:{node.lineno}: {node.name} lacks a return annotation"
                )
                assert not unannotated, (
                    f"{file}:{node.lineno}: {node.name} lacks annotations for {unannotated}"
                )


def test_expected_renderings_belong_to_cases() -> None:
    names = {case_name(case) for case in CASES}
    for golden in CASES_DIR.glob("*.expected.txt"):
        assert golden.name.removesuffix(".expected.txt") in names


def test_parse_markers_forms() -> None:
    source = (
        "a = 1\nf(z, x, z)  # expect: E0382@col=9\ng(c)  # ownership: ignore[E0382]  # expect: E0502, W0001\n"
    )
    assert parse_markers(source) == [(2, "E0382", 9), (3, "E0502", None), (3, "W0001", None)]
    with pytest.raises(ValueError, match="malformed"):
        parse_markers("x  # expect: E382\n")


def test_load_expectations_of_file_and_directory_cases() -> None:
    file_case = CASES_DIR / "e0382_tile_same_value_twice.py"
    ((path, _line, code, col),) = load_expectations(file_case)
    assert (path, code, col is not None) == ("e0382_tile_same_value_twice.py", "E0382", True)
    dir_case = CASES_DIR / "e0502_cross_module_reexport"
    assert {(p, c) for p, _, c, _ in load_expectations(dir_case)} == {("main.py", "E0502")}


def test_actual_expectations_projection(tmp_path: Path) -> None:
    case = tmp_path / "proj"
    (case / "pkg").mkdir(parents=True)
    (case / "pkg" / "m.py").write_text("x\n")
    expected = {("pkg/m.py", 3, "E0502", 12), ("pkg/m.py", 5, "E0382", None)}
    reported = [
        ("proj/pkg/m.py", 3, "E0502", 12),
        (str(case / "pkg" / "m.py"), 5, "E0382", 7),
        ("proj/pkg/m.py", 9, "E0133", 1),
    ]
    assert actual_expectations(case, reported, expected, cwd=tmp_path) == {
        ("pkg/m.py", 3, "E0502", 12),
        ("pkg/m.py", 5, "E0382", None),
        ("pkg/m.py", 9, "E0133", None),
    }
