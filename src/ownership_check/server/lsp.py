"""`ownership-check server`: the checker as a Language Server on stdio (pygls), for editors that never load mypy.

    didOpen ---------------------------------------------> check now
    didChange (the unsaved buffer) --debounce--------------> check the file, then the open files importing it
    didSave / watched files changed / folders changed ----> re-read configs and file lists, check open files
    codeAction ----> suppress on this line + the verified fixes of `ownership_check.fixes` (the same as --fix)
    hover ---------> kernel parameter kinds at a launch; where a moved value was moved

Checks run on the event loop's thread, one at a time, over `workspace.Workspace` (open buffers win over the
disk; unchanged functions come from its cache), so a burst of edits costs one check of the last text, and a
result is published only for the buffer version it was computed from.  Files excluded by the project's
`[tool.ownership-check]` get no diagnostics.  An exception in a check is logged to the client and the server
keeps serving: one bad file must never take diagnostics away from the others.
"""

from __future__ import annotations

import asyncio
import os
import sys
import traceback
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from ownership_check.diagnostics import Diagnostic
from ownership_check.fixes import apply_fixes, verified_fixes
from ownership_check.server import convert, hover
from ownership_check.server.workspace import Workspace

#: The "fix all" kind (fix on save): every safe verified fix of the file, exactly what `--fix` applies.
FIX_ALL = f"{types.CodeActionKind.SourceFixAll.value}.ownership-check"

#: Seconds of quiet after a change before the buffer is checked (`initializationOptions.debounceMs` overrides).
DEBOUNCE_SECONDS = 0.025


@dataclass
class Published:
    """What was last published for one document, and the text it was computed from."""

    version: int | None
    source: str
    diagnostics: list[Diagnostic]


class OwnershipServer(LanguageServer):
    def __init__(self) -> None:
        from safekernels import __version__

        super().__init__("ownership-check", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Incremental)
        self.checker = Workspace()
        self.debounce = DEBOUNCE_SECONDS
        self.pending: set[str] = set()
        self.timer: asyncio.TimerHandle | None = None
        self.published: dict[str, Published] = {}

    # -- scheduling ------------------------------------------------------------------------------------------

    def schedule(self, uris: Iterable[str], delay: float) -> None:
        self.pending.update(uris)
        if self.timer is not None:
            self.timer.cancel()
        self.timer = asyncio.get_running_loop().call_later(delay, self.flush)

    def open_uris(self) -> list[str]:
        return [uri for uri in self.workspace.text_documents if to_fs_path(uri)]

    def flush(self) -> None:
        self.timer = None
        uris, self.pending = self.pending, set()
        try:
            self.check_uris(uris)
        except Exception:
            self.log(f"internal error while checking (please report it):\n{traceback.format_exc()}")

    def log(self, message: str, kind: types.MessageType = types.MessageType.Error) -> None:
        self.window_log_message(types.LogMessageParams(kind, message))

    def check_uris(self, uris: Iterable[str]) -> None:
        """Check these documents, then every other open document of the same projects (a kernel edited in one
        file changes the files launching it; unchanged ones come from the cache); publish what changed."""
        open_docs = {}
        for uri in self.open_uris():
            path = to_fs_path(uri)
            if path is not None:
                open_docs[os.path.abspath(path)] = uri
                self.checker.set_overlay(path, self.workspace.get_text_document(uri).source)
        asked = {os.path.abspath(p) for p in (to_fs_path(u) for u in uris) if p is not None}
        roots = {self.checker.project_of(p).root for p in asked if p in open_docs}
        wanted: dict[str, str] = {}
        for path, uri in open_docs.items():
            if path not in asked and self.checker.project_of(path).root not in roots:
                continue
            if self.checker.is_excluded(path):
                if path in asked:
                    self.publish(uri, [])
                continue
            wanted[path] = uri
        results = self.checker.check(list(wanted)) if wanted else {}
        for path, diags in results.items():
            uri = wanted[path]
            before = self.published.get(uri)
            doc = self.workspace.get_text_document(uri)
            if path in asked or before is None or before.diagnostics != diags or before.version != doc.version:
                self.publish(uri, diags)
        for path, message in list(self.checker.config_errors.items()):
            self.log(f"{path}: {message}", types.MessageType.Warning)
            self.checker.config_errors.pop(path, None)
        while self.checker.internal_errors:
            self.log(f"{self.checker.internal_errors.pop(0)}(please report it)")

    def publish(self, uri: str, diags: list[Diagnostic]) -> None:
        doc = self.workspace.get_text_document(uri)
        self.published[uri] = Published(doc.version, doc.source, diags)
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri, [convert.to_lsp(doc, d) for d in diags], doc.version)
        )

    def current(self, uri: str) -> Published | None:
        """The diagnostics of the document's current text (checked now if a change is still pending)."""
        doc = self.workspace.get_text_document(uri)
        found = self.published.get(uri)
        if found is None or found.source != doc.source:
            self.pending.discard(uri)
            self.check_uris([uri])
            found = self.published.get(uri)
        return found

    # -- code actions and hover ------------------------------------------------------------------------------

    def code_actions(self, params: types.CodeActionParams) -> list[types.CodeAction]:
        uri = params.text_document.uri
        path = to_fs_path(uri)
        found = self.current(uri)
        if path is None or found is None:
            return []
        doc = self.workspace.get_text_document(uri)
        source = found.source
        wanted = params.range

        def overlaps(d: Diagnostic) -> bool:
            start = (d.span.line - 1, d.span.column - 1)
            end = (d.span.end_line - 1, d.span.end_column - 1)
            lo = (wanted.start.line, 0)
            hi = (wanted.end.line, 1 << 30)
            return start <= hi and end >= lo

        def recheck(text: str) -> list[Diagnostic] | None:
            return self.checker.check_text(path, text)

        only = params.context.only  # kinds the client asks for: None = the light bulb's quick fixes
        quick_fixes = only is None or any(types.CodeActionKind.QuickFix.startswith(kind) for kind in only)
        fix_all = only is not None and any(FIX_ALL.startswith(kind) for kind in only)
        actions: list[types.CodeAction] = []
        if quick_fixes:
            for diag in found.diagnostics:
                if not overlaps(diag) or diag.code in ("E0001", "W0001", "W0002"):
                    continue
                lsp_diag = convert.to_lsp(doc, diag)
                for fix in verified_fixes(source, diag, found.diagnostics, recheck):
                    actions.append(convert.code_action(doc, fix, source, [lsp_diag]))
        if fix_all:
            fixed, applied = apply_fixes(source, found.diagnostics, recheck)  # the safe ones, as `--fix`
            if applied:
                edit = types.WorkspaceEdit(changes={uri: [convert.line_edit(doc, source, fixed)]})
                title = f"Apply {len(applied)} ownership-check fix(es)"
                actions.append(types.CodeAction(title=title, kind=FIX_ALL, edit=edit))
        return actions

    def hover_at(self, params: types.HoverParams) -> types.Hover | None:
        uri = params.text_document.uri
        path = to_fs_path(uri)
        found = self.current(uri)
        if path is None or found is None:
            return None
        doc = self.workspace.get_text_document(uri)
        pos = doc.position_codec.position_from_client_units(doc.lines, params.position)
        line, column = pos.line + 1, pos.character + 1
        text = hover.moved_value_hover(found.diagnostics, line, column)
        if text is None:
            record = self.checker.record(path)
            index = self.checker.index_for(path)
            if record is not None and record.text is not None and record.summary is not None and index is not None:
                text = hover.kernel_call_hover(record.text, record.summary, index, line, column)
        if text is None:
            return None
        return types.Hover(types.MarkupContent(types.MarkupKind.Markdown, text))


def build_server() -> OwnershipServer:
    server = OwnershipServer()

    @server.feature(types.INITIALIZE)
    def initialize(ls: OwnershipServer, params: types.InitializeParams) -> None:
        roots = [to_fs_path(f.uri) for f in params.workspace_folders or []]
        if not roots and params.root_uri:
            roots = [to_fs_path(params.root_uri)]
        ls.checker.roots = [os.path.abspath(r) for r in roots if r]
        options: Any = params.initialization_options
        if isinstance(options, dict) and isinstance(options.get("debounceMs"), int | float):
            ls.debounce = max(0.0, float(options["debounceMs"]) / 1000)

    @server.feature(types.INITIALIZED)
    def initialized(ls: OwnershipServer, params: types.InitializedParams) -> None:
        caps = ls.client_capabilities.workspace
        watch = caps.did_change_watched_files if caps is not None else None
        if watch is not None and watch.dynamic_registration:
            globs = ("**/*.py", "**/pyproject.toml", "**/.gitignore")
            watchers = [types.FileSystemWatcher(glob_pattern=g) for g in globs]
            ls.client_register_capability(
                types.RegistrationParams(
                    [
                        types.Registration(
                            "ownership-check-watch",
                            types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                            types.DidChangeWatchedFilesRegistrationOptions(watchers),
                        )
                    ]
                )
            )

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: OwnershipServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.checker.refresh_projects()  # files may have appeared since (listing is cheap: records stay cached)
        ls.schedule([params.text_document.uri], 0)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: OwnershipServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.schedule([params.text_document.uri], ls.debounce)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: OwnershipServer, params: types.DidSaveTextDocumentParams) -> None:
        path = to_fs_path(params.text_document.uri)
        if path is not None:
            ls.checker.forget(path)
        ls.checker.refresh_projects()
        ls.schedule(ls.open_uris(), 0)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: OwnershipServer, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        path = to_fs_path(uri)
        if path is not None:
            ls.checker.drop_overlay(path)
            ls.checker.forget(path)
        ls.published.pop(uri, None)
        ls.pending.discard(uri)
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri, []))
        ls.schedule(ls.open_uris(), ls.debounce)

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def watched(ls: OwnershipServer, params: types.DidChangeWatchedFilesParams) -> None:
        for change in params.changes:
            path = to_fs_path(change.uri)
            if path is not None:
                ls.checker.forget(path)
        ls.checker.refresh_projects()
        ls.schedule(ls.open_uris(), ls.debounce)

    @server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    def folders(ls: OwnershipServer, params: types.DidChangeWorkspaceFoldersParams) -> None:
        removed = {os.path.abspath(to_fs_path(f.uri) or "") for f in params.event.removed}
        added = [os.path.abspath(to_fs_path(f.uri) or "") for f in params.event.added]
        ls.checker.roots = [r for r in ls.checker.roots if r not in removed] + added
        ls.checker.refresh_projects()
        ls.schedule(ls.open_uris(), 0)

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL], resolve_provider=False),
    )
    def code_action(ls: OwnershipServer, params: types.CodeActionParams) -> list[types.CodeAction]:
        return ls.code_actions(params)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def on_hover(ls: OwnershipServer, params: types.HoverParams) -> types.Hover | None:
        return ls.hover_at(params)

    return server


def serve() -> None:
    """Run the server on stdin/stdout until the client says `exit`.

    pygls closes the stream it writes to when it stops; it gets its own handle on stdout, so the process's
    `sys.stdout` stays usable for whatever runs after (the CLI flushes it on the way out).
    """
    out = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    build_server().start_io(sys.stdin.buffer, out)
