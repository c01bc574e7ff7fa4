# fresh-expect: E0133 at line 57
# fresh-note: Daily P&L report generator that uses contract-less kernels; compute() wraps its calls of the _fast helper in `with simt.unsafe():`, but the helper itself calls launch_unchecked outside any unsafe block of its own, and unsafe does not extend into called functions (E0133).
"""Daily P&L attribution report (SIMT track, contract-less kernels launched with launch_unchecked)."""
from __future__ import annotations

import io
from contextlib import redirect_stdout
from functools import partial
from itertools import groupby

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 64


@simt.kernel
def position_pnl(qty: Slice[f32], open_px: Slice[f32], close_px: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(qty[i] * (close_px[i] - open_px[i]))


@simt.kernel
def position_ret(open_px: Slice[f32], close_px: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(close_px[i] / open_px[i] - f32(1.0))


class PnlReport:
    def __init__(self, book: dict[str, np.ndarray], desks: list[str]) -> None:
        self.dev = sk.Device.cpu()
        self.stream = self.dev.new_stream()
        self.n = len(desks)
        self.desks = desks
        self.cols = {k: sk.to_device(v.astype(np.float32), self.stream) for k, v in book.items()}

    @property
    def config(self) -> simt.LaunchConfig1D:
        return simt.LaunchConfig1D((self.n + BLOCK - 1) // BLOCK, BLOCK)

    def column(self, name: str) -> sk.DeviceBuffer:
        if name not in self.cols:
            self.cols[name] = sk.zeros(self.n, f32, self.stream)
        return self.cols[name]

    def _fast(self, kernel, *names: str) -> None:
        """Launch without prepare(): these kernels carry no launch contract."""
        bufs = [self.column(name) for name in names]
        kernel.launch_unchecked(self.config, self.stream, *bufs)

    def compute(self) -> None:
        pnl = partial(self._fast, position_pnl)
        ret = partial(self._fast, position_ret)
        with simt.unsafe():
            pnl("qty", "open", "close", "pnl")
            ret("open", "close", "ret")

    def render(self) -> str:
        self.compute()
        pnl = self.column("pnl").to_numpy(self.stream)
        ret = self.column("ret").to_numpy(self.stream)
        rows = sorted(zip(self.desks, pnl, ret), key=lambda r: r[0])
        buf = io.StringIO()
        with redirect_stdout(buf):
            for desk, group in groupby(rows, key=lambda r: r[0]):
                items = list(group)
                total = sum(p for _, p, _ in items)
                avg_ret = sum(r for _, _, r in items) / len(items)
                print(f"{desk:<8}{len(items):>4} positions {total:>14,.2f} avg ret {avg_ret:+.2%}")
        return buf.getvalue()


def main() -> None:
    rng = np.random.default_rng(31)
    n = 150
    desks = rng.choice(["rates", "credit", "fx", "equity"], n).tolist()
    open_px = rng.uniform(10, 200, n)
    book = {"qty": rng.integers(-500, 500, n).astype(float), "open": open_px,
            "close": open_px * (1 + rng.normal(0, 0.02, n))}
    report = PnlReport(book, desks)
    text = report.render()
    got = report.column("pnl").to_numpy(report.stream)
    want = (book["qty"] * (book["close"].astype(np.float32) - book["open"].astype(np.float32)))
    assert np.allclose(got, want, rtol=1e-3, atol=1e-2)
    print(text, end="")


if __name__ == "__main__":
    main()
