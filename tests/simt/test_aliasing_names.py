"""Runtime aliasing errors name the kernel's parameters and, where known, the caller's variables.

The checker says ``cannot borrow `c` ...`` about the caller's variable; the launch-time check only sees
parameters (`odds` overlaps `evens`).  Both names in one message let a user match the two reports of one bug.
"""

from __future__ import annotations

import numpy as np
import pytest

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.errors import AliasingError
from safekernels.simt import DisjointSlice, Slice, thread

DEV = sk.Device.cpu()


@simt.kernel
@simt.launch_contract(block=64)
def split2(src: Slice[f32], evens: DisjointSlice[f32], odds: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (e := evens.get_mut(idx)) is not None:
        e.set(src[i])


def _prepared() -> simt.PreparedLaunch:
    return split2.prepare(simt.LaunchConfig1D(1, 64), DEV)


def test_both_parameters_and_the_callers_variable_are_named() -> None:
    stream = DEV.new_stream()
    src = sk.zeros(64, f32, stream)
    c = sk.zeros(64, f32, stream)
    with pytest.raises(AliasingError) as caught:
        split2.launch(_prepared(), stream, src, c, c)  # ownership: ignore[E0499] -- the runtime check
    message = str(caught.value)
    assert message.startswith("cannot borrow `odds` as mutable more than once at a time (E0499)")
    assert "argument `odds` (the caller's `c`)" in message
    assert "argument `evens` (the caller's `c`)" in message


def test_a_temporary_or_a_wrapped_foreign_array_gets_only_the_parameter_name() -> None:
    stream = DEV.new_stream()
    src = sk.zeros(64, f32, stream)
    out = sk.zeros(64, f32, stream)
    with pytest.raises(AliasingError) as caught:
        split2.launch(_prepared(), stream, src, out, out[2:4])
    message = str(caught.value)
    assert "argument `odds` [" in message  # `out[2:4]` is bound to no name
    assert "argument `evens` (the caller's `out`)" in message
    host = np.zeros(64, np.float32)
    with pytest.raises(AliasingError) as foreign:
        split2.launch(_prepared(), stream, src, host, host)
    assert "argument `odds` [" in str(foreign.value)  # each launch wraps `host` afresh: no name to give
