"""The dispatcher's route (compiled graphs, autograd, `opoverload`) launches a seen signature from its plan.

`SafeKernelOp._impl` is what torch runs for every call it dispatches; a signature seen before (by either route)
launches from the recorded plan instead of re-running every check, and still gives the same result, refuses the
same aliasing, and falls back to the checked launch when the plan declines (a non-contiguous tensor).
"""

from __future__ import annotations

from typing import Annotated, Any

import pytest

torch = pytest.importorskip("torch")

import safekernels.torch as skt  # noqa: E402
from safekernels import tile  # noqa: E402
from safekernels.dtypes import f32  # noqa: E402
from safekernels.errors import AliasingError  # noqa: E402
from safekernels.tile import Partition, Tensor  # noqa: E402


@tile.kernel
def add(z: Annotated[Partition[f32], tile.Dims(16)], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


functional = skt.custom_op("sk_test_dispatched::add", add, outputs={"z": "x"})
in_place = skt.custom_op("sk_test_dispatched::add_", add)


def _count_checked(monkeypatch: pytest.MonkeyPatch, op: Any) -> list[int]:
    calls: list[int] = []
    checked = op._checked_impl

    def counting(*args: Any) -> Any:
        calls.append(1)
        return checked(*args)

    monkeypatch.setattr(op, "_checked_impl", counting)
    return calls


def test_a_seen_signature_skips_the_checked_launch_through_the_dispatcher(monkeypatch: pytest.MonkeyPatch) -> None:
    checked = _count_checked(monkeypatch, functional)
    x, y = torch.randn(40), torch.randn(40)
    for _ in range(3):
        torch.testing.assert_close(functional.opoverload(x, y), x + y)
    assert len(checked) == 1  # the first call ran every check and recorded the plan
    x2, y2 = torch.randn(40), torch.randn(40)
    torch.testing.assert_close(functional(x2, y2), x2 + y2)  # the eager direct path shares the record
    assert len(checked) == 1


def test_the_planned_dispatch_still_refuses_aliasing_and_writes_in_place() -> None:
    z, x, y = torch.zeros(32), torch.randn(32), torch.randn(32)
    in_place.opoverload(z, x, y)
    in_place.opoverload(z, x, y)
    torch.testing.assert_close(z, x + y)
    with pytest.raises(AliasingError):
        in_place.opoverload(x, x, y)


def test_a_non_contiguous_tensor_falls_back_to_the_checked_launch(monkeypatch: pytest.MonkeyPatch) -> None:
    x, y = torch.randn(24), torch.randn(24)
    functional.opoverload(x, y)
    checked = _count_checked(monkeypatch, functional)
    strided = torch.randn(48)[::2]
    with pytest.raises(Exception, match="contiguous"):
        functional.opoverload(strided, y)
    assert len(checked) == 1
