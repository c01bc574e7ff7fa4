"""`ownership-check server` driven over stdio by a real LSP client (pytest-lsp), as an editor would drive it.

One server process serves the whole module (starting it costs about a second); each test works on its own
files, so the tests stay independent of their order.  Every wait is for a publication of the exact document
version the test produced, and publications for one document must never go back to an older version (no stale
diagnostics).
"""

from __future__ import annotations

import asyncio
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.protocol import default_converter
from pygls.uris import from_fs_path
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

pytestmark = pytest.mark.asyncio(loop_scope="module")

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "lsp"
TIMEOUT = 15.0

KERNELS = '''\
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=256)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] + b[i])


@simt.kernel
@simt.launch_contract(block=256)
def scale(a: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(2.0 * a[i])
'''

HOST = '''\
import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32

from {kernels} import scale, vecadd


def main(n: int) -> None:
    dev = sk.Device(0)
    stream = dev.new_stream()
    a = sk.to_device(np.random.rand(n).astype(np.float32), stream)
    b = sk.to_device(np.random.rand(n).astype(np.float32), stream)
    c = sk.zeros(n, f32, stream)
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=256), dev)
    vecadd.launch(prepared, stream, a, b, c)
    scaled = scale.prepare(simt.LaunchConfig1D.for_len(n, block=256), dev)
    scale.launch(scaled, stream, {scale_args})
'''

TILE = (FIXTURES / "suppress.before.py").read_text()  # E0382 (`z` used after its launch was synced)


def _on_publish(client: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
    client.diagnostics[params.uri] = params.diagnostics
    client.published.append((params.uri, params.version, list(params.diagnostics)))  # type: ignore[attr-defined]


def _on_register(client: LanguageClient, params: types.RegistrationParams) -> None:
    client.registrations.extend(params.registrations)  # type: ignore[attr-defined]


def make_client() -> LanguageClient:
    client = LanguageClient(converter_factory=default_converter)
    features: dict[str, Any] = dict(DEFAULT_CLIENT_FEATURES)
    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = _on_publish
    features[types.CLIENT_REGISTER_CAPABILITY] = _on_register
    register_lsp_features(client, features)
    client.published = []  # type: ignore[attr-defined]
    client.registrations = []  # type: ignore[attr-defined]
    return client


@pytest.fixture(scope="module")
def folders(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Two workspace folders, each its own project with its own `[tool.ownership-check]`."""
    base = tmp_path_factory.mktemp("lsp")
    main, other = base / "main", base / "other"
    main.mkdir()
    other.mkdir()
    (main / "pyproject.toml").write_text(
        '[tool.ownership-check]\nexclude = ["generated"]\n\n'
        '[tool.ownership-check.per-file-ignores]\n"legacy_*.py" = ["E0382"]\n'
    )
    (other / "pyproject.toml").write_text('[tool.ownership-check]\nignore = ["E0382"]\n')
    (main / "generated").mkdir()
    return main, other


@pytest_lsp.fixture(
    scope="module",
    config=ClientServerConfig(
        server_command=[sys.executable, "-m", "ownership_check", "server"], client_factory=make_client
    ),
)
async def client(lsp_client: LanguageClient, folders: tuple[Path, Path]) -> Any:
    main, other = folders
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            root_uri=from_fs_path(str(main)),
            workspace_folders=[
                types.WorkspaceFolder(from_fs_path(str(main)), "main"),
                types.WorkspaceFolder(from_fs_path(str(other)), "other"),
            ],
        )
    )
    yield
    await lsp_client.shutdown_session()


# -- helpers ---------------------------------------------------------------------------------------------------


async def until(predicate: Callable[[], bool], what: str, timeout: float = TIMEOUT) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.005)


def publications(client: LanguageClient, uri: str) -> list[tuple[int | None, list[types.Diagnostic]]]:
    return [(v, d) for (u, v, d) in client.published if u == uri]  # type: ignore[attr-defined]


async def diagnostics_at(client: LanguageClient, uri: str, version: int) -> list[types.Diagnostic]:
    """The diagnostics published for `version` of the document; versions never go backwards."""
    await until(lambda: any(v == version for v, _ in publications(client, uri)), f"{uri} v{version}")
    versions = [v for v, _ in publications(client, uri) if v is not None]
    assert versions == sorted(versions), f"stale diagnostics published: {versions}"
    return [d for v, d in publications(client, uri) if v == version][-1]


def open_doc(client: LanguageClient, path: Path, text: str, version: int = 1) -> str:
    uri = from_fs_path(str(path))
    assert uri is not None
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, "python", version, text))
    )
    return uri


def replace_all(client: LanguageClient, uri: str, version: int, text: str) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(version=version, uri=uri),
            [types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


def edit(client: LanguageClient, uri: str, version: int, line: int, start: int, end: int, text: str) -> None:
    """Replace characters [start, end) of `line` (0-based) by `text`: one keystroke or paste, unsaved."""
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(version=version, uri=uri),
            [
                types.TextDocumentContentChangePartial(
                    range=types.Range(types.Position(line, start), types.Position(line, end)), text=text
                )
            ],
        )
    )


def apply_edit(text: str, edit: types.TextEdit) -> str:
    lines = text.splitlines(keepends=True)

    def offset(pos: types.Position) -> int:
        return sum(len(line) for line in lines[: pos.line]) + pos.character

    return text[: offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end) :]


def codes(diags: list[types.Diagnostic]) -> list[str]:
    return [str(d.code) for d in diags]


# -- the tests ---------------------------------------------------------------------------------------------------


async def test_typing_an_e0502_reports_it_and_fixing_it_clears_it(
    client: LanguageClient, folders: tuple[Path, Path]
) -> None:
    main, _ = folders
    (main / "kernels_a.py").write_text(KERNELS)
    host = HOST.format(kernels="kernels_a", scale_args="a, c")
    path = main / "host_a.py"  # never saved: the server sees only the buffer
    uri = open_doc(client, path, host)
    assert await diagnostics_at(client, uri, 1) == []

    line = host.splitlines().index("    vecadd.launch(prepared, stream, a, b, c)")
    start = len("    vecadd.launch(prepared, stream, ")
    edit(client, uri, 2, line, start, start + 1, "c")  # a -> c: `c` is now also read
    (diag,) = await diagnostics_at(client, uri, 2)
    assert diag.code == "E0502"
    assert diag.message == "cannot borrow `c` as mutable because it is also borrowed as immutable"
    assert diag.source == "ownership-check"
    assert diag.severity == types.DiagnosticSeverity.Error
    assert diag.range == types.Range(types.Position(line, 42), types.Position(line, 43))
    assert diag.code_description is not None and diag.code_description.href.endswith("checker.md#e0502")
    related = {(r.message, r.location.range.start.character) for r in diag.related_information or []}
    assert ("immutable borrow occurs here", 36) in related
    assert ("help: write the result into a separate buffer, or read from a copy", 42) in related

    edit(client, uri, 3, line, 36, 37, "a")
    assert await diagnostics_at(client, uri, 3) == []


async def test_editing_a_kernel_signature_rechecks_the_host(client: LanguageClient, folders: tuple[Path, Path]) -> None:
    main, _ = folders
    (main / "kernels_b.py").write_text(KERNELS)
    host_uri = open_doc(client, main / "host_b.py", HOST.format(kernels="kernels_b", scale_args="c, c"))
    (diag,) = await diagnostics_at(client, host_uri, 1)
    assert diag.code == "E0502"

    kernels_uri = open_doc(client, main / "kernels_b.py", KERNELS)
    await diagnostics_at(client, kernels_uri, 1)
    signature = KERNELS.splitlines().index("def scale(a: Slice[f32], c: DisjointSlice[f32]) -> None:")
    start = len("def scale(a: Slice[f32], c: ")
    edit(client, kernels_uri, 2, signature, start, start + len("DisjointSlice"), "Slice")  # unsaved
    await until(lambda: publications(client, host_uri)[-1][1] == [], "the host's E0502 to clear")

    edit(client, kernels_uri, 3, signature, start, start + len("Slice"), "DisjointSlice")
    await until(lambda: codes(publications(client, host_uri)[-1][1]) == ["E0502"], "the host's E0502 to return")


@pytest.mark.parametrize(
    ("name", "title"),
    [
        ("fresh_output", "Write the result into a fresh buffer"),
        ("shared_input", "Share `x` between launches"),
        ("unsafe_block", "Wrap in `with simt.unsafe():` (unsafe"),
        ("suppress", "Suppress E0382 on this line"),
    ],
)
async def test_each_code_action_gives_the_golden_fix(
    client: LanguageClient, folders: tuple[Path, Path], name: str, title: str
) -> None:
    main, _ = folders
    before = (FIXTURES / f"{name}.before.py").read_text()
    after = (FIXTURES / f"{name}.after.py").read_text()
    uri = open_doc(client, main / f"golden_{name}.py", before)
    (diag,) = await diagnostics_at(client, uri, 1)
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            types.TextDocumentIdentifier(uri), diag.range, types.CodeActionContext(diagnostics=[diag])
        )
    )
    assert actions is not None
    titles = [a.title for a in actions if isinstance(a, types.CodeAction)]
    assert f"Suppress {diag.code} on this line" in titles
    (action,) = [a for a in actions if isinstance(a, types.CodeAction) and a.title.startswith(title)]
    assert action.kind == types.CodeActionKind.QuickFix
    assert action.edit is not None and action.edit.changes is not None
    (text_edit,) = action.edit.changes[uri]
    fixed = apply_edit(before, text_edit)
    assert fixed == after
    replace_all(client, uri, 2, fixed)
    assert await diagnostics_at(client, uri, 2) == []


async def test_hover_shows_parameter_kinds_and_where_a_value_moved(
    client: LanguageClient, folders: tuple[Path, Path]
) -> None:
    main, _ = folders
    (main / "kernels_h.py").write_text(KERNELS)
    host = HOST.format(kernels="kernels_h", scale_args="a, c")
    host_uri = open_doc(client, main / "host_h.py", host)
    await diagnostics_at(client, host_uri, 1)
    line = host.splitlines().index("    vecadd.launch(prepared, stream, a, b, c)")
    hover = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(host_uri), types.Position(line, 8))
    )
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    text = hover.contents.value
    assert "SIMT kernel `kernels_h.vecadd`" in text
    assert "- `a` ← `a`: borrowed (shared, read-only for the launch)" in text
    assert "- `c` ← `c`: mutably borrowed (exclusive for the launch)" in text

    tile_uri = open_doc(client, main / "tile_h.py", TILE)
    (diag,) = await diagnostics_at(client, tile_uri, 1)
    assert diag.message == "use of moved value: `z`"
    assert [r.message for r in diag.related_information or []] == [
        "value moved here",
        "help: use the values returned by `sync_on`",
    ]
    moved = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(tile_uri), diag.range.start)
    )
    assert moved is not None and isinstance(moved.contents, types.MarkupContent)
    launch_line = TILE.splitlines().index("    op = add(z, x, y)") + 1
    assert f"`z` was moved: line {launch_line}, column 14 (value moved here)" in moved.contents.value
    call = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(tile_uri), types.Position(launch_line - 1, 10))
    )
    assert call is not None and isinstance(call.contents, types.MarkupContent)
    assert "- `z` ← `z`: moved (ownership comes back from `sync_on`)" in call.contents.value


async def test_config_of_each_workspace_folder_is_honoured(client: LanguageClient, folders: tuple[Path, Path]) -> None:
    main, other = folders
    excluded = open_doc(client, main / "generated" / "gen.py", (FIXTURES / "fresh_output.before.py").read_text())
    assert await diagnostics_at(client, excluded, 1) == []
    ignoring = open_doc(client, other / "tile_o.py", TILE)  # `other` ignores E0382
    assert await diagnostics_at(client, ignoring, 1) == []
    reporting = open_doc(client, main / "tile_m.py", TILE)
    assert codes(await diagnostics_at(client, reporting, 1)) == ["E0382"]
    per_file = open_doc(client, main / "legacy_tile.py", TILE)  # per-file-ignores: E0382 in legacy_*.py
    assert await diagnostics_at(client, per_file, 1) == []


async def test_a_one_megabyte_file_and_an_unparsable_file(client: LanguageClient, folders: tuple[Path, Path]) -> None:
    main, _ = folders
    big = "import safekernels\n" + "x = 1\n" * ((1 << 20) // 6 + 1)
    assert len(big) > 1 << 20
    big_uri = open_doc(client, main / "big.py", big)
    (diag,) = await diagnostics_at(client, big_uri, 1)
    assert diag.code == "W0002" and "too complex" in diag.message

    bad_uri = open_doc(client, main / "bad.py", "import safekernels\n\ndef f(:\n    pass\n")
    (diag,) = await diagnostics_at(client, bad_uri, 1)
    assert diag.code == "E0001" and diag.range.start.line == 2
    replace_all(client, bad_uri, 2, "import safekernels\n\ndef f():\n    pass\n")
    assert await diagnostics_at(client, bad_uri, 2) == []
    replace_all(client, bad_uri, 3, "")
    assert await diagnostics_at(client, bad_uri, 3) == []


async def test_deleted_files(client: LanguageClient, folders: tuple[Path, Path]) -> None:
    main, _ = folders
    kernels = main / "kernels_d.py"
    kernels.write_text(KERNELS)
    host_uri = open_doc(client, main / "host_d.py", HOST.format(kernels="kernels_d", scale_args="c, c"))
    assert codes(await diagnostics_at(client, host_uri, 1)) == ["E0502"]
    kernels.unlink()  # the kernel module is gone: the launch is no longer a known kernel's
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams([types.FileEvent(from_fs_path(str(kernels)), types.FileChangeType.Deleted)])
    )
    await until(lambda: publications(client, host_uri)[-1][1] == [], "the host to lose the deleted kernel's E0502")

    gone = main / "gone.py"
    shutil.copyfile(FIXTURES / "fresh_output.before.py", gone)
    gone_uri = open_doc(client, gone, gone.read_text())
    assert codes(await diagnostics_at(client, gone_uri, 1)) == ["E0502"]
    gone.unlink()  # deleted on disk while open: the buffer is still what the user edits
    replace_all(client, gone_uri, 2, (FIXTURES / "fresh_output.after.py").read_text())
    assert await diagnostics_at(client, gone_uri, 2) == []
    client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(gone_uri)))
    await until(lambda: publications(client, gone_uri)[-1] == (None, []), "diagnostics cleared on close")


async def test_a_burst_of_one_hundred_changes_ends_on_the_last_text(
    client: LanguageClient, folders: tuple[Path, Path]
) -> None:
    main, _ = folders
    (main / "kernels_c.py").write_text(KERNELS)
    clean = HOST.format(kernels="kernels_c", scale_args="a, c")
    broken = HOST.format(kernels="kernels_c", scale_args="c, c")
    uri = open_doc(client, main / "host_c.py", clean)
    await diagnostics_at(client, uri, 1)
    for version in range(2, 102):
        replace_all(client, uri, version, broken if version % 2 else clean)
    assert codes(await diagnostics_at(client, uri, 101)) == ["E0502"]
    await asyncio.sleep(0.3)
    assert publications(client, uri)[-1][0] == 101
    assert len(publications(client, uri)) < 50, "the debounce should coalesce a burst"
    # still serving
    hover = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(0, 0))
    )
    assert hover is None


async def test_the_server_registers_file_watchers(client: LanguageClient) -> None:
    methods = [r.method for r in client.registrations]  # type: ignore[attr-defined]
    assert types.WORKSPACE_DID_CHANGE_WATCHED_FILES in methods


async def test_fix_all_applies_every_safe_fix_as_the_cli_does(
    client: LanguageClient, folders: tuple[Path, Path]
) -> None:
    main, _ = folders
    before = (FIXTURES / "fresh_output.before.py").read_text()
    uri = open_doc(client, main / "fix_all.py", before)
    assert codes(await diagnostics_at(client, uri, 1)) == ["E0502"]
    whole = types.Range(types.Position(0, 0), types.Position(len(before.splitlines()), 0))
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            types.TextDocumentIdentifier(uri),
            whole,
            types.CodeActionContext(diagnostics=[], only=[types.CodeActionKind.SourceFixAll]),
        )
    )
    assert actions is not None
    (action,) = actions
    assert isinstance(action, types.CodeAction) and action.kind == "source.fixAll.ownership-check"
    assert action.edit is not None and action.edit.changes is not None
    (text_edit,) = action.edit.changes[uri]
    assert apply_edit(before, text_edit) == (FIXTURES / "fresh_output.after.py").read_text()
    unsafe = open_doc(client, main / "fix_all_unsafe.py", (FIXTURES / "unsafe_block.before.py").read_text())
    await diagnostics_at(client, unsafe, 1)
    none = await client.text_document_code_action_async(
        types.CodeActionParams(
            types.TextDocumentIdentifier(unsafe),
            whole,
            types.CodeActionContext(diagnostics=[], only=[types.CodeActionKind.SourceFixAll]),
        )
    )
    assert not none  # the unsafe block is never part of "fix all"
