"""The checker over a live workspace: unsaved buffers, many projects, and re-checks that cost one function.

An editor asks for diagnostics on every pause in typing, on text that is not on disk.  `runner.run` reads files
and re-analyses a whole file; here the same stages run over an *overlay* (open buffers win over disk) and keep
what did not change:

    file text (buffer or disk) --content hash--> record: decode, `ast` summary, complexity guard  (cached)
    project files' records --relevance fixed point--> ProjectIndex              (rebuilt per check: dict work)
    relevant reported file --top-level chunks--> libcst lowering + core per chunk, cached by chunk text

A file's top-level `def`/`class` statements are analysed one by one (each is its own libcst module, shifted
back to its lines); the module's other statements form one chunk in which every `def`/`class` is a one-line
stub at its own line, so module-level bindings keep their order.  The lowering works function by function, so
the result is what the whole-file analysis gives (a test compares the two over every single-file checker
case); typing inside one function of a 1,000-line file re-lowers that function and the module chunk only.
A chunk's cache key holds everything its analysis reads: its text, the file's summary, the file's top-level
names and the project index's fingerprint (a kernel signature edited in another file invalidates it).

Reporting follows `runner.run`: a file that cannot involve safekernels gets nothing, a syntax error is E0001, a
file over the complexity limits is W0002, `select`/`ignore` and suppression comments apply last.  Nothing here
imports pygls, so `ownership-check --fix` uses it too.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import sys
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from ownership_check.config import Config, ConfigError, load_config
from ownership_check.core import check_function
from ownership_check.core.messages import not_analyzed, syntax_error
from ownership_check.diagnostics import Diagnostic, Label, Span
from ownership_check.discovery import DEFAULT_EXCLUDES, gitignore_patterns, is_excluded, project_context
from ownership_check.frontend.complexity import (
    MAX_ANALYSED_BYTES,
    TooComplex,
    measure_text,
    measure_tree,
    parser_gave_up,
)
from ownership_check.frontend.prescan import FileSummary, mentions_marker, module_name, summarize
from ownership_check.frontend.project_index import ProjectIndex
from ownership_check.source_files import SourceReadError, decode_source, read_source
from ownership_check.suppressions import apply_suppressions

#: Chunk results kept (each a short list of diagnostics); an LRU, so a long session stays bounded.
CHUNK_CACHE_SIZE = 4096


@dataclass
class FileRecord:
    """What the cheap stages learned about one version of one file."""

    path: str
    digest: str
    text: str | None
    marker: bool
    summary: FileSummary | None = None
    syntax: Diagnostic | None = None
    complex: TooComplex | None = None
    tree: ast.Module | None = None  # kept for the files being reported on (chunking needs it)


@dataclass
class Project:
    """One project: its config and its `*.py` files (the index is built from them)."""

    root: str
    config: Config
    files: list[str] = field(default_factory=list)
    patterns: tuple[str, ...] = ()


def _shift(diag: Diagnostic, lines: int) -> Diagnostic:
    if lines == 0:
        return diag

    def move(span: Span) -> Span:
        return Span(span.line + lines, span.column, span.end_line + lines, span.end_column)

    labels = tuple(Label(move(lb.span), lb.message, lb.primary) for lb in diag.labels)
    return replace(diag, span=move(diag.span), labels=labels)


def relevant_import(modules: Iterable[str], relevant: set[str]) -> bool:
    """Whether a file importing `modules` can involve safekernels (the runner's rule)."""
    for m in modules:
        if m == "safekernels" or m.startswith("safekernels."):
            return True
        head = m
        while head:
            if head in relevant:
                return True
            head = head.rpartition(".")[0]
    return False


def top_level_chunks(tree: ast.Module) -> list[tuple[int, int, ast.stmt]]:
    """(first line, last line, node) of each top-level `def`/`class`, decorators included."""
    out: list[tuple[int, int, ast.stmt]] = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            start = min([d.lineno for d in node.decorator_list] + [node.lineno])
            out.append((start, node.end_lineno or node.lineno, node))
    return out


def _stub(node: ast.stmt) -> str:
    if isinstance(node, ast.ClassDef):
        return f"class {node.name}: pass\n"
    prefix = "async def" if isinstance(node, ast.AsyncFunctionDef) else "def"
    return f"{prefix} {getattr(node, 'name', '_')}(): pass\n"


class Workspace:
    """Diagnostics for files of one or more projects, open buffers overriding the disk."""

    def __init__(self, roots: Sequence[str] = ()) -> None:
        self.roots = [os.path.abspath(r) for r in roots]
        self.overlays: dict[str, str] = {}
        self._records: dict[str, FileRecord] = {}
        self._disk_keys: dict[str, tuple[int, int]] = {}
        self._projects: dict[str, Project] = {}
        self._root_of: dict[str, str] = {}
        self._package_dirs: dict[str, bool] = {}
        self._chunks: OrderedDict[str, list[Diagnostic]] = OrderedDict()
        self.config_errors: dict[str, str] = {}
        self.last_index: dict[str, ProjectIndex] = {}

    # -- buffers and projects ----------------------------------------------------------------------------

    def set_overlay(self, path: str, text: str) -> None:
        self.overlays[os.path.abspath(path)] = text

    def drop_overlay(self, path: str) -> None:
        self.overlays.pop(os.path.abspath(path), None)

    def forget(self, path: str) -> None:
        """A file was deleted or changed on disk: read it again next time."""
        key = os.path.abspath(path)
        self._disk_keys.pop(key, None)
        self._records.pop(key, None)

    def refresh_projects(self) -> None:
        """Re-read configs and file lists (after a save, a created or deleted file, a pyproject edit)."""
        self._projects.clear()
        self._root_of.clear()
        self._package_dirs.clear()

    def _project_root(self, path: str) -> tuple[str, Config]:
        try:
            config = load_config(path)
        except ConfigError as exc:
            self.config_errors[path] = str(exc)
            config = Config(root=os.path.dirname(path))
        else:
            self.config_errors.pop(path, None)
        if config.pyproject is not None:
            return os.path.dirname(config.pyproject), config
        folder = os.path.dirname(path)
        for root in sorted(self.roots, key=len, reverse=True):
            if folder == root or folder.startswith(root + os.sep):
                return root, replace(config, root=root)
        return folder, replace(config, root=folder)

    def project_of(self, path: str) -> Project:
        path = os.path.abspath(path)
        root = self._root_of.get(path)
        project = self._projects.get(root) if root is not None else None
        if project is None:
            root, config = self._project_root(path)
            project = self._projects.get(root)
            if project is None:
                files = project_context([os.path.join(root, "\0lsp")], config.exclude, root)
                patterns = (*config.exclude, *gitignore_patterns(root))
                project = Project(root, config, sorted(set(files)), patterns)
                self._projects[root] = project
            self._root_of[path] = root
        if path not in project.files:
            project.files.append(path)
        return project

    def is_excluded(self, path: str) -> bool:
        """Whether the project's excludes (defaults, `exclude`, .gitignore) leave `path` out."""
        path = os.path.abspath(path)
        project = self.project_of(path)
        rel = os.path.relpath(path, project.root)
        if rel.startswith(".."):
            return False
        parts = rel.replace(os.sep, "/").split("/")
        if any(p in DEFAULT_EXCLUDES or p.endswith(".egg-info") for p in parts[:-1]):
            return True
        return any(
            is_excluded("/".join(parts[: i + 1]), i < len(parts) - 1, project.patterns) for i in range(len(parts))
        )

    def dependents(self, path: str) -> list[str]:
        """Open buffers whose file imports the module of `path` (they launch its kernels)."""
        path = os.path.abspath(path)
        record = self._records.get(path)
        if record is None or record.summary is None:
            return []
        module = record.summary.module
        out = []
        for other in self.overlays:
            if other == path:
                continue
            rec = self._records.get(other)
            if rec is not None and rec.summary is not None and relevant_import(rec.summary.imported_modules, {module}):
                out.append(other)
        return out

    # -- records -------------------------------------------------------------------------------------------

    def record(self, path: str, keep_tree: bool = False) -> FileRecord | None:
        """The current record of `path` (buffer or disk), or None for a file that cannot be read."""
        path = os.path.abspath(path)
        text = self.overlays.get(path)
        if text is not None:
            data = text.encode("utf-8", "surrogatepass")
            digest = hashlib.blake2b(data, digest_size=16).hexdigest()
            old = self._records.get(path)
            if old is not None and old.digest == digest and (old.tree is not None or not keep_tree):
                return old
            rec = self._summarize(path, data, text, keep_tree)
        else:
            try:
                st = os.stat(path)
            except OSError:
                self._records.pop(path, None)
                return None
            key = (st.st_mtime_ns, st.st_size)
            old = self._records.get(path)
            if old is not None and self._disk_keys.get(path) == key and (old.tree is not None or not keep_tree):
                return old
            try:
                src = read_source(path)
            except SourceReadError:
                return None
            digest = hashlib.blake2b(src.data, digest_size=16).hexdigest()
            if old is not None and old.digest == digest and (old.tree is not None or not keep_tree):
                self._disk_keys[path] = key
                return old
            rec = self._summarize(path, src.data, None, keep_tree)
            self._disk_keys[path] = key
        self._records[path] = rec
        return rec

    def _module(self, path: str) -> str:
        return module_name(path, self._package_dirs)

    def _summarize(self, path: str, data: bytes, text: str | None, keep_tree: bool) -> FileRecord:
        digest = hashlib.blake2b(data, digest_size=16).hexdigest()
        marker = mentions_marker(data)
        rec = FileRecord(path, digest, None, marker)
        if text is None:
            text, rec.syntax = decode_source(data, path)
            if rec.syntax is not None:
                return rec
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        rec.text = text
        if not marker and not keep_tree:
            # summarised lazily: only when it may import a relevant module (see `_index`)
            return rec
        self._parse(rec, len(data), keep_tree)
        return rec

    def _parse(self, rec: FileRecord, size: int, keep_tree: bool) -> None:
        assert rec.text is not None
        if size > MAX_ANALYSED_BYTES:
            # refused before parsing (the runner parses first): a keystroke in a huge buffer costs no parse
            rec.complex = measure_text(rec.text, size)
            return
        try:
            tree = ast.parse(rec.text, filename=rec.path)
        except SyntaxError as exc:
            line = exc.lineno or 1
            col = max(exc.offset or 1, 1)
            rec.syntax = syntax_error(rec.path, exc.msg or "invalid syntax", Span(line, col, line, col + 1))
            return
        except ValueError as exc:
            rec.syntax = syntax_error(rec.path, str(exc), Span(1, 1, 1, 2))
            return
        except (RecursionError, MemoryError) as exc:
            rec.complex = parser_gave_up(exc)
            return
        rec.summary = summarize(tree, rec.path, rec.marker, self._module(rec.path))
        rec.complex = measure_text(rec.text, size) or measure_tree(tree)
        if keep_tree:
            rec.tree = tree

    # -- the project index -----------------------------------------------------------------------------------

    def _index(self, project: Project, reported: set[str]) -> tuple[ProjectIndex, set[str]]:
        """The project's index and the set of its relevant files (the runner's fixed point)."""
        records: list[FileRecord] = []
        for path in project.files:
            rec = self.record(path, keep_tree=path in reported)
            if rec is not None:
                records.append(rec)
        relevant: dict[str, FileRecord] = {}
        scanned = [r for r in records if r.marker]
        others = [r for r in records if not r.marker]
        probed: set[str] = set()
        while True:
            names = {r.summary.module for r in relevant.values() if r.summary is not None}
            newly = [
                r
                for r in scanned
                if r.summary is not None and r.path not in relevant
                and relevant_import(r.summary.imported_modules, names)
            ]
            for r in newly:
                relevant[r.path] = r
            if newly:
                continue
            tokens = {name.rsplit(".", 1)[-1] for name in names}
            pulled = [r for r in others if r.path not in probed and r.text and any(t in r.text for t in tokens)]
            if not pulled:
                break
            for r in pulled:
                probed.add(r.path)
                if r.summary is None and r.syntax is None and r.complex is None:
                    self._parse(r, len(r.text or ""), r.path in reported)
                r.syntax = None  # a file that does not involve safekernels never gets a diagnostic
                scanned.append(r)
        checked_dirs = {os.path.dirname(p) for p in reported}

        def precedence(r: FileRecord) -> int:
            if r.path in reported:
                return 2
            return 1 if os.path.dirname(r.path) in checked_dirs else 0

        ordered = sorted(relevant.values(), key=precedence)
        index = ProjectIndex(r.summary for r in ordered if r.summary is not None)
        return index, set(relevant)

    # -- checking --------------------------------------------------------------------------------------------

    def check(self, paths: Sequence[str]) -> dict[str, list[Diagnostic]]:
        """Diagnostics of each path (absolute), as `ownership-check` would report them on the current texts."""
        out: dict[str, list[Diagnostic]] = {}
        by_project: dict[str, list[str]] = {}
        for path in paths:
            path = os.path.abspath(path)
            by_project.setdefault(self.project_of(path).root, []).append(path)
        for root, members in by_project.items():
            project = self._projects[root]
            reported = set(members)
            index, relevant = self._index(project, reported)
            self.last_index[root] = index
            for path in members:
                out[path] = self._check_file(path, project.config, index, path in relevant)
        return out

    def _check_file(self, path: str, config: Config, index: ProjectIndex, relevant: bool) -> list[Diagnostic]:
        rec = self.record(path, keep_tree=True)
        if rec is None:
            return []
        diags: list[Diagnostic] = []
        if rec.marker and rec.syntax is not None:
            diags = [rec.syntax]
        elif rec.marker and rec.summary is None and rec.complex is not None:
            diags = [not_analyzed(path, rec.complex.reason, rec.complex.span)]
        elif relevant and rec.summary is not None and rec.text is not None:
            if rec.complex is not None:
                raw = [not_analyzed(path, rec.complex.reason, rec.complex.span)]
            else:
                raw = self._analyze(rec, index)
            enabled = [d for d in raw if config.enabled(d.code)]
            diags = apply_suppressions(enabled, rec.text, path, config.enabled)
        diags = [d for d in diags if config.enabled(d.code)]
        diags.sort(key=Diagnostic.sort_key)
        return diags

    def _analyze(self, rec: FileRecord, index: ProjectIndex) -> list[Diagnostic]:
        assert rec.text is not None and rec.summary is not None
        tree = rec.tree
        if tree is None:
            tree = ast.parse(rec.text)
        lines = rec.text.splitlines(keepends=True)
        if lines and not lines[-1].endswith("\n"):
            lines[-1] += "\n"
        chunks = top_level_chunks(tree)
        toplevel = sorted(
            n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        )
        salt = json.dumps([rec.path, rec.summary.to_json(), toplevel, index.fingerprint()], sort_keys=True)
        module_lines = list(lines)
        out: list[Diagnostic] = []
        for start, end, node in chunks:
            module_lines[start - 1] = _stub(node)
            for i in range(start, end):
                module_lines[i] = "\n"
            out.extend(self._chunk("".join(lines[start - 1 : end]), start - 1, rec, index, toplevel, salt))
        out.extend(self._chunk("".join(module_lines), 0, rec, index, toplevel, salt))
        return out

    def _chunk(
        self, source: str, offset: int, rec: FileRecord, index: ProjectIndex, toplevel: list[str], salt: str
    ) -> list[Diagnostic]:
        key = hashlib.blake2b((salt + "\0" + source).encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()
        found = self._chunks.get(key)
        if found is None:
            found = self._lower_and_check(source, rec, index, toplevel)
            self._chunks[key] = found
            if len(self._chunks) > CHUNK_CACHE_SIZE:
                self._chunks.popitem(last=False)
        else:
            self._chunks.move_to_end(key)
        return [_shift(d, offset) for d in found]

    def _lower_and_check(
        self, source: str, rec: FileRecord, index: ProjectIndex, toplevel: list[str]
    ) -> list[Diagnostic]:
        import libcst as cst

        from ownership_check.frontend.lowering import FileContext, lower_module

        assert rec.summary is not None
        try:
            module = cst.parse_module(source)
        except cst.ParserSyntaxError as exc:
            line = max(exc.raw_line, 1)
            return [
                not_analyzed(
                    rec.path,
                    f"the libcst parser rejects it ({exc.message})",
                    Span(line, exc.raw_column + 1, line, exc.raw_column + 2),
                )
            ]
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 8000))
        try:
            ctx = FileContext(source, rec.path, rec.summary, index, module)
            ctx.toplevel = set(toplevel)  # the whole file's top-level names, not just this chunk's
            diagnostics: list[Diagnostic] = []
            for function in lower_module(ctx, module):
                diagnostics.extend(check_function(function))
            return diagnostics
        except (RecursionError, MemoryError):
            reason = "file too complex to analyse: its expressions are nested too deeply"
            return [not_analyzed(rec.path, reason, Span(1, 1, 1, 2))]
        finally:
            sys.setrecursionlimit(limit)

    def index_for(self, path: str) -> ProjectIndex | None:
        """The index built by the last check of `path`'s project."""
        return self.last_index.get(self.project_of(path).root)
