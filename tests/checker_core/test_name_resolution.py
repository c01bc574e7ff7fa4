"""Name resolution the accuracy fixes of issue 12 rely on (import aliases), without running a front end."""

from __future__ import annotations

import ast

from ownership_check.frontend.prescan import FileSummary, annotation_mode, collect_imports, summarize
from ownership_check.frontend.project_index import ProjectIndex


def _annotation(text: str) -> ast.expr:
    return ast.parse(text, mode="eval").body


def test_parameter_classes_are_read_through_import_aliases() -> None:
    imports, _ = collect_imports(
        ast.parse("from safekernels.simt import DisjointSlice as Out, Slice as In\nimport safekernels.simt as S\n"),
        "m",
        False,
    )
    assert annotation_mode(_annotation("Out[f32]"), imports) == "mut"
    assert annotation_mode(_annotation("In[f32]"), imports) == "shared"
    assert annotation_mode(_annotation("S.DisjointSlice[f32]"), imports) == "mut"
    assert annotation_mode(_annotation("Out[f32]")) == "value"  # without the bindings, `Out` means nothing


def test_safekernels_public_names_do_not_resolve_into_its_own_sources() -> None:
    """Checking safekernels' own checkout puts its modules in the index; the public name must stay the public one."""
    package = FileSummary("safekernels.simt", {"kernel": "safekernels.simt.kernel_decorator.kernel"})
    user = FileSummary("pkg", {"add": "pkg.kernels.add"})
    index = ProjectIndex([package, user])
    assert index.resolve("safekernels.simt.kernel") == "safekernels.simt.kernel"
    assert index.resolve("pkg.add") == "pkg.kernels.add"


def _summary(module: str, source: str, package: bool = False) -> FileSummary:
    path = module.replace(".", "/") + ("/__init__.py" if package else ".py")
    return summarize(ast.parse(source), path, True, module)


KERNEL_SOURCE = (
    "from safekernels import simt\nfrom safekernels.simt import Slice, DisjointSlice\n"
    "@simt.kernel\ndef k(a: Slice[f32], c: DisjointSlice[f32]) -> None: ...\n"
)


def test_star_reexports_resolve_at_any_depth() -> None:
    """`pkg/__init__.py: from .kernels import *` and a chain of 40 alternating re-exports (issue 22 class J: a
    fixed depth of 12 used to cut the chain silently)."""
    modules = [_summary("pkg.kernels", KERNEL_SOURCE), _summary("pkg", "from .kernels import *\n", package=True)]
    for i in range(40):
        source = f"from m{i - 1} import *\n" if i % 2 else f"from m{i - 1} import k\n"
        modules.append(_summary(f"m{i}", source if i else "from pkg import k\n"))
    index = ProjectIndex(modules)
    assert index.resolve("pkg.k") == "pkg.kernels.k"
    found = index.kernel("m39.k")
    assert found is not None and found[0] == "pkg.kernels.k" and found[1].params == [("a", "shared"), ("c", "mut")]


def test_reexport_cycles_end_without_a_kernel() -> None:
    index = ProjectIndex([_summary("a", "from b import *\n"), _summary("b", "from a import *\nfrom a import x\n")])
    assert index.kernel("a.x") is None
    assert index.kernel("b.x") is None
    assert index.resolve("a.x") in ("a.x", "b.x")  # the cycle closes; nothing loops


def test_star_imports_of_safekernels_bind_its_public_names_only() -> None:
    index = ProjectIndex([])
    assert index.qualify_star("kernel", ["safekernels.simt"]) == "safekernels.simt.kernel"
    assert index.qualify_star("zip", ["safekernels"]) == "safekernels.zip"
    assert index.qualify_star("simt.kernel", ["safekernels"]) is None  # `simt` is not in `safekernels.__all__`
    assert index.qualify_star("print", ["safekernels.simt"]) is None  # not exported: stays a builtin


def test_type_aliases_autotune_and_kernels_in_functions_are_summarized() -> None:
    summary = _summary(
        "m",
        "from typing import TypeAlias\nfrom safekernels import simt, tile\n"
        "from safekernels.simt import Slice, DisjointSlice\n"
        "Vec = Slice[f32]\nOut: TypeAlias = 'DisjointSlice[f32]'\n"
        "@simt.autotune(configs=[128])\n@simt.kernel\ndef k(a: Vec, c: Out) -> None: ...\n"
        "def factory():\n    @tile.kernel\n    def inner(z: Vec) -> None: ...\n    return inner\n",
    )
    assert summary.kernels["k"].params == [("a", "shared"), ("c", "mut")]
    assert summary.kernels["k"].autotuned
    assert summary.local_kernels["11:inner"].track == "tile"
    assert FileSummary.from_json(summary.to_json()) == summary
