"""One checker run over a set of files, treated as one project.

    read every file --(no `safekernels` and imports no relevant module)--> done, nothing to say
        | candidates
    `ast` summary (imports, kernels)  --syntax error--> E0001 for that file
        | relevant files (import safekernels, or a relevant project module: a fixed point)
    project index  ->  libcst lowering + core check per file (`--jobs N` processes)  ->  suppressions, select
                                                                                         / ignore
Every stage except reading the bytes is skipped for files whose content hash is in the cache.
"""

from __future__ import annotations

import ast
import multiprocessing
import os
import sys
import tokenize
import traceback
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ownership_check.cache import CACHE_DIR, Cache, content_hash
from ownership_check.config import Config
from ownership_check.core import check_function
from ownership_check.core.messages import not_analyzed, syntax_error
from ownership_check.diagnostics import Diagnostic, Span
from ownership_check.frontend.prescan import FileSummary, mentions_marker, module_name, summarize
from ownership_check.frontend.project_index import ProjectIndex
from ownership_check.serialize import diagnostic_from_data, diagnostic_to_data
from ownership_check.suppressions import apply_suppressions


@dataclass
class RunResult:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    files_checked: int = 0
    sources: dict[str, str] = field(default_factory=dict)
    internal_errors: list[str] = field(default_factory=list)


@dataclass
class _File:
    open_path: str
    display: str
    data: bytes
    digest: str = ""
    text: str | None = None
    summary: FileSummary | None = None
    syntax: Diagnostic | None = None
    entry: dict[str, Any] | None = None


def decode(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        import io

        try:
            encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
            return data.decode(encoding, "replace")
        except (SyntaxError, LookupError):
            return data.decode("utf-8", "replace")


def _syntax_diag(path: str, exc: SyntaxError) -> Diagnostic:
    line = exc.lineno or 1
    col = exc.offset or 1
    return syntax_error(path, exc.msg or "invalid syntax", Span(line, max(col, 1), line, max(col, 1) + 1))


def _summarize(f: _File, module: str | None = None) -> None:
    f.text = decode(f.data) if f.text is None else f.text
    try:
        tree = ast.parse(f.text, filename=f.display)
    except (SyntaxError, ValueError) as exc:
        err = exc if isinstance(exc, SyntaxError) else SyntaxError(str(exc))
        f.syntax = _syntax_diag(f.display, err)
        return
    f.summary = summarize(tree, f.open_path, mentions_marker(f.data), module)


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


def analyze_source(source: str, path: str, index: ProjectIndex, summary: FileSummary) -> list[Diagnostic]:
    """Lower one relevant file with libcst and run the core on each of its functions (no suppressions)."""
    import libcst as cst

    from ownership_check.frontend.lowering import FileContext, lower_module

    try:
        module = cst.parse_module(source)
    except cst.ParserSyntaxError as exc:
        # Python's parser accepted the file (prescan), libcst's did not: never call that a syntax error.
        line = max(exc.raw_line, 1)
        return [
            not_analyzed(
                path,
                f"the libcst parser rejects it ({exc.message})",
                Span(line, exc.raw_column + 1, line, exc.raw_column + 2),
            )
        ]
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 8000))
    try:
        ctx = FileContext(source, path, summary, index, module)
        diagnostics: list[Diagnostic] = []
        for function in lower_module(ctx, module):
            diagnostics.extend(check_function(function))
        return diagnostics
    except RecursionError:
        return [not_analyzed(path, "its expressions are nested too deeply", Span(1, 1, 1, 2))]
    finally:
        sys.setrecursionlimit(limit)


_WORKER_INDEX: ProjectIndex | None = None


def _init_worker(index_data: dict[str, Any]) -> None:
    global _WORKER_INDEX
    _WORKER_INDEX = ProjectIndex(FileSummary.from_json(s) for s in index_data.values())


def _worker(job: tuple[str, str, dict[str, Any]]) -> tuple[list[dict[str, Any]], str | None]:
    source, path, summary_data = job
    assert _WORKER_INDEX is not None
    try:
        diags = analyze_source(source, path, _WORKER_INDEX, FileSummary.from_json(summary_data))
        return [diagnostic_to_data(d) for d in diags], None
    except Exception:
        return [], f"{path}: internal error\n{traceback.format_exc()}"


def run(
    files: Sequence[tuple[str, str]],
    config: Config,
    *,
    jobs: int = 1,
    use_cache: bool = True,
    cache_dir: str | None = None,
) -> RunResult:
    result = RunResult()
    cache = (
        Cache(cache_dir or os.path.join(config.root, CACHE_DIR), config.fingerprint()) if use_cache else None
    )
    loaded: list[_File] = []
    for open_path, display in files:
        try:
            with open(open_path, "rb") as fh:
                data = fh.read()
        except OSError as exc:
            result.internal_errors.append(f"{display}: cannot read file: {exc.strerror or exc}")
            continue
        loaded.append(_File(open_path, display, data))
    result.files_checked = len(loaded)

    def prepare(f: _File) -> None:
        f.digest = content_hash(f.data)
        key = os.path.abspath(f.open_path)
        entry = cache.get(key, f.digest) if cache is not None else None
        if entry is not None and (entry.get("summary") is not None or entry.get("syntax") is not None):
            f.entry = entry
            f.summary = FileSummary.from_json(entry["summary"]) if entry.get("summary") else None
            f.syntax = diagnostic_from_data(entry["syntax"]) if entry.get("syntax") else None
            if f.syntax is not None and f.syntax.path != f.display:
                f.syntax = None
                f.entry = None
        if f.entry is None:
            _summarize(f)
            if cache is not None:
                cache.put(
                    key,
                    {
                        "sha": f.digest,
                        "summary": f.summary.to_json() if f.summary else None,
                        "syntax": diagnostic_to_data(f.syntax) if f.syntax else None,
                    },
                )
                f.entry = cache.entries[key]

    candidates = [f for f in loaded if mentions_marker(f.data)]
    for f in candidates:
        prepare(f)
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
        tokens = {name.rsplit(".", 1)[-1].encode() for name in names}
        pulled = [f for f in others if id(f) not in probed and any(t in f.data for t in tokens)]
        if not pulled:
            break
        for f in pulled:
            probed.add(id(f))
            prepare(f)
            f.syntax = None  # a file that does not involve safekernels never gets a diagnostic
            scanned.append(f)
    for f in candidates:
        if f.syntax is not None:
            result.diagnostics.append(f.syntax)
            result.sources[f.display] = f.text if f.text is not None else decode(f.data)
    index = ProjectIndex(f.summary for f in relevant.values() if f.summary is not None)
    fingerprint = index.fingerprint()

    todo: list[_File] = []
    for f in relevant.values():
        f.text = f.text if f.text is not None else decode(f.data)
        result.sources[f.display] = f.text
        entry = f.entry
        if entry is not None and entry.get("index") == fingerprint and entry.get("display") == f.display:
            result.diagnostics.extend(diagnostic_from_data(d) for d in entry["diags"])
        else:
            todo.append(f)

    raw: list[tuple[_File, list[Diagnostic]]] = []
    if jobs > 1 and len(todo) > 1:
        index_data = {m: s.to_json() for m, s in index.modules.items()}
        ctx = multiprocessing.get_context("spawn" if os.name == "nt" else "fork")
        with ctx.Pool(min(jobs, len(todo)), initializer=_init_worker, initargs=(index_data,)) as pool:
            jobs_in = [(f.text or "", f.display, f.summary.to_json() if f.summary else {}) for f in todo]
            for f, (payload, error) in zip(todo, pool.map(_worker, jobs_in), strict=True):
                if error:
                    result.internal_errors.append(error)
                raw.append((f, [diagnostic_from_data(d) for d in payload]))
    else:
        for f in todo:
            assert f.summary is not None
            try:
                raw.append((f, analyze_source(f.text or "", f.display, index, f.summary)))
            except Exception:
                result.internal_errors.append(f"{f.display}: internal error\n{traceback.format_exc()}")
                raw.append((f, []))
    for f, diags in raw:
        enabled = [d for d in diags if config.enabled(d.code)]
        final = apply_suppressions(enabled, f.text or "", f.display, config.enabled)
        final = [d for d in final if config.enabled(d.code)]
        result.diagnostics.extend(final)
        if cache is not None and f.entry is not None:
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
    f = _File(path, path, source.encode("utf-8", "surrogatepass"), text=source)
    if not mentions_marker(f.data):
        return []
    stem = os.path.splitext(os.path.basename(path))[0] or "main"
    _summarize(f, module=stem if path.startswith("<") else module_name(path))
    if f.syntax is not None:
        return [f.syntax]
    assert f.summary is not None
    if not _is_relevant_import(f.summary.imported_modules, set()):
        return []
    index = ProjectIndex([f.summary])
    diags = analyze_source(source, path, index, f.summary)
    return sorted(apply_suppressions(diags, source, path), key=Diagnostic.sort_key)
