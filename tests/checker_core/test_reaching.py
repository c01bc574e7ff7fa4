"""`reaching.reaching`: which binding of a name reaches a statement, from statement paths alone."""

from __future__ import annotations

from ownership_check.core.reaching import Path, reaching

HOLDER = "Holder"


def at(*steps: tuple[int, int]) -> Path:
    return tuple(steps)


def test_the_one_binding_before_the_use_reaches_it() -> None:
    bindings = [(at((0, 0)), HOLDER), (at((0, 3)), None)]  # `held = Holder()`, later `with ... as held:`
    assert reaching(bindings, at((0, 1)), frozenset()) == HOLDER
    assert reaching(bindings, at((0, 4)), frozenset()) is None  # the later binding reaches there


def test_a_binding_on_one_branch_between_them_may_reach() -> None:
    bindings = [(at((0, 0)), HOLDER), (at((0, 1), (0, 0)), None)]  # `if c: held = other`
    assert reaching(bindings, at((0, 2)), frozenset()) is None
    # the `else` arm: the `if` arm's binding cannot reach it, but it lies between in source order, which is all
    # the paths tell (a `try` body's binding does reach its handlers): unknown, never a guess
    assert reaching(bindings, at((0, 1), (1, 0)), frozenset()) is None


def test_a_binding_inside_a_branch_reaches_only_that_branch() -> None:
    bindings = [(at((0, 0), (0, 0)), HOLDER)]  # `if c: held = Holder(); held.run()`
    assert reaching(bindings, at((0, 0), (0, 1)), frozenset()) == HOLDER
    assert reaching(bindings, at((0, 1)), frozenset()) is None  # after the `if`: it may not have run


def test_a_loop_that_binds_the_name_again_brings_that_value_back() -> None:
    loop = at((0, 1))
    bindings = [(at((0, 0)), HOLDER), (at((0, 1), (0, 1)), None)]  # `for ...: held.run(); held = other`
    assert reaching(bindings, at((0, 1), (0, 0)), frozenset({loop})) is None
    inside = [(at((0, 1), (0, 0)), HOLDER), (at((0, 1), (0, 2)), None)]  # bound anew first in each round
    assert reaching(inside, at((0, 1), (0, 1)), frozenset({loop})) == HOLDER


def test_a_binding_in_the_use_statement_is_made_after_the_use() -> None:
    bindings = [(at((0, 0)), HOLDER), (at((0, 1)), None)]  # `held = held.next()`
    assert reaching(bindings, at((0, 1)), frozenset()) == HOLDER


def test_a_compound_statement_header_binds_for_its_body() -> None:
    bindings = [(at((0, 2)), HOLDER)]  # `with Holder() as held:` then a use in its body
    assert reaching(bindings, at((0, 2), (0, 0)), frozenset()) == HOLDER


def test_a_while_test_is_read_again_after_the_body_binds() -> None:
    loop = at((0, 1))
    bindings = [(at((0, 0)), HOLDER), (at((0, 1), (0, 0)), None)]
    assert reaching(bindings, loop, frozenset({loop})) is None


def test_no_binding_before_the_use_is_unknown() -> None:
    assert reaching([(at((0, 5)), HOLDER)], at((0, 1)), frozenset()) is None
