"""Name resolution the accuracy fixes of issue 12 rely on (import aliases), without running a front end."""

from __future__ import annotations

import ast

from ownership_check.frontend.prescan import FileSummary, annotation_mode, collect_imports
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
