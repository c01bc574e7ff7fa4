"""The checker over a live workspace: unsaved buffers, many projects, and re-checks that cost one function.

An editor asks for diagnostics on every pause in typing, on text that is not on disk.  `runner.run` reads files
and re-analyses a whole file; here the same stages run over an *overlay* (open buffers win over disk) and keep
what did not change:

    file text (buffer or disk) --content hash--> record: decode, `ast` summary, complexity guard   (cached)
        an edit inside one def/class without `import` or `@`: that statement re-parsed, summary reused
    project files' records --relevance fixed point--> ProjectIndex               (rebuilt per check: dict work)
    relevant reported file --one unit per top-level def/class, one for the rest--> libcst lowering + core,
        cached by the unit's text and what it reads (summary, top-level names, the index without line numbers)

A unit is a small module: its own lines, the full text of the plain top-level functions it can reach by name (the
lowering reads a helper's body to see which parameter it returns) and of the classes it names (what a method does to
its arguments is applied at the call), the top-level constants it names (`HEADER = 1`, a table of kernels), a
one-line stub for the other top-level names it uses, in file order; its diagnostics are mapped back to file lines
and only those on its own lines are kept. The lowering works function by function, so the result is the whole-file
analysis's (tests compare the two on every single-file checker case, before and after edits inside each function);
typing inside one function of a 1,000-line file re-lowers that function's unit only.

Reporting follows `runner.run`: a file that cannot involve safekernels gets nothing, a syntax error is E0001, a
file over the complexity limits is W0002, `select`/`ignore`, `per-file-ignores` and suppression comments apply
last.  Nothing here imports pygls, so `ownership-check --fix` uses it too.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import re
import time
import traceback
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace

from ownership_check.config import Config, ConfigError, load_config
from ownership_check.core import merge_per_line
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
from ownership_check.frontend.prescan import FileSummary, KernelSummary, mentions_marker, module_name, summarize
from ownership_check.frontend.project_index import ProjectIndex
from ownership_check.runner import analyze_source
from ownership_check.source_files import SourceReadError, decode_source, read_source
from ownership_check.suppressions import apply_suppressions

_WORD = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")

#: Seconds a project's files on disk are trusted without a `stat` each (a keystroke must not stat 20,000 files);
#: a save, an open, a watched-file event or a folder change re-reads them at once.
REVALIDATE_SECONDS = 2.0

#: Chunk results kept (each a short list of diagnostics); an LRU, so a long session stays bounded.
CHUNK_CACHE_SIZE = 4096


@dataclass(frozen=True)
class TopLevel:
    """One top-level `def`/`class` statement: its lines (decorators included) and its one-line stand-in."""

    start: int
    end: int
    name: str
    stub: tuple[str, ...]  # the lines standing in for it where its body is not needed
    plain: bool  # a class or an undecorated function: the lowering may read its body (a helper returning a
    # parameter; what a function or a method does to its arguments, applied at the call)
    # a top-level name bound to a literal or a display of literals and names (`HEADER = 1`, `STAGES = (("a", k),)`):
    # `stub` is the statement itself, which a unit naming it includes (a view bound, a table of kernels)
    constant: bool = False


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
    toplevel: list[TopLevel] | None = None  # set with `summary`


@dataclass
class Project:
    """One project: its config and its `*.py` files (the index is built from them)."""

    root: str
    config: Config
    files: list[str] = field(default_factory=list)
    patterns: tuple[str, ...] = ()
    validated: float = 0.0  # when every file's stat was last compared (monotonic clock)


def _belongs(diagnostic: Diagnostic, mine: list[bool]) -> bool:
    """Whether the unit whose own lines are `mine` reports `diagnostic`: its primary span is on one of them, or it
    is one this unit found inside a function it calls (a W0003 of an op a helper built, a conflict the caller's
    values make at a helper's launch, a use or move there of a value this unit moved or lent: the primary span is
    inside the callee, a label on this unit's lines), which the callee's own unit cannot find."""

    def own(line: int) -> bool:
        return 1 <= line <= len(mine) and mine[line - 1]

    if own(diagnostic.span.line):
        return True
    return diagnostic.code in _FOUND_BY_CALLERS and any(own(label.span.line) for label in diagnostic.labels)


#: The codes a caller's analysis reports inside a function it calls (`_belongs`).
_FOUND_BY_CALLERS = frozenset({"W0003", "E0382", "E0499", "E0502", "E0505"})


def _remap(diag: Diagnostic, line_of: Callable[[int], int]) -> Diagnostic:
    """`diag` with every line number passed through `line_of` (columns stay: units hold whole lines)."""

    def move(span: Span) -> Span:
        return Span(line_of(span.line), span.column, line_of(span.end_line), span.end_column)

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


def _static_value(node: ast.expr) -> bool:
    """A literal, or a tuple/list/set/dict display of literals, names, attribute paths and such displays."""
    if isinstance(node, ast.Constant | ast.Name):
        return True
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        return isinstance(node.operand, ast.Constant)
    if isinstance(node, ast.Attribute):
        return _static_value(node.value)
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return all(_static_value(e) for e in node.elts)
    if isinstance(node, ast.Dict):
        return all(k is not None and _static_value(k) for k in node.keys) and all(_static_value(v) for v in node.values)
    return False


def _constant(node: ast.stmt) -> tuple[str, ast.expr] | None:
    """`NAME = value` / `NAME: T = value` at the top level with a `_static_value`: the name and the value."""
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
        return (node.targets[0].id, node.value) if _static_value(node.value) else None
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
        return (node.target.id, node.value) if _static_value(node.value) else None
    return None


def top_level(body: Sequence[ast.stmt], offset: int = 0) -> list[TopLevel]:
    """The `def`/`class` statements of a module body and its constants (`_constant`), lines shifted by `offset`."""
    out: list[TopLevel] = []
    for node in body:
        constant = _constant(node)
        if constant is not None:
            end = (node.end_lineno or node.lineno) + offset
            out.append(TopLevel(node.lineno + offset, end, constant[0], (ast.unparse(node) + "\n",), False, True))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            start = min([d.lineno for d in node.decorator_list] + [node.lineno])
            stub: tuple[str, ...]
            if isinstance(node, ast.ClassDef):
                stub = (f"class {node.name}: pass\n",)
            else:
                prefix = "async def" if isinstance(node, ast.AsyncFunctionDef) else "def"
                stub = (f"{prefix} {node.name}(): pass\n",)
                if node.decorator_list:  # decorated lines come first; a decorated stub stays no helper
                    stub = ("@_\n", *stub)
            plain = isinstance(node, ast.ClassDef) or not node.decorator_list
            end = (node.end_lineno or node.lineno) + offset
            out.append(TopLevel(start + offset, end, node.name, stub, plain))
    return out


def _lines(text: str) -> list[str]:
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    return lines


def _shifted_summary(summary: FileSummary, after: int, delta: int) -> FileSummary:
    """`summary` with the kernels defined below line `after` moved by `delta` lines."""
    if delta == 0:
        return summary

    def move(kernel: KernelSummary) -> KernelSummary:
        return replace(kernel, line=kernel.line + delta) if kernel.line > after else kernel

    local: dict[str, KernelSummary] = {}
    for key, kernel in summary.local_kernels.items():
        line, _, name = key.partition(":")
        moved = int(line) + delta if int(line) > after else int(line)
        local[f"{moved}:{name}"] = move(kernel)
    return replace(summary, kernels={k: move(v) for k, v in summary.kernels.items()}, local_kernels=local)


def _salt_of(data: dict[str, object]) -> dict[str, object]:
    """A summary's JSON without line numbers (they move with every line typed above; the analysis reads none
    but the local kernels' keys, which each unit's cache key holds in the unit's own lines)."""
    out = dict(data)
    kernels = data.get("kernels")
    if isinstance(kernels, dict):
        out["kernels"] = {k: {**v, "line": 0} for k, v in kernels.items()}
    local = data.get("local_kernels")
    if isinstance(local, dict):
        out["local_kernels"] = sorted(json.dumps({**v, "line": 0}, sort_keys=True) for v in local.values())
    return out


def index_salt(index: ProjectIndex) -> str:
    data = json.dumps({m: _salt_of(s.to_json()) for m, s in sorted(index.modules.items())}, sort_keys=True)
    return hashlib.blake2b(data.encode(), digest_size=16).hexdigest()


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
        self.internal_errors: list[str] = []  # drained by the caller (the server logs them)
        self.last_index: dict[str, ProjectIndex] = {}

    # -- buffers and projects ----------------------------------------------------------------------------

    def set_overlay(self, path: str, text: str) -> None:
        self.overlays[os.path.abspath(path)] = text

    def drop_overlay(self, path: str) -> None:
        key = os.path.abspath(path)
        self.overlays.pop(key, None)
        self._disk_keys.pop(key, None)  # the record is the buffer's: read the disk again

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

    # -- records -------------------------------------------------------------------------------------------

    def record(self, path: str, trust_disk: bool = False) -> FileRecord | None:
        """The current record of `path` (buffer or disk), or None for a file that cannot be read.  With
        `trust_disk`, a file already read from disk is not stat'ed again."""
        path = os.path.abspath(path)
        old = self._records.get(path)
        text = self.overlays.get(path)
        if text is not None:
            data = text.encode("utf-8", "surrogatepass")
            digest = hashlib.blake2b(data, digest_size=16).hexdigest()
            if old is not None and old.digest == digest:
                return old
            rec = self._incremental(old, path, data, digest, text) or self._summarize(path, data, digest, text)
        else:
            if trust_disk and old is not None and path in self._disk_keys:
                return old
            try:
                st = os.stat(path)
            except OSError:
                self._records.pop(path, None)
                return None
            key = (st.st_mtime_ns, st.st_size)
            if old is not None and self._disk_keys.get(path) == key:
                return old
            try:
                src = read_source(path)
            except SourceReadError:
                return None
            digest = hashlib.blake2b(src.data, digest_size=16).hexdigest()
            self._disk_keys[path] = key
            if old is not None and old.digest == digest:
                return old
            rec = self._summarize(path, src.data, digest, None)
        self._records[path] = rec
        return rec

    def _module(self, path: str) -> str:
        return module_name(path, self._package_dirs)

    def _summarize(self, path: str, data: bytes, digest: str, text: str | None) -> FileRecord:
        marker = mentions_marker(data)
        rec = FileRecord(path, digest, None, marker)
        if text is None:
            text, rec.syntax = decode_source(data, path)
            if rec.syntax is not None:
                return rec
        rec.text = text.replace("\r\n", "\n").replace("\r", "\n")
        if marker or path in self.overlays:
            self._parse(rec, len(data))
        # else summarised lazily: only when it may import a relevant module (see `_index`)
        return rec

    def _parse(self, rec: FileRecord, size: int) -> None:
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
        rec.toplevel = top_level(tree.body)

    def _incremental(
        self, old: FileRecord | None, path: str, data: bytes, digest: str, text: str
    ) -> FileRecord | None:
        """The new record of a buffer edited inside one top-level function or class, without re-reading the
        rest of the file; None when the edit may change anything beyond that statement's own analysis.

        Exact, not heuristic: the file summary depends on imports, decorators, top-level names and
        module-level aliases only, so an edit confined to one `def`/`class` whose old and new text hold no
        `import` and no `@` leaves it unchanged (kernel lines below move with the edit); that statement alone
        must parse to one statement of the same name, and the guard measures it as the whole file's would.
        """
        if old is None or old.text is None or old.summary is None or old.toplevel is None:
            return None
        if old.syntax is not None or old.complex is not None or len(data) > MAX_ANALYSED_BYTES:
            return None
        marker = mentions_marker(data)
        new_text = text.replace("\r\n", "\n").replace("\r", "\n")
        if marker != old.marker or not new_text.endswith("\n") or not old.text.endswith("\n"):
            return None
        before, after = old.text.splitlines(keepends=True), new_text.splitlines(keepends=True)
        prefix = 0
        limit = min(len(before), len(after))
        while prefix < limit and before[prefix] == after[prefix]:
            prefix += 1
        suffix = 0
        while suffix < limit - prefix and before[-1 - suffix] == after[-1 - suffix]:
            suffix += 1
        first, last = prefix + 1, len(before) - suffix  # changed lines of the old text (1-based, inclusive)
        chunk = next((c for c in old.toplevel if c.start <= first and last <= c.end and c.start <= last), None)
        if chunk is None or first == chunk.start:
            return None  # outside every def/class, or on its first line (a decorator or the header)
        delta = len(after) - len(before)
        old_chunk = "".join(before[chunk.start - 1 : chunk.end])
        new_chunk = "".join(after[chunk.start - 1 : chunk.end + delta])
        if any(mark in t for t in (old_chunk, new_chunk) for mark in ("import", "@")):
            return None
        try:
            tree = ast.parse(new_chunk)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return None
        parsed = top_level(tree.body, chunk.start - 1)
        if len(tree.body) != 1 or len(parsed) != 1 or parsed[0].name != chunk.name or parsed[0].stub != chunk.stub:
            return None
        if parsed[0].end != chunk.end + delta or parsed[0].plain != chunk.plain:
            return None
        if measure_tree(ast.Module(body=tree.body, type_ignores=[])) is not None:
            return None
        if measure_text(new_text, len(data)) is not None:
            return None
        toplevel: list[TopLevel] = []
        for c in old.toplevel:
            if c is chunk:
                toplevel.append(parsed[0])
            else:
                toplevel.append(c if c.end < chunk.start else replace(c, start=c.start + delta, end=c.end + delta))
        summary = _shifted_summary(old.summary, chunk.end, delta)
        return FileRecord(path, digest, new_text, marker, summary, None, None, toplevel)

    # -- the project index -----------------------------------------------------------------------------------

    def _index(self, project: Project, reported: set[str]) -> tuple[ProjectIndex, set[str]]:
        """The project's index and the set of its relevant files (the runner's fixed point)."""
        records: list[FileRecord] = []
        now = time.monotonic()
        trust = now - project.validated < REVALIDATE_SECONDS
        for path in project.files:
            rec = self.record(path, trust_disk=trust and path not in reported)
            if rec is not None:
                records.append(rec)
        if not trust:
            project.validated = now
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
                    self._parse(r, len((r.text or "").encode("utf-8", "surrogatepass")))
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
            salt = index_salt(index)
            for path in members:
                try:
                    out[path] = self._check_file(path, project.config, index, salt, path in relevant)
                except Exception:  # a checker bug on one file: reported, and the file shows no stale result
                    self.internal_errors.append(f"{path}: internal error\n{traceback.format_exc()}")
                    out[path] = []
        return out

    def _check_file(
        self, path: str, config: Config, index: ProjectIndex, salt: str, relevant: bool
    ) -> list[Diagnostic]:
        rec = self.record(path)
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
                raw = self._analyze(rec, index, salt)
            enabled = [d for d in raw if config.enabled(d.code)]
            diags = apply_suppressions(enabled, rec.text, path, config.enabled)
        diags = [d for d in diags if config.enabled_in(path, d.code)]  # select/ignore and per-file-ignores
        diags.sort(key=Diagnostic.sort_key)
        return diags

    def _analyze(self, rec: FileRecord, index: ProjectIndex, salt: str) -> list[Diagnostic]:
        """Each top-level def/class, and the rest of the module, analysed as its own small module.

        A unit's module holds its own lines, the full text of every plain top-level function it may reach
        through names (the lowering reads a helper's body to see which parameter it returns) and a one-line
        stub for every other top-level def/class it names (the lowering's top-level names), in file order.
        Diagnostics are mapped back to the file's lines; only those on the unit's own lines are kept (a
        helper's own come from its unit).
        """
        assert rec.text is not None and rec.summary is not None and rec.toplevel is not None
        lines = _lines(rec.text)
        chunks = rec.toplevel
        texts = ["".join(lines[c.start - 1 : c.end]) for c in chunks]
        plain = {c.name: i for i, c in enumerate(chunks) if c.plain}
        named = {c.name: i for i, c in enumerate(chunks)}
        words = [set(_WORD.findall(t)) for t in texts]
        constants = {c.name: i for i, c in enumerate(chunks) if c.constant}
        base = _salt_of(rec.summary.to_json())
        salt = json.dumps([rec.path, base, sorted(named), salt], sort_keys=True)
        summary = rec.summary
        local = summary.local_kernels

        def reached(found: set[str]) -> tuple[set[int], set[int]]:
            """(plain functions whose text is needed, defs/classes whose name is)."""
            todo = [plain[n] for n in found if n in plain]
            full: set[int] = set()
            names = {named[n] for n in found if n in named}
            while todo:
                i = todo.pop()
                if i not in full:
                    full.add(i)
                    names.update(named[n] for n in words[i] if n in named)
                    todo.extend(plain[n] for n in words[i] if n in plain)
            return full, names

        def unit(own: int | None, found: set[str]) -> list[Diagnostic]:
            todo = [constants[n] for n in found if n in constants]
            found = set(found)
            while todo:  # the constants a unit names, and what their displays name in turn
                more = words[todo.pop()] - found
                found |= more
                todo.extend(constants[n] for n in more if n in constants)
            full, names = reached(found)
            out: list[str] = []
            origin: list[int] = []
            mine: list[bool] = []
            line = 1
            for i, c in enumerate([*chunks, None]):
                stop = c.start if c is not None else len(lines) + 1
                if own is None:  # module-level lines between defs
                    out.extend(lines[line - 1 : stop - 1])
                    origin.extend(range(line, stop))
                    mine.extend([True] * (stop - line))
                if c is None:
                    break
                if i == own or i in full:
                    out.extend(lines[c.start - 1 : c.end])
                    origin.extend(range(c.start, c.end + 1))
                    mine.extend([i == own] * (c.end - c.start + 1))
                elif i in names:
                    out.extend(c.stub)
                    origin.extend(range(c.start, c.start + len(c.stub)))
                    mine.extend([False] * len(c.stub))
                line = c.end + 1
            return self._unit(out, origin, mine, rec.path, summary, local, index, salt)

        diagnostics: list[Diagnostic] = []
        inside: set[int] = set()
        for i, c in enumerate(chunks):
            inside.update(range(c.start, c.end + 1))
            if not c.constant:  # a constant's statement lowers to nothing the core reports
                diagnostics.extend(unit(i, words[i]))
        module_text = "".join(line for n, line in enumerate(lines, 1) if n not in inside)
        diagnostics.extend(unit(None, set(_WORD.findall(module_text))))
        # one message once per line, as the whole file's analysis gives it (two callers' conflicts inside one callee)
        diagnostics = merge_per_line(diagnostics)
        diagnostics.extend(_free_brands(rec.text, rec.path, summary, index, diagnostics))
        return diagnostics

    def _unit(
        self,
        lines: list[str],
        origin: list[int],
        mine: list[bool],
        path: str,
        summary: FileSummary,
        local: dict[str, KernelSummary],
        index: ProjectIndex,
        salt: str,
    ) -> list[Diagnostic]:
        """One unit's diagnostics (cached by its text), mapped from its lines to the file's."""
        where = {line: n for n, line in enumerate(origin, 1)}
        unit_local: dict[str, KernelSummary] = {}
        for key, kernel in local.items():
            line, _, name = key.partition(":")
            if int(line) in where:
                unit_local[f"{where[int(line)]}:{name}"] = kernel
        source = "".join(lines)
        key = hashlib.blake2b(
            json.dumps(
                [salt, {k: {**v.to_json(), "line": 0} for k, v in unit_local.items()}, mine, source], sort_keys=True
            ).encode("utf-8", "surrogatepass"),
            digest_size=16,
        ).hexdigest()
        found = self._chunks.get(key)
        if found is None:
            raw = analyze_source(source, path, index, replace(summary, local_kernels=unit_local))
            found = [d for d in raw if _belongs(d, mine)]
            self._chunks[key] = found
            if len(self._chunks) > CHUNK_CACHE_SIZE:
                self._chunks.popitem(last=False)
        else:
            self._chunks.move_to_end(key)

        def back(n: int) -> int:
            return origin[n - 1] if 1 <= n <= len(origin) else n

        return [_remap(d, back) for d in found]

    def check_text(self, path: str, text: str) -> list[Diagnostic] | None:
        """The diagnostics `path` would have were its buffer `text` (its buffer is put back afterwards), or None
        when the check failed: a fix is judged by this, so a failure must never read as "clean"."""
        key = os.path.abspath(path)
        previous = self.overlays.get(key)
        failures = len(self.internal_errors)
        self.set_overlay(key, text)
        try:
            result = self.check([key])[key]
        finally:
            if previous is None:
                self.drop_overlay(key)
            else:
                self.set_overlay(key, previous)
        return None if len(self.internal_errors) > failures else result

    def index_for(self, path: str) -> ProjectIndex | None:
        """The index built by the last check of `path`'s project."""
        return self.last_index.get(self.project_of(path).root)


def _free_brands(
    text: str, path: str, summary: FileSummary, index: ProjectIndex, found: list[Diagnostic]
) -> list[Diagnostic]:
    """E0308 of a launch whose prepared launch a function reads from an enclosing scope (`frontend.free_brands`),
    over the whole file: the binding (`add_launch = vecadd.prepare(...)` at module level) is on a line no function's
    unit holds, so the per-unit analyses cannot see it.  Those `found` already holds are not repeated."""
    if "prepare" not in text:
        return []
    from ownership_check.frontend.ast_lowering import FileContext
    from ownership_check.frontend.free_brands import free_brand_mismatches

    try:
        tree = ast.parse(text, filename=path)
    except (SyntaxError, ValueError):
        return []
    return free_brand_mismatches(FileContext(text, path, summary, index, tree), tree, found)
