"""One checker run over a set of files, treated as part of one project.

    read every file (regular files only) --(no `safekernels`, imports no relevant module)--> nothing to say
        | candidates
    decode as Python does (BOM, coding cookie, newlines) --bad bytes--> E0001
    `ast` summary (imports, kernels) --syntax error--> E0001;  --parser gave up--> W0002 too complex
        | relevant files (import safekernels, or a relevant project module: a fixed point)
    complexity guard (size, longest line, nesting) --over a limit--> W0002 "file too complex to analyse"
        |
    project index -> lowering of the prescan's `ast` tree + core check per file, under a time budget
                     (`--jobs N`/`auto`: worker processes forked after the prescan; a worker that dies is
                     replaced and its files retried alone)
                  -> suppressions, select/ignore

`files` are reported on; `context` files (the rest of the project the files belong to) only feed the project
index, so a kernel defined in an unchanged module still resolves when pre-commit passes just the changed file.
Every stage except reading the bytes is skipped for files whose content hash is in the cache.
"""

from __future__ import annotations

import ast
import gc
import os
import signal
import threading
import traceback
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

from ownership_check.cache import CACHE_DIR, Cache, content_hash
from ownership_check.config import Config
from ownership_check.core import check_module
from ownership_check.core.messages import not_analyzed, syntax_error
from ownership_check.diagnostics import Diagnostic, Span
from ownership_check.frontend.complexity import MAX_NESTING, TooComplex, measure_text, measure_tree, parser_gave_up
from ownership_check.frontend.prescan import FileSummary, mentions_marker, module_name, summarize_and_measure
from ownership_check.frontend.project_index import ProjectIndex
from ownership_check.serialize import diagnostic_from_data, diagnostic_to_data
from ownership_check.source_files import MAX_READ_BYTES, SourceReadError, decode_source, read_source
from ownership_check.suppressions import apply_suppressions

#: `jobs` value for "as many workers as pay": one per available CPU, at most one per `AUTO_FILES_PER_WORKER` files
#: to analyse (`--jobs auto`, the CLI's default).
AUTO_JOBS = 0
#: Starting a worker (a fork, a pool round trip per batch) costs about what analysing this many files does.
AUTO_FILES_PER_WORKER = 16


def available_cpus() -> int:
    """CPUs this process may run on (its affinity mask where the OS has one, as ruff and flake8 count them)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def worker_count(jobs: int, files: int) -> int:
    """Processes to analyse `files` files with: `jobs`, or for `AUTO_JOBS` what the CPUs and the files allow."""
    if jobs == AUTO_JOBS:
        return max(1, min(available_cpus(), files // AUTO_FILES_PER_WORKER))
    return max(1, min(jobs, files))


#: Seconds one file's analysis may take before it is reported as too complex (env var for tests and CI).
FILE_BUDGET_ENV = "OWNERSHIP_CHECK_FILE_BUDGET"
DEFAULT_FILE_BUDGET = 60.0


@dataclass
class RunResult:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    files_checked: int = 0
    sources: dict[str, str] = field(default_factory=dict)
    internal_errors: list[str] = field(default_factory=list)
    #: paths that could not be read (unreadable file or directory, not a regular file): exit status 2
    errors: list[str] = field(default_factory=list)
    #: processes that analysed the files (1: this one)
    workers: int = 1


@dataclass
class _File:
    open_path: str
    display: str
    data: bytes
    reported: bool = True  # False for context files: they feed the index, never get a diagnostic
    truncated: bool = False
    module: str = ""
    digest: str = ""
    text: str | None = None
    summary: FileSummary | None = None
    syntax: Diagnostic | None = None
    complex: TooComplex | None = None
    entry: dict[str, Any] | None = None
    tree: ast.Module | None = None  # the prescan's parse, kept for the analysis of a reported file


def file_budget() -> float:
    try:
        value = float(os.environ.get(FILE_BUDGET_ENV, DEFAULT_FILE_BUDGET))
    except ValueError:
        return DEFAULT_FILE_BUDGET
    return value if value > 0 else DEFAULT_FILE_BUDGET


class _BudgetExceeded(BaseException):
    """Raised by the timer inside an analysis that ran past its budget (BaseException: nothing swallows it)."""


@contextmanager
def _time_budget(seconds: float) -> Iterator[None]:
    """Interrupt the enclosed analysis after `seconds` (only where a real-time timer exists: POSIX main thread)."""
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum: int, frame: object) -> None:
        raise _BudgetExceeded

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _summarize(f: _File, module: str | None = None) -> None:
    """Decode, guard and summarize one candidate file (fills `text`, `syntax`, `complex`, `summary`)."""
    if f.text is None:
        f.text, f.syntax = decode_source(f.data, f.display)
        if f.syntax is not None:
            return
    if f.truncated:
        f.complex = measure_text("", MAX_READ_BYTES + 1)
        return
    try:
        tree = ast.parse(f.text, filename=f.display)
    except SyntaxError as exc:
        line = exc.lineno or 1
        col = max(exc.offset or 1, 1)
        f.syntax = syntax_error(f.display, exc.msg or "invalid syntax", Span(line, col, line, col + 1))
        return
    except ValueError as exc:  # e.g. a null byte: Python refuses the file as source
        f.syntax = syntax_error(f.display, str(exc), Span(1, 1, 1, 2))
        return
    except (RecursionError, MemoryError) as exc:
        f.complex = parser_gave_up(exc)
        return
    f.summary, nesting = summarize_and_measure(tree, f.open_path, mentions_marker(f.data), module or f.module or None)
    if f.reported:
        f.tree = tree
    # the walk that measured the nesting did not know where it first went too deep: measure_tree finds that node
    f.complex = measure_text(f.text, len(f.data)) or (measure_tree(tree) if nesting > MAX_NESTING else None)


def _is_relevant_import(modules: Sequence[str], relevant: set[str]) -> bool:
    for m in modules:
        if m == "safekernels" or m.startswith("safekernels."):
            return True
        if m in relevant:
            return True
        head = m
        while "." in head:
            head = head.rsplit(".", 1)[0]
            if head in relevant:
                return True
    return False


def analyze_source(
    source: str, path: str, index: ProjectIndex, summary: FileSummary, tree: ast.Module | None = None
) -> list[Diagnostic]:
    """Lower one relevant, guarded file and run the core on each of its functions (`tree`: the prescan's `ast`
    of `source`, when it is still at hand)."""
    import sys

    from ownership_check.frontend.ast_lowering import FileContext, lower_module
    from ownership_check.frontend.ast_walk import forget_walks
    from ownership_check.frontend.free_brands import free_brand_mismatches

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 8000))
    try:
        if tree is None:
            try:
                tree = ast.parse(source, filename=path)
            except (SyntaxError, ValueError) as exc:  # the prescan accepted it: only an in-memory caller gets here
                line = getattr(exc, "lineno", None) or 1
                return [syntax_error(path, getattr(exc, "msg", None) or str(exc), Span(line, 1, line, 2))]
        ctx = FileContext(source, path, summary, index, tree)
        found = check_module(lower_module(ctx, tree))
        extra = free_brand_mismatches(ctx, tree, found)
        if not extra:
            return found
        return sorted([*found, *extra], key=lambda d: (d.span.line, d.span.column, d.code))
    except (RecursionError, MemoryError):
        reason = "file too complex to analyse: its expressions are nested too deeply"
        return [not_analyzed(path, reason, Span(1, 1, 1, 2))]
    finally:
        forget_walks()
        sys.setrecursionlimit(limit)


BUDGET_REASON = "file too complex to analyse: the analysis took longer than"
CRASH_REASON = "the analysis process crashed on it"


def _over_budget(path: str, seconds: float) -> Diagnostic:
    return not_analyzed(path, f"{BUDGET_REASON} {seconds:g} s", Span(1, 1, 1, 2))


def _is_transient(diag: Diagnostic) -> bool:
    return diag.code == "W0002" and (BUDGET_REASON in diag.message or CRASH_REASON in diag.message)


def _analyze_budgeted(
    source: str, path: str, index: ProjectIndex, summary: FileSummary, tree: ast.Module | None = None
) -> list[Diagnostic]:
    seconds = file_budget()
    try:
        with _time_budget(seconds):
            return analyze_source(source, path, index, summary, tree)
    except _BudgetExceeded:
        return [_over_budget(path, seconds)]


_WORKER_INDEX: ProjectIndex | None = None
#: Under the `fork` start method: the files to analyse, set by the parent just before it starts its workers, which
#: inherit them (sources, summaries and the prescan's trees) instead of receiving and re-parsing them.
_FORKED_FILES: Sequence[_File] = ()

_Answer = tuple[list[dict[str, Any]], str | None]


def _init_worker(index_data: dict[str, Any] | None) -> None:
    global _WORKER_INDEX
    if index_data is not None:  # spawned (not forked): the index arrives as data
        _WORKER_INDEX = ProjectIndex(FileSummary.from_json(s) for s in index_data.values())


def _analyze_to_data(
    source: str, path: str, summary: FileSummary, tree: ast.Module | None = None
) -> _Answer:
    assert _WORKER_INDEX is not None
    try:
        diags = _analyze_budgeted(source, path, _WORKER_INDEX, summary, tree)
        return [diagnostic_to_data(d) for d in diags], None
    except Exception:
        return [], f"{path}: internal error\n{traceback.format_exc()}"


def _worker(jobs: list[tuple[str, str, dict[str, Any]]]) -> list[_Answer]:
    """A batch of files sent as data (the `spawn` start method)."""
    return [_analyze_to_data(source, path, FileSummary.from_json(data)) for source, path, data in jobs]


def _forked_worker(positions: list[int]) -> list[_Answer]:
    """A batch of files named by their position in `_FORKED_FILES` (the `fork` start method)."""
    out = []
    for i in positions:
        f = _FORKED_FILES[i]
        assert f.summary is not None
        out.append(_analyze_to_data(f.text or "", f.display, f.summary, f.tree))
    return out


def _crashed(path: str) -> Diagnostic:
    return not_analyzed(path, f"{CRASH_REASON} (please report this file)", Span(1, 1, 1, 2))


#: Files per batch sent to a worker: enough to amortise a round trip, few enough to keep the workers balanced.
_BATCH_FILES = 4


def _analyze_parallel(
    todo: Sequence[_File], index: ProjectIndex, jobs: int, result: RunResult
) -> list[tuple[_File, list[Diagnostic]]]:
    """Analyse in worker processes; a worker that dies (native crash) or stops answering (stuck where its own
    timer cannot interrupt it) costs a retry of its files one by one, never the run.

    Where processes are forked (POSIX), the workers start after the prescan and inherit the files, their
    summaries, their trees and the project index: a batch is a list of positions, and only diagnostics travel
    back.  Elsewhere (`spawn`) each batch carries its sources and summaries and the worker parses them again.
    """
    global _FORKED_FILES, _WORKER_INDEX
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, BrokenExecutor, Future, ProcessPoolExecutor, wait

    forked = os.name != "nt" and "fork" in multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if forked else "spawn")
    index_data = None if forked else {m: s.to_json() for m, s in index.modules.items()}
    budget = file_budget()
    silence = 2 * budget + 5  # no file finished for this long: a worker is stuck below Python
    position = {id(f): i for i, f in enumerate(todo)}

    def submit(pool: ProcessPoolExecutor, batch: Sequence[_File]) -> Future[list[_Answer]]:
        if forked:
            return pool.submit(_forked_worker, [position[id(f)] for f in batch])
        jobs = [(f.text or "", f.display, f.summary.to_json() if f.summary else {}) for f in batch]
        return pool.submit(_worker, jobs)

    done: dict[int, list[Diagnostic]] = {}
    errors: dict[int, str] = {}

    def collect(batch: Sequence[_File], answers: list[_Answer]) -> None:
        for f, (payload, error) in zip(batch, answers, strict=True):
            if error:
                errors[id(f)] = error
            done[id(f)] = [diagnostic_from_data(d) for d in payload]

    def run_pool(batches: Sequence[Sequence[_File]], workers: int) -> tuple[list[_File], list[_File]]:
        """Files whose worker broke, files still unanswered when the pool fell silent."""
        pool = ProcessPoolExecutor(workers, mp_context=ctx, initializer=_init_worker, initargs=(index_data,))
        broken: list[_File] = []
        try:
            futures = {submit(pool, batch): batch for batch in batches}
            pending = set(futures)
            while pending:
                finished, pending = wait(pending, timeout=silence, return_when=FIRST_COMPLETED)
                if not finished:
                    for process in list(getattr(pool, "_processes", {}).values()):
                        process.kill()
                    return broken, [f for future in pending for f in futures[future]]
                for future in finished:
                    try:
                        collect(futures[future], future.result())
                    except BrokenExecutor:
                        broken.extend(futures[future])
            return broken, []
        finally:
            pool.shutdown(wait=False, cancel_futures=True)

    # Largest files first, so that no worker is left with a big file at the end while the others idle.
    ordered = sorted(todo, key=lambda f: -len(f.data))
    batches = [ordered[i : i + _BATCH_FILES] for i in range(0, len(ordered), _BATCH_FILES)]
    if forked:
        _FORKED_FILES, _WORKER_INDEX = todo, index
    try:
        broken, silent = run_pool(batches, min(jobs, len(batches)))
        for f in [*broken, *silent]:  # alone, so a crash or a hang is pinned on the file that caused it
            crashed, stuck = run_pool([[f]], 1)
            if crashed:
                done[id(f)] = [_crashed(f.display)]
            elif stuck:
                done[id(f)] = [_over_budget(f.display, budget)]
    finally:
        if forked:
            _FORKED_FILES, _WORKER_INDEX = (), None
    result.internal_errors.extend(errors[id(f)] for f in todo if id(f) in errors)  # in file order, as one process
    return [(f, done[id(f)]) for f in todo]


def _cached_record(f: _File, entry: dict[str, Any]) -> bool:
    """Fill `f` from a cache record; False (a miss) for any record that does not have the expected shape."""
    try:
        summary = FileSummary.from_json(entry["summary"]) if entry.get("summary") is not None else None
        syntax = diagnostic_from_data(entry["syntax"]) if entry.get("syntax") is not None else None
        complex_ = TooComplex.from_json(entry["complex"]) if entry.get("complex") is not None else None
        if summary is None and syntax is None and complex_ is None:
            return False
    except (KeyError, TypeError, ValueError, AttributeError):
        return False
    f.summary = summary
    f.syntax = replace(syntax, path=f.display) if syntax is not None else None
    f.complex = complex_
    f.entry = entry
    return True


def _cached_diagnostics(entry: dict[str, Any], display: str) -> list[Diagnostic] | None:
    try:
        return [replace(diagnostic_from_data(d), path=display) for d in entry["diags"]]
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


#: Allocations between two young-generation collections during a run (CPython's default is 700), as mypy does.
_GC_THRESHOLD = 200_000


@contextmanager
def _collector_for_a_run() -> Iterator[None]:
    """Tune the cyclic garbage collector for one run, restored afterwards (the API runs in editors' processes).

    A run holds every candidate file's `ast` tree from the prescan until that file is analysed, and makes little
    cyclic garbage.  With CPython's defaults, each of the hundreds of young collections a run triggers (one per 700
    allocations) and the older ones that follow traverse those live trees again: a sixth of a dense run's time.
    The threshold is raised as mypy raises it, and the trees are moved out of the collector's sight
    (`gc.freeze`) once the prescan is done, unless something else of the process has frozen objects itself.
    """
    previous = gc.get_threshold()
    own_freeze = gc.get_freeze_count() == 0
    gc.set_threshold(max(previous[0], _GC_THRESHOLD), *previous[1:])
    try:
        yield
    finally:
        if own_freeze:
            gc.unfreeze()
        gc.set_threshold(*previous)


def run(
    files: Sequence[tuple[str, str]],
    config: Config,
    *,
    jobs: int = 1,
    use_cache: bool = True,
    cache_dir: str | None = None,
    context: Sequence[str] = (),
) -> RunResult:
    """Check `files` ((path to open, path to display) pairs); `context` paths only feed the project index."""
    with _collector_for_a_run():
        return _run(files, config, jobs=jobs, use_cache=use_cache, cache_dir=cache_dir, context=context)


def _run(
    files: Sequence[tuple[str, str]],
    config: Config,
    *,
    jobs: int,
    use_cache: bool,
    cache_dir: str | None,
    context: Sequence[str],
) -> RunResult:
    result = RunResult()
    frozen_before = gc.get_freeze_count()
    cache = Cache(cache_dir or os.path.join(config.root, CACHE_DIR), config.fingerprint()) if use_cache else None
    loaded: list[_File] = []
    reported_keys = {os.path.abspath(p) for p, _ in files}
    for open_path, display in files:
        try:
            src = read_source(open_path)
        except SourceReadError as exc:
            result.errors.append(f"{display}: {exc}")
            continue
        loaded.append(_File(open_path, display, src.data, truncated=src.truncated))
    result.files_checked = len(loaded)
    for open_path in context:
        if os.path.abspath(open_path) in reported_keys:
            continue
        try:
            src = read_source(open_path)
        except SourceReadError:
            continue  # not ours to report on
        if not src.truncated:
            loaded.append(_File(open_path, open_path, src.data, reported=False))

    package_dirs: dict[str, bool] = {}

    def prepare(f: _File) -> None:
        f.digest = content_hash(f.data)
        f.module = module_name(f.open_path, package_dirs)
        key = os.path.abspath(f.open_path)
        entry = cache.get(key, f.digest, f.module) if cache is not None else None
        if entry is not None and _cached_record(f, entry):
            return
        _summarize(f)
        if cache is not None:
            cache.put(
                key,
                {
                    "sha": f.digest,
                    "module": f.module,
                    "summary": f.summary.to_json() if f.summary else None,
                    "syntax": diagnostic_to_data(f.syntax) if f.syntax else None,
                    "complex": f.complex.to_json() if f.complex else None,
                },
            )
            f.entry = cache.entries[key]

    candidates = [f for f in loaded if mentions_marker(f.data)]
    for f in candidates:
        prepare(f)
    if frozen_before == 0:
        gc.freeze()  # the trees kept for the analysis live until the end of the run (see _collector_for_a_run)
    relevant: dict[str, _File] = {}
    others = [f for f in loaded if not mentions_marker(f.data)]
    scanned = list(candidates)
    probed: set[int] = set()
    while True:
        names = {f.summary.module for f in relevant.values() if f.summary is not None}
        newly = [
            f
            for f in scanned
            if f.summary is not None
            and os.path.abspath(f.open_path) not in relevant
            and _is_relevant_import(f.summary.imported_modules, names)
        ]
        for f in newly:
            relevant[os.path.abspath(f.open_path)] = f
        if newly:
            continue
        # Files that never mention safekernels may still import a relevant project module.
        tokens = {name.rsplit(".", 1)[-1].encode("utf-8", "surrogateescape") for name in names}
        pulled = [f for f in others if id(f) not in probed and any(t in f.data for t in tokens)]
        if not pulled:
            break
        for f in pulled:
            probed.add(id(f))
            prepare(f)
            f.syntax = None  # a file that does not involve safekernels never gets a diagnostic
            scanned.append(f)
    for f in candidates:
        if not f.reported:
            continue
        verdict: Diagnostic | None = f.syntax
        if verdict is None and f.summary is None and f.complex is not None:
            verdict = not_analyzed(f.display, f.complex.reason, f.complex.span)  # Python's parser gave up
        if verdict is not None:
            result.diagnostics.append(verdict)
            result.sources[f.display] = f.text if f.text is not None else decode_source(f.data, f.display)[0]
    # Later summaries win a module-name clash: the checked files, then context files beside them (where Python
    # would import a top-level module from), then the rest of the project.
    checked_dirs = {os.path.dirname(os.path.abspath(f.open_path)) for f in loaded if f.reported}

    def precedence(f: _File) -> int:
        if f.reported:
            return 2
        return 1 if os.path.dirname(os.path.abspath(f.open_path)) in checked_dirs else 0

    ordered = sorted(relevant.values(), key=precedence)
    index = ProjectIndex(f.summary for f in ordered if f.summary is not None)
    fingerprint = index.fingerprint()

    todo: list[_File] = []
    raw: list[tuple[_File, list[Diagnostic]]] = []
    for f in relevant.values():
        if not f.reported:
            continue
        if f.text is None:
            f.text = decode_source(f.data, f.display)[0]
        result.sources[f.display] = f.text
        if f.complex is not None:
            raw.append((f, [not_analyzed(f.display, f.complex.reason, f.complex.span)]))
            continue
        entry = f.entry
        if entry is not None and entry.get("index") == fingerprint and entry.get("display") == f.display:
            cached = _cached_diagnostics(entry, f.display)
            if cached is not None:
                result.diagnostics.extend(cached)
                continue
        todo.append(f)

    result.workers = worker_count(jobs, len(todo))
    if result.workers > 1:
        raw.extend(_analyze_parallel(todo, index, result.workers, result))
    else:
        for f in todo:
            assert f.summary is not None
            try:
                raw.append((f, _analyze_budgeted(f.text or "", f.display, index, f.summary, f.tree)))
                f.tree = None
            except Exception:
                result.internal_errors.append(f"{f.display}: internal error\n{traceback.format_exc()}")
                raw.append((f, []))
    for f, diags in raw:
        enabled = [d for d in diags if config.enabled(d.code)]
        final = apply_suppressions(enabled, f.text or "", f.display, config.enabled)
        final = [d for d in final if config.enabled(d.code)]
        result.diagnostics.extend(final)
        if cache is not None and f.entry is not None and not any(_is_transient(d) for d in diags):
            f.entry["index"] = fingerprint
            f.entry["display"] = f.display
            f.entry["diags"] = [diagnostic_to_data(d) for d in final]
            cache.dirty = True
    result.diagnostics = [d for d in result.diagnostics if config.enabled(d.code)]
    result.diagnostics.sort(key=Diagnostic.sort_key)
    if cache is not None and not result.internal_errors:
        cache.save()
    return result


def check_one_source(source: str, path: str) -> list[Diagnostic]:
    """A single in-memory file as its own project (used by `api.check_source`)."""
    data = source.encode("utf-8", "surrogatepass")
    if not mentions_marker(data):
        return []
    f = _File(path, path, data, text=source.replace("\r\n", "\n").replace("\r", "\n"))
    stem = os.path.splitext(os.path.basename(path))[0] or "main"
    _summarize(f, module=stem if path.startswith("<") else module_name(path))
    if f.syntax is not None:
        return [f.syntax]
    if f.summary is None or not _is_relevant_import(f.summary.imported_modules, set()):
        return [not_analyzed(path, f.complex.reason, f.complex.span)] if f.complex is not None else []
    if f.complex is not None:
        diags = [not_analyzed(path, f.complex.reason, f.complex.span)]
    else:
        diags = _analyze_budgeted(f.text or "", path, ProjectIndex([f.summary]), f.summary, f.tree)
    return sorted(apply_suppressions(diags, f.text or "", path), key=Diagnostic.sort_key)
