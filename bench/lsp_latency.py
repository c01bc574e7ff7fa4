"""Change-to-diagnostics latency of `ownership-check server` on a 1,000-line file, measured as an editor sees it.

A real LSP client (pygls) starts the server over stdio, opens a 1,000-line module (kernels plus ~80 host
functions, one launch each), then edits one function over and over: each edit alternately introduces and
removes an E0502, and the clock runs from sending `didChange` to receiving the `publishDiagnostics` for that
document version (the server's debounce included).  The cold open (whole file analysed) is reported too.

    python bench/lsp_latency.py [--edits 40] [--lines 1000]

Target: median <= 100 ms (docs/editors.md records the result).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path

HEADER = '''\
import numpy as np

import safekernels as sk
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
'''

FUNCTION = '''

def step_{i}(n: int) -> None:
    dev = sk.Device(0)
    stream = dev.new_stream()
    a = sk.to_device(np.random.rand(n).astype(np.float32), stream)
    b = sk.to_device(np.random.rand(n).astype(np.float32), stream)
    c = sk.zeros(n, f32, stream)
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=256), dev)
    vecadd.launch(prepared, stream, a, b, c)
    print(c.to_numpy(stream)[:4])
'''


def make_module(lines: int) -> str:
    text = HEADER
    i = 0
    while text.count("\n") < lines:
        text += FUNCTION.format(i=i)
        i += 1
    return text


async def measure(edits: int, lines: int) -> dict[str, float]:
    text = make_module(lines)
    target_line = text.splitlines().index("    vecadd.launch(prepared, stream, a, b, c)", len(text.splitlines()) // 2)
    column = len("    vecadd.launch(prepared, stream, ")
    arrived: dict[int, tuple[float, int]] = {}

    client = LanguageClient("lsp-latency-bench", "1")

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)  # type: ignore[untyped-decorator]  # pygls client API is untyped
    def on_publish(params: types.PublishDiagnosticsParams) -> None:
        if params.version is not None:
            arrived[params.version] = (time.perf_counter(), len(params.diagnostics))

    async def wait(version: int) -> tuple[float, int]:
        while version not in arrived:
            await asyncio.sleep(0.0005)
        return arrived[version]

    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "pyproject.toml").write_text("[tool.ownership-check]\n")
        path = Path(folder, "big_host.py")
        path.write_text(text)
        uri = from_fs_path(str(path))
        assert uri is not None
        await client.start_io(sys.executable, "-m", "ownership_check", "server")
        await client.initialize_async(
            types.InitializeParams(
                capabilities=types.ClientCapabilities(),
                workspace_folders=[types.WorkspaceFolder(from_fs_path(folder) or "", "bench")],
            )
        )
        client.initialized(types.InitializedParams())
        start = time.perf_counter()
        client.text_document_did_open(
            types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, "python", 1, text))
        )
        opened, _ = await wait(1)
        cold = opened - start
        latencies = []
        for k in range(edits):
            version = k + 2
            new = "c" if k % 2 == 0 else "a"
            sent = time.perf_counter()
            client.text_document_did_change(
                types.DidChangeTextDocumentParams(
                    types.VersionedTextDocumentIdentifier(version=version, uri=uri),
                    [
                        types.TextDocumentContentChangePartial(
                            range=types.Range(
                                types.Position(target_line, column), types.Position(target_line, column + 1)
                            ),
                            text=new,
                        )
                    ],
                )
            )
            got, count = await wait(version)
            assert count == (1 if new == "c" else 0), (version, count)
            latencies.append(got - sent)
            await asyncio.sleep(0.05)  # a pause in typing
        await client.shutdown_async(None)
        client.exit(None)
        await client.stop()  # type: ignore[no-untyped-call]
    latencies.sort()
    return {
        "lines": float(text.count("\n")),
        "cold_open_ms": cold * 1000,
        "median_ms": statistics.median(latencies) * 1000,
        "p90_ms": latencies[int(0.9 * (len(latencies) - 1))] * 1000,
        "max_ms": latencies[-1] * 1000,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=40)
    parser.add_argument("--lines", type=int, default=1000)
    args = parser.parse_args()
    result = asyncio.run(measure(args.edits, args.lines))
    cpus = os.cpu_count()
    print(
        f"{int(result['lines'])}-line file, {args.edits} edits ({cpus} CPUs): change -> diagnostics "
        f"median {result['median_ms']:.1f} ms, p90 {result['p90_ms']:.1f} ms, max {result['max_ms']:.1f} ms; "
        f"cold open {result['cold_open_ms']:.0f} ms"
    )
    return 0 if result["median_ms"] <= 100 else 1


if __name__ == "__main__":
    sys.exit(main())
