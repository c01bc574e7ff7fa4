"""The libcst front end: kernels found through every import form, across modules, parameter modes, unsafe."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from cli_samples import write

from ownership_check.api import check_paths, check_source
from ownership_check.config import Config

TILE_BODY = """
    x = {ones}((1024,), f32)
    y = {ones}((1024,), f32)
    z = {zeros}((1024,), f32).partition((128,))
    {add}(z, x, z).sync()
"""


def _codes(source: str) -> list[tuple[str, int]]:
    return [(d.code, d.line) for d in check_source(textwrap.dedent(source), "m.py")]


@pytest.mark.parametrize(
    ("imports", "decorator", "annotation", "ones"),
    [
        ("from safekernels import tile as t", "t.kernel", "t.Partition[f32]", "t.ones"),
        (
            "import safekernels.tile",
            "safekernels.tile.kernel",
            "safekernels.tile.Partition[f32]",
            "safekernels.tile.ones",
        ),
        ("import safekernels as sk", "sk.tile.kernel", "sk.tile.Partition[f32]", "sk.tile.ones"),
        ("from safekernels.tile import kernel, ones, Partition", "kernel", "Partition[f32]", "ones"),
        (
            "from safekernels.tile import kernel as K, ones, Partition\nfrom typing import Annotated",
            "K",
            "Annotated[Partition[f32], 'dims']",
            "ones",
        ),
    ],
)
def test_import_forms(imports: str, decorator: str, annotation: str, ones: str) -> None:
    source = f"""\
{imports}
from safekernels.dtypes import f32

@{decorator}
def add(z: {annotation}, x: {annotation}, y: {annotation}) -> None:
    pass

def main() -> None:
{TILE_BODY.format(ones=ones, zeros=ones, add="add")}"""
    line = next(i for i, text in enumerate(source.splitlines(), 1) if "(z, x, z)" in text)
    assert _codes(source) == [("E0382", line)]


def test_not_a_kernel_without_decorator_and_non_safekernels_code_is_silent() -> None:
    source = """\
    from safekernels.dtypes import f32
    from somewhere import kernel, ones

    @kernel
    def add(z, x, y):
        pass

    def main():
        x = ones((1024,), f32)
        add(x, x, x)
        add(x, x, x)
    """
    assert _codes(source) == []
    assert check_source("x = 1\ny = x.partition(2)\nprint(x)\n") == []


def test_cross_module_kernel_and_reexport(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "pkg/__init__.py": "from pkg.kernels import add as add_kernel\n",
            "pkg/kernels.py": textwrap.dedent("""\
            from safekernels import tile
            from safekernels.tile import Partition, Tensor
            from safekernels.dtypes import f32

            @tile.kernel
            def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
                pass
            """),
            "app.py": textwrap.dedent("""\
            import pkg
            from pkg import add_kernel
            from pkg.kernels import add

            def main(x, y, z):
                add(z, x, y).sync()
                print(z)

            def other(x, y, z):
                add_kernel(z, x, y).sync()
                pkg.add_kernel(z, x, y).sync()
            """),
        },
    )
    result = check_paths([str(tmp_path)], use_cache=False, config=Config(root=str(tmp_path)))
    found = sorted((Path(d.path).name, d.line, d.code) for d in result.diagnostics)
    # Line 11 uses `z`, `x` and `y`, each moved by line 10: each moved value is reported on its own.
    assert found == [("app.py", 7, "E0382"), *[("app.py", 11, "E0382")] * 3]
    assert result.files_checked == 3


def test_unsafe_under_alias_and_device_helpers_do_not_inherit() -> None:
    source = """\
    from safekernels import simt as s
    from safekernels.simt import Slice, DisjointSlice, thread
    from safekernels.dtypes import f32

    @s.device
    def helper(n: int) -> None:
        tmp = s.shared_array(f32, n)

    @s.kernel
    def k(a: Slice[f32], c: DisjointSlice[f32]) -> None:
        with s.unsafe():
            buf = s.shared_array(f32, 256)
            buf[0] = a[0]
            helper(4)
        v = buf[0]
        other = s.shared_array(f32, 8)
    """
    assert _codes(source) == [("E0133", 7), ("E0133", 15), ("E0133", 16)]


def test_brand_mismatch_e0308() -> None:
    source = """\
    import safekernels as sk
    from safekernels import simt
    from safekernels.simt import Slice, DisjointSlice
    from safekernels.dtypes import f32

    @simt.kernel
    def k1(a: Slice[f32], c: DisjointSlice[f32]) -> None:
        pass

    @simt.kernel
    def k2(a: Slice[f32], c: DisjointSlice[f32]) -> None:
        pass

    def main(cfg, dev, stream, a, c):
        p = k1.prepare(cfg, dev)
        k2.launch(p, stream, a, c)
        k1.launch(p, stream, a, c)
    """
    [d] = check_source(textwrap.dedent(source), "m.py")
    assert (d.code, d.line, d.message) == ("E0308", 16, "mismatched types")
    assert any("`k1`" in n and "`k2`" in n for n in d.notes)


def test_non_ascii_columns_count_characters() -> None:
    text = (
        "from safekernels import tile\n"
        "from safekernels.tile import Partition\n"
        "from safekernels.dtypes import f32\n"
        "@tile.kernel\n"
        "def add(z: Partition[f32], x: Partition[f32], y: Partition[f32]) -> None:\n"
        "    pass\n"
        "def main(z: Partition[f32], x: Partition[f32]) -> None:\n"
        "    'é€'; add(z, x, z).sync()\n"
    )
    [d] = check_source(text, "m.py")
    assert (d.line, d.column) == (8, 21)
