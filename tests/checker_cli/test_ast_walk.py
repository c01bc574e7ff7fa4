"""The frontend's tree walkers: the same nodes as the stdlib's, and a remembered walk never answers for another tree."""

from __future__ import annotations

import ast
import gc

from ownership_check.frontend.ast_walk import all_nodes, child_nodes, forget_walks, memoized_walk, walk

SOURCE = """
def f(a, b):
    x = [a, b]
    for y in x:
        if y:
            g(lambda z: z + 1)
    return {k: v for k, v in zip(x, x)}
class C:
    def m(self):
        return self.n
"""


def test_walk_and_children_match_the_stdlib() -> None:
    tree = ast.parse(SOURCE)
    assert list(walk(tree)) == list(ast.walk(tree))
    for node in ast.walk(tree):
        assert child_nodes(node) == list(ast.iter_child_nodes(node))


def test_all_nodes_is_ast_walk_and_is_computed_once() -> None:
    forget_walks()
    tree = ast.parse(SOURCE)
    first = all_nodes(tree)
    assert list(first) == list(ast.walk(tree))
    assert all_nodes(tree) is first  # remembered, not walked again


def test_a_new_tree_at_a_reused_address_is_walked_afresh() -> None:
    """The memo keys walks by `id`; it keeps the walked object too, so a new object never gets another's nodes."""
    forget_walks()
    calls: list[int] = []

    def counting(tree: ast.AST) -> tuple[ast.AST, ...]:
        return memoized_walk("test", tree, lambda: (calls.append(1), list(ast.walk(tree)))[1])

    for _ in range(50):
        tree = ast.parse("x = 1")
        assert counting(tree)[0] is tree
        del tree
        gc.collect()
    assert len(calls) == 50
    forget_walks()


def test_walkers_differ_by_name() -> None:
    forget_walks()
    tree = ast.parse(SOURCE)
    assert memoized_walk("one", tree, lambda: [tree]) == (tree,)
    assert len(memoized_walk("two", tree, lambda: ast.walk(tree))) > 1
    forget_walks()
