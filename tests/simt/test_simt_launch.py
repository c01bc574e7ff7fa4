"""The safe launch path: brand, stream, argument types, runtime aliasing, async borrows, unsafe gates."""

from __future__ import annotations

import numpy as np
import pytest

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, f64, u32
from safekernels.errors import AliasingError, BorrowError, BrandError, UnsafeOperationError
from safekernels.simt import AtomicSlice, DisjointSlice, LaunchContractError, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def add(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] + b[i])


@simt.kernel
@simt.launch_contract(block=64)
def two_outputs(a: Slice[f32], c: DisjointSlice[f32], d: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i])
    if (out2 := d.get_mut(thread.index_1d())) is not None:
        out2.set(a[i] * 2.0)


@simt.kernel
@simt.launch_contract(block=64)
def scale(x: DisjointSlice[f32], k: f32) -> None:
    idx = thread.index_1d()
    if (out := x.get_mut(idx)) is not None:
        out.set(out.get() * k)


@simt.kernel
def uncontracted(c: DisjointSlice[f32]) -> None:
    if (out := c.get_mut(thread.index_1d())) is not None:
        out.set(f32(7))


DEV = sk.Device.cpu()


def ones(n: int) -> sk.DeviceBuffer[f32]:
    return sk.to_device(np.ones(n, np.float32))


def test_launch_runs() -> None:
    stream = DEV.new_stream()
    a, b, c = ones(100), ones(100), sk.zeros(100, f32)
    add.launch(add.prepare(simt.LaunchConfig1D.for_len(100, 64), DEV), stream, a, b, c)
    np.testing.assert_array_equal(c.to_numpy(), np.full(100, 2, np.float32))


def test_brand_mismatch_is_e0308() -> None:
    prepared = scale.prepare(simt.LaunchConfig1D(1, 64), DEV)
    with pytest.raises(
        BrandError,
        match=r"^add: mismatched types: expected `PreparedLaunch\[add\]`, "
        r"found `PreparedLaunch\[scale\]` \(E0308\)",
    ):
        add.launch(prepared, DEV.new_stream(), ones(4), ones(4), sk.zeros(4, f32))
    with pytest.raises(LaunchContractError):  # catchable as either
        add.launch(prepared, DEV.new_stream(), ones(4), ones(4), sk.zeros(4, f32))


def test_prepared_launch_cannot_be_forged_and_config_is_not_a_prepared_launch() -> None:
    with pytest.raises(TypeError, match=r"created by kernel.prepare"):
        simt.PreparedLaunch(object(), add, simt.LaunchConfig1D(1, 64), DEV, None)
    with pytest.raises(TypeError, match=r"prepare it first"):
        add.launch(simt.LaunchConfig1D(1, 64), DEV.new_stream(), ones(4), ones(4), sk.zeros(4, f32))  # type: ignore[arg-type]


def test_uncontracted_kernel_needs_unsafe_launch() -> None:
    with pytest.raises(LaunchContractError, match=r"^uncontracted: kernel has no launch contract"):
        uncontracted.prepare(simt.LaunchConfig1D(1, 32), DEV)
    c = sk.zeros(10, f32)
    with pytest.raises(UnsafeOperationError, match=r"`launch_unchecked` requires an unsafe block \(E0133\)"):
        uncontracted.launch_unchecked(simt.LaunchConfig1D(1, 32), DEV.new_stream(), c)
    with simt.unsafe():
        uncontracted.launch_unchecked(simt.LaunchConfig1D(1, 32), DEV.new_stream(), c)
    np.testing.assert_array_equal(c.to_numpy(), np.full(10, 7, np.float32))


def test_unsafe_is_lexical_at_run_time_as_in_the_checker() -> None:
    """A `with simt.unsafe():` covers the statements inside it, not a helper function they call (E0133 in the
    checker); the run time refuses the same helper, and accepts comprehensions inside the block."""
    stream = DEV.new_stream()
    config = simt.LaunchConfig1D(1, 32)

    def helper(c: sk.DeviceBuffer[f32]) -> None:
        uncontracted.launch_unchecked(config, stream, c)

    c = sk.zeros(10, f32)
    with simt.unsafe():
        with pytest.raises(UnsafeOperationError, match=r"in a calling function does not cover this one"):
            helper(c)
        [uncontracted.launch_unchecked(config, stream, b) for b in (c,)]
        for b in (c,):
            uncontracted.launch_unchecked(config, stream, b)
    with pytest.raises(UnsafeOperationError, match=r"requires an unsafe block \(E0133\); wrap"):
        uncontracted.launch_unchecked(config, stream, c)

    def helper_with_its_own_block(c: sk.DeviceBuffer[f32]) -> None:
        with simt.unsafe():
            uncontracted.launch_unchecked(config, stream, c)

    helper_with_its_own_block(c)
    np.testing.assert_array_equal(c.to_numpy(), np.full(10, 7, np.float32))


def test_argument_types_and_arity() -> None:
    prepared = add.prepare(simt.LaunchConfig1D(1, 64), DEV)
    stream = DEV.new_stream()
    with pytest.raises(TypeError, match=r"takes 3 kernel argument\(s\), 2 given"):
        add.launch(prepared, stream, ones(4), ones(4))
    with pytest.raises(
        TypeError,
        match=r"argument `b`: mismatched types: expected DeviceBuffer\[f32\].*found DeviceBuffer\[f64\]",
    ):
        add.launch(prepared, stream, ones(4), sk.zeros(4, f64), sk.zeros(4, f32))
    with pytest.raises(TypeError, match=r"argument `a` expects DeviceBuffer"):
        add.launch(prepared, stream, 1.0, ones(4), sk.zeros(4, f32))
    with pytest.raises(TypeError, match=r"argument `k` expects a f32 scalar"):
        scale.launch(scale.prepare(simt.LaunchConfig1D(1, 64), DEV), stream, ones(4), ones(4))


def test_numpy_arrays_are_accepted_through_as_buffer() -> None:
    out = np.zeros(8, np.float32)
    add.launch(
        add.prepare(simt.LaunchConfig1D(1, 64), DEV),
        DEV.new_stream(),
        np.ones(8, np.float32),
        np.ones(8, np.float32),
        out,
    )
    np.testing.assert_array_equal(out, np.full(8, 2, np.float32))


def test_scalar_range_checked() -> None:
    @simt.kernel
    @simt.launch_contract(block=32)
    def takes_u32(c: DisjointSlice[f32], n: u32) -> None:
        pass

    with pytest.raises(OverflowError, match=r"does not fit in u32"):
        takes_u32.launch(
            takes_u32.prepare(simt.LaunchConfig1D(1, 32), DEV), DEV.new_stream(), sk.zeros(1, f32), -1
        )


# -- runtime aliasing ----------------------------------------------------------------------------------------
def test_exact_overlap_is_e0502() -> None:
    prepared = add.prepare(simt.LaunchConfig1D(1, 64), DEV)
    c, b = ones(16), ones(16)
    with pytest.raises(
        AliasingError,
        match=r"^cannot borrow `c` as mutable because it is also borrowed as immutable \(E0502\)",
    ) as info:
        add.launch(prepared, DEV.new_stream(), c, b, c)
    assert "argument `c`" in str(info.value) and "argument `a`" in str(info.value)
    np.testing.assert_array_equal(c.to_numpy(), np.ones(16, np.float32))  # nothing ran


def test_partial_view_overlap_is_refused() -> None:
    prepared = add.prepare(simt.LaunchConfig1D(1, 64), DEV)
    buf = ones(32)
    with pytest.raises(
        AliasingError, match=r"cannot borrow `c` as mutable because it is also borrowed as immutable"
    ):
        add.launch(prepared, DEV.new_stream(), buf.view(0, 16), ones(8), buf.view(8, 24))


def test_shared_after_mutable_wording() -> None:
    @simt.kernel
    @simt.launch_contract(block=32)
    def out_first(c: DisjointSlice[f32], a: Slice[f32]) -> None:
        pass

    buf = ones(8)
    with pytest.raises(
        AliasingError,
        match=r"^cannot borrow `a` as immutable because it is also borrowed as mutable \(E0502\)",
    ):
        out_first.launch(out_first.prepare(simt.LaunchConfig1D(1, 32), DEV), DEV.new_stream(), buf, buf[2:4])


def test_two_mutable_overlapping_is_e0499() -> None:
    prepared = two_outputs.prepare(simt.LaunchConfig1D(1, 64), DEV)
    buf = sk.zeros(32, f32)
    with pytest.raises(
        AliasingError, match=r"^cannot borrow `d` as mutable more than once at a time \(E0499\)"
    ):
        two_outputs.launch(prepared, DEV.new_stream(), ones(16), buf, buf[15:])


def test_disjoint_split_at_halves_are_allowed() -> None:
    prepared = two_outputs.prepare(simt.LaunchConfig1D(1, 64), DEV)
    buf = sk.zeros(32, f32)
    left, right = buf.split_at(16)
    two_outputs.launch(prepared, DEV.new_stream(), ones(16), left, right)
    expected = np.concatenate([np.ones(16), np.full(16, 2)]).astype(np.float32)
    np.testing.assert_array_equal(buf.to_numpy(), expected)


def test_two_shared_uses_of_one_buffer_are_fine() -> None:
    a, c = ones(16), sk.zeros(16, f32)
    add.launch(add.prepare(simt.LaunchConfig1D(1, 64), DEV), DEV.new_stream(), a, a, c)
    np.testing.assert_array_equal(c.to_numpy(), np.full(16, 2, np.float32))


def test_foreign_numpy_alias_is_refused() -> None:
    host = np.ones(16, np.float32)
    with pytest.raises(AliasingError, match=r"E0502"):
        add.launch(
            add.prepare(simt.LaunchConfig1D(1, 64), DEV),
            DEV.new_stream(),
            host,
            np.ones(16, np.float32),
            host,
        )


# -- launch_async --------------------------------------------------------------------------------------------
def test_launch_async_runs_at_sync_and_holds_borrows() -> None:
    stream = DEV.new_stream()
    a, b, c = ones(16), ones(16), sk.zeros(16, f32)
    op = add.launch_async(add.prepare(simt.LaunchConfig1D(1, 64), DEV), a, b, c)
    np.testing.assert_array_equal(c.host_view(), np.zeros(16, np.float32))  # lazy: nothing ran yet
    with pytest.raises(
        BorrowError, match=r"cannot borrow `c` as immutable because it is also borrowed as mutable \(E0502\)"
    ):
        c.to_numpy()  # the pending op writes `c`: the copy would miss what it has not written yet
    np.testing.assert_array_equal(a.to_numpy(), np.ones(16, np.float32))  # `a` is only read: reading it is fine
    scale_prepared = scale.prepare(simt.LaunchConfig1D(1, 64), DEV)
    with pytest.raises(
        BorrowError, match=r"cannot borrow `x` as mutable because it is also borrowed as immutable"
    ):
        scale.launch(scale_prepared, stream, a, 2.0)  # `a` is read by the pending op
    with pytest.raises(BorrowError, match=r"more than once"):
        scale.launch(scale_prepared, stream, c, 2.0)  # `c` is written by the pending op
    values = op.sync_on(stream)
    assert values == (a, b, c)
    np.testing.assert_array_equal(c.to_numpy(), np.full(16, 2, np.float32))
    scale.launch(scale_prepared, stream, c, 2.0)  # released after sync
    np.testing.assert_array_equal(c.to_numpy(), np.full(16, 4, np.float32))


def test_reading_a_tensor_a_pending_op_writes_through_as_buffer_is_e0502() -> None:
    stream = DEV.new_stream()
    t = tile.zeros((16,), f32, device=DEV).sync_on(stream)
    op = add.launch_async(add.prepare(simt.LaunchConfig1D(1, 64), DEV), ones(16), ones(16), t.as_buffer())
    with pytest.raises(BorrowError, match=r"cannot borrow `t` as immutable .*\(E0502\)"):
        t.to_numpy(stream)
    op.sync_on(stream)
    np.testing.assert_array_equal(t.to_numpy(stream), np.full(16, 2, np.float32))


def test_dropped_async_op_releases_its_borrows() -> None:
    a = ones(16)
    op = add.launch_async(add.prepare(simt.LaunchConfig1D(1, 64), DEV), a, a, sk.zeros(16, f32))
    del op
    scale.launch(scale.prepare(simt.LaunchConfig1D(1, 64), DEV), DEV.new_stream(), a, 3.0)
    np.testing.assert_array_equal(a.to_numpy(), np.full(16, 3, np.float32))


# -- unsafe acknowledgement ----------------------------------------------------------------------------------
def test_unchecked_indexing_needs_acknowledgement() -> None:
    with pytest.raises(UnsafeOperationError, match=r"unsafe_acknowledged=True"):

        @simt.kernel(unchecked_indexing=True)
        def k(a: Slice[f32]) -> None:
            pass

    @simt.kernel(unchecked_indexing=True, unsafe_acknowledged=True)
    def ok(a: Slice[f32]) -> None:
        pass

    assert ok.unchecked_indexing and not add.unchecked_indexing


def test_kernel_metadata_for_codegen() -> None:
    assert [(p.name, p.kind, p.dtype.name) for p in add.params] == [
        ("a", "slice", "f32"),
        ("b", "slice", "f32"),
        ("c", "disjoint", "f32"),
    ]
    assert add.contract is not None and add.contract.block == (64, 1, 1) and add.contract.domain == 1
    assert add.name == "add" and callable(add.py_function)

    @simt.launch_contract(block=32, requires=("len(h) >= 1",))  # the other decorator order
    @simt.kernel
    def reversed_order(h: AtomicSlice[u32]) -> None:
        pass

    assert reversed_order.contract is not None and reversed_order.contract.requires == ("len(h) >= 1",)
    assert reversed_order.params[0].kind == "atomic"


def test_calling_a_kernel_directly_explains() -> None:
    with pytest.raises(TypeError, match=r"launch it with add.prepare"):
        add(ones(1), ones(1), ones(1))
