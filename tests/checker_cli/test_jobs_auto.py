"""`--jobs auto` (the default): how many worker processes it starts, and that their output is the one process's."""

from __future__ import annotations

import pytest
from cli_samples import NOT_SAFEKERNELS, SIMT_BAD, TILE_BAD, TILE_CLEAN, write

from ownership_check import runner
from ownership_check.api import check_paths
from ownership_check.cli import main
from ownership_check.runner import AUTO_FILES_PER_WORKER, AUTO_JOBS, worker_count


@pytest.fixture
def project(tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'demo'\n")
    return tmp_path


def test_auto_starts_one_worker_per_cpu_only_for_enough_files(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runner, "available_cpus", lambda: 4)
    assert worker_count(AUTO_JOBS, 1) == 1
    assert worker_count(AUTO_JOBS, 2 * AUTO_FILES_PER_WORKER - 1) == 1  # a pre-commit run stays in-process
    assert worker_count(AUTO_JOBS, 2 * AUTO_FILES_PER_WORKER) == 2
    assert worker_count(AUTO_JOBS, 1000) == 4
    assert worker_count(3, 2) == 2  # an explicit --jobs is capped by the files only
    assert worker_count(3, 1000) == 3


def test_auto_output_is_the_single_process_output(project, monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    samples = (TILE_BAD, SIMT_BAD, TILE_CLEAN, NOT_SAFEKERNELS)
    files = {f"m{i:02}.py": samples[i % len(samples)] for i in range(3 * AUTO_FILES_PER_WORKER)}
    write(project, files)
    monkeypatch.setattr(runner, "available_cpus", lambda: 2)
    assert check_paths(["."], jobs=AUTO_JOBS, use_cache=False).workers == 2
    assert check_paths(["."], jobs=1, use_cache=False).workers == 1
    outputs = []
    for flags in ([], ["--jobs", "auto"], ["--jobs", "1"], ["--jobs", "3"]):
        assert main([".", "--format", "json", "--no-cache", *flags]) == 1
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1] == outputs[2] == outputs[3]
    assert outputs[0].count("\"code\": \"E0") == len(files) // 2  # one error in each bad sample


def test_jobs_takes_a_number_or_auto(project, capsys) -> None:  # type: ignore[no-untyped-def]
    write(project, {"bad.py": TILE_BAD})
    assert main(["bad.py", "--no-cache", "--jobs", "many"]) == 2
    assert "--jobs" in capsys.readouterr().err
    assert main(["bad.py", "--no-cache", "--jobs", "0"]) == 2
    assert "at least 1" in capsys.readouterr().err
    assert main(["bad.py", "--no-cache", "--jobs", "auto"]) == 1
