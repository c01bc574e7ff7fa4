"""Regressions from the hostile-input review (issue 15, runtime items 9-11 and 18-20), on the CPU executor.

Each test reproduces one reported failure: a copy into memory that numpy says is read-only, integer `//` / `%`
by zero returning 0 instead of trapping like the GPU, `sync_on(None)` / `zeros(n, None)` / an impossible size
giving the wrong error, exited threads holding a barrier back, a `requires` literal past u64, and
`ThreadIndex.get()` after `get_mut`.
"""

from __future__ import annotations

import numpy as np
import pytest

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, i32, i64, u32
from safekernels.errors import KernelTrapError, UseAfterMoveError
from safekernels.simt import DisjointSlice, LaunchContractError, Slice, thread

DEV = sk.Device.cpu()


def run1d(kernel: simt.SimtKernel, n_threads: int, block: int, *args: object) -> None:
    prepared = kernel.prepare(simt.LaunchConfig1D.for_len(n_threads, block), DEV)
    kernel.launch(prepared, DEV.new_stream(), *args)


# -- item 9: read-only memory is never written -----------------------------------------------------------------
@simt.kernel
@simt.launch_contract(block=32)
def fill_ones(c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    if (out := c.get_mut(idx)) is not None:
        out.set(1.0)


@simt.kernel
@simt.launch_contract(block=32)
def copy_in(a: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i])


def test_copy_into_read_only_memory_is_refused_and_the_bytes_are_unchanged() -> None:
    raw = bytes(16)
    buf = sk.as_buffer(np.frombuffer(raw, np.float32))
    assert buf.read_only
    with pytest.raises(ValueError, match=r"copy_from_numpy: the buffer wraps read-only memory"):
        buf.copy_from_numpy(np.ones(4, np.float32))
    assert raw == bytes(16)


def test_read_only_memory_is_refused_as_a_kernel_output_but_accepted_as_an_input() -> None:
    raw = bytes(16)
    readonly = np.frombuffer(raw, np.float32)
    with pytest.raises(TypeError, match=r"fill_ones: argument `c` \(DisjointSlice\[f32\]\) is written"):
        run1d(fill_ones, 4, 32, readonly)
    with pytest.raises(TypeError, match=r"argument `c` .* read-only memory"):
        run1d(fill_ones, 4, 32, sk.as_buffer(readonly))
    assert raw == bytes(16)
    out = sk.zeros(4, f32)
    source = np.frombuffer(np.arange(4, dtype=np.float32).tobytes(), np.float32)
    run1d(copy_in, 4, 32, source, out)  # reading read-only memory is fine
    np.testing.assert_array_equal(out.to_numpy(), np.arange(4, dtype=np.float32))


def test_read_only_memory_cannot_be_partitioned_for_a_tile_launch() -> None:
    buf = sk.as_buffer(np.frombuffer(bytes(16), np.float32))
    with pytest.raises(ValueError, match=r"partition: the buffer wraps read-only memory"):
        buf.partition((2,))
    assert not buf.is_moved  # refused before anything moved
    writable = sk.as_buffer(np.zeros(4, np.float32))
    assert not writable.read_only
    writable.copy_from_numpy(np.ones(4))


def test_views_of_read_only_memory_stay_read_only() -> None:
    buf = sk.as_buffer(np.frombuffer(bytes(32), np.float32))
    head, tail = buf.split_at(3)
    for view in (head, tail, buf[1:5], buf.view(0, 2)):
        assert view.read_only
        with pytest.raises(ValueError, match=r"read-only memory"):
            view.copy_from_numpy(np.ones(len(view), np.float32))


def test_a_read_only_cuda_array_interface_is_read_only() -> None:
    from safekernels.runtime.interop import buffer_from_cuda_array_interface

    class Exporter:
        pass

    class FakeBackend:
        name = "fake-gpu"

    fake_gpu = object.__new__(sk.Device)  # only its backend's name is read: the wrapping records the device
    fake_gpu.backend = FakeBackend()  # type: ignore[assignment]
    interface = {"data": (0x1000, True), "shape": (4,), "typestr": "<f4", "version": 3}
    buf = buffer_from_cuda_array_interface(Exporter(), interface, fake_gpu)
    assert buf.read_only
    interface["data"] = (0x1000, False)
    assert not buffer_from_cuda_array_interface(Exporter(), interface, fake_gpu).read_only


# -- item 10: integer // and % by zero trap, like the GPU --------------------------------------------------------
@simt.kernel
@simt.launch_contract(block=32)
def divide(a: Slice[i32], b: Slice[i32], q: DisjointSlice[i32], r: DisjointSlice[i32]) -> None:
    i = thread.index_1d().get()
    if i >= len(a):
        return
    if (o := q.get_mut(thread.index_1d())) is not None:
        o.set(a[i] // b[i])
    if (p := r.get_mut(thread.index_1d())) is not None:
        p.set(a[i] % b[i])


@simt.kernel
@simt.launch_contract(block=32)
def modulo_only(a: Slice[i64], b: Slice[i64], r: DisjointSlice[i64]) -> None:
    i = thread.index_1d().get()
    if i >= len(a):
        return
    if (p := r.get_mut(thread.index_1d())) is not None:
        p.set(a[i] % b[i])


@simt.kernel
@simt.launch_contract(block=32)
def augmented(a: Slice[u32], c: DisjointSlice[u32], d: u32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i >= len(a):
        return
    x = a[i]
    x //= d
    x %= d + 7
    if (out := c.get_mut(idx)) is not None:
        out.set(x)


@simt.kernel
@simt.launch_contract(block=32)
def float_divide(a: Slice[f32], q: DisjointSlice[f32], r: DisjointSlice[f32]) -> None:
    i = thread.index_1d().get()
    if i >= len(a):
        return
    zero = f32(0.0)
    if (o := q.get_mut(thread.index_1d())) is not None:
        o.set(a[i] // zero)
    if (p := r.get_mut(thread.index_1d())) is not None:
        p.set(a[i] % zero)


def _i32(values: list[int]) -> sk.DeviceBuffer[i32]:
    return sk.to_device(np.array(values, np.int32))


def test_integer_floor_division_by_zero_traps_naming_kernel_and_thread() -> None:
    with pytest.raises(KernelTrapError) as info:
        run1d(divide, 4, 32, _i32([7, -7, 9, 1]), _i32([2, 2, 0, 1]), sk.zeros(4, i32), sk.zeros(4, i32))
    message = str(info.value)
    assert message.startswith("divide: attempt to divide by zero")
    assert "`9 // 0`" in message and "thread (2, 0, 0) of block (0, 0, 0)" in message


def test_integer_remainder_by_zero_traps() -> None:
    a = sk.to_device(np.array([5, 6], np.int64))
    b = sk.to_device(np.array([3, 0], np.int64))
    with pytest.raises(KernelTrapError, match=r"^modulo_only: attempt to calculate the remainder with a divisor"):
        run1d(modulo_only, 2, 32, a, b, sk.zeros(2, i64))


def test_augmented_division_by_a_zero_scalar_traps() -> None:
    a = sk.to_device(np.array([10, 20, 30], np.uint32))
    out = sk.zeros(3, u32)
    run1d(augmented, 3, 32, a, out, 3)
    np.testing.assert_array_equal(out.to_numpy(), (np.array([10, 20, 30]) // 3) % 10)
    with pytest.raises(KernelTrapError, match=r"augmented: attempt to divide by zero"):
        run1d(augmented, 3, 32, a, out, 0)


def test_division_keeps_python_floor_semantics_when_the_divisor_is_not_zero() -> None:
    a, b = [7, -7, 7, -7, 0], [2, 2, -2, -2, 5]
    q, r = sk.zeros(5, i32), sk.zeros(5, i32)
    run1d(divide, 5, 32, _i32(a), _i32(b), q, r)
    np.testing.assert_array_equal(q.to_numpy(), [x // y for x, y in zip(a, b, strict=True)])
    np.testing.assert_array_equal(r.to_numpy(), [x % y for x, y in zip(a, b, strict=True)])


def test_float_division_by_zero_gives_ieee_values_not_a_trap() -> None:
    a = sk.to_device(np.array([1.0, -2.0, 0.0], np.float32))
    q, r = sk.zeros(3, f32), sk.zeros(3, f32)
    run1d(float_divide, 3, 32, a, q, r)
    got = q.to_numpy()
    assert got[0] == np.inf and got[1] == -np.inf and np.isnan(got[2])
    assert np.isnan(r.to_numpy()).all()


# -- item 11: clear errors for a missing stream, a missing dtype and an impossible size ------------------------
def test_sync_on_none_is_a_type_error_and_leaves_the_op_usable() -> None:
    op = tile.zeros((4,), f32)
    with pytest.raises(TypeError, match=r"sync_on takes a safekernels Stream .* got NoneType"):
        op.sync_on(None)
    assert not op.is_moved
    assert op.sync_on(DEV.new_stream()).shape == (4,)


def test_zeros_without_a_dtype_is_refused_instead_of_making_f64() -> None:
    with pytest.raises(TypeError, match=r"a dtype is required .* got None"):
        sk.zeros(4, None)
    with pytest.raises(TypeError, match=r"a dtype is required"):
        sk.empty(4, None)


@pytest.mark.parametrize("length", [2**62, 2**40 * 64])
def test_an_impossible_size_names_the_request(length: int) -> None:
    with pytest.raises(MemoryError) as info:
        sk.zeros(length, f32, device=DEV)
    message = str(info.value)
    assert f"cannot allocate {length} elements of f32 ({length * 4} bytes)" in message
    assert "Device.cpu()" in message


@pytest.mark.parametrize("length", [-1, 2.0, True, "4"])
def test_a_bad_length_is_a_value_error(length: object) -> None:
    with pytest.raises(ValueError, match=r"length must be a non-negative int"):
        sk.zeros(length, f32)  # type: ignore[arg-type]


# -- item 18: exited threads do not hold a block barrier back --------------------------------------------------
BLOCK = 64


@simt.kernel
@simt.launch_contract(block=BLOCK)
def early_exit_then_barrier(a: Slice[f32], out: DisjointSlice[f32], active: u32) -> None:
    t = thread.thread_idx_x()
    if t >= active:
        return  # these threads have exited: the barrier below must not wait for them
    with simt.unsafe():
        s = simt.shared_array(f32, BLOCK)
        s[t] = a[t]
    thread.sync_threads()
    with simt.unsafe():
        neighbour = s[(t + 1) % active]  # written by another thread before the barrier
    with simt.unsafe():
        out.get_unchecked_mut(t).set(neighbour)


@pytest.mark.parametrize("active", [1, 17, 40, BLOCK - 1, BLOCK])
def test_exited_threads_do_not_hold_a_barrier_back(active: int) -> None:
    host = np.arange(BLOCK, dtype=np.float32) + 1
    out = sk.to_device(np.full(BLOCK, -7.0, np.float32))
    run1d(early_exit_then_barrier, BLOCK, BLOCK, sk.to_device(host), out, active)
    want = np.full(BLOCK, -7.0, np.float32)
    want[:active] = host[(np.arange(active) + 1) % active]
    np.testing.assert_array_equal(out.to_numpy(), want)


# -- item 19: the u64 limit of `requires` literals, len() arity, non-string entries ---------------------------
def _contract(requires: object) -> None:
    @simt.kernel
    @simt.launch_contract(block=32, requires=requires)  # type: ignore[arg-type]
    def k(a: Slice[f32], c: DisjointSlice[f32], n: u32) -> None:
        pass


def test_the_largest_u64_literal_is_accepted_and_one_more_is_refused() -> None:
    _contract(("len(a) < 18446744073709551615",))
    with pytest.raises(LaunchContractError, match=r"literal `18446744073709551616` does not fit in u64"):
        _contract(("len(a) < 18446744073709551616",))


@pytest.mark.parametrize(
    "relation",
    ["len(a, c) >= 1", "len() >= 1", "len(a=a) >= 1", "len(a + 1) >= 1", "len(*a) >= 1"],
)
def test_len_takes_exactly_one_slice_name(relation: str) -> None:
    with pytest.raises(LaunchContractError) as info:
        _contract((relation,))
    assert "len() takes one slice parameter name" in str(info.value)
    assert str(info.value).startswith("k: ")


@pytest.mark.parametrize("entry", [3, None, b"len(a) >= n", ["len(a) >= n"]])
def test_non_string_requires_entries_are_named(entry: object) -> None:
    with pytest.raises(LaunchContractError, match=r"^k: requires entries are strings such as"):
        _contract((entry,))


@pytest.mark.parametrize("value", [3, None, 2.5])
def test_a_non_sequence_requires_is_named(value: object) -> None:
    with pytest.raises(LaunchContractError, match=rf"requires entries are strings .*got {value!r}"):
        _contract(value)


def test_a_single_string_requires_is_one_relation() -> None:
    _contract("len(a) >= n")


# -- item 20: ThreadIndex.get() after get_mut ----------------------------------------------------------------
@simt.kernel
@simt.launch_contract(block=32)
def get_after_get_mut(c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    c.get_mut(idx)
    idx.get()


def test_get_after_get_mut_is_use_after_move() -> None:
    with pytest.raises(UseAfterMoveError, match=r"`get\(\)` after it was consumed by `get_mut`.*\(E0382\)"):
        run1d(get_after_get_mut, 32, 32, sk.zeros(32, f32))


def test_get_before_get_mut_is_fine_and_a_witness_is_single_use() -> None:
    from safekernels.simt.types import ThreadIndex

    idx = ThreadIndex(5)
    assert idx.get() == 5 and idx.get() == 5
    slot: object = DisjointSlice(np.zeros(8, np.float32), "c").get_mut(idx)
    assert slot is not None
    with pytest.raises(UseAfterMoveError):
        idx.get()
    assert repr(idx) == "ThreadIndex(5, consumed)"
