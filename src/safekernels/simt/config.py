"""Launch geometry: `LaunchConfig1D/2D/3D`.

One class per rank, so a 1-D configuration cannot carry y/z extents and a rank mismatch with the kernel's
contract (`domain=`) is reported before anything else.  Dimensions are plain ints; zero is allowed here and
refused by `prepare` (the first validation step), so every failure kind goes through the same validator."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


def _check_dims(kind: str, values: tuple[int, ...]) -> None:
    for v in values:
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise ValueError(f"{kind} dimensions must be non-negative ints, got {values!r}")


def _ceil_div(n: int, d: int) -> int:
    return -(-n // d)


@dataclass(frozen=True)
class LaunchConfig1D:
    """`grid` blocks of `block` threads along x, plus `dynamic_shared` bytes of dynamic shared memory."""

    grid: int
    block: int
    dynamic_shared: int = 0
    domain: ClassVar[int] = 1

    def __post_init__(self) -> None:
        _check_dims("grid", (self.grid,))
        _check_dims("block", (self.block,))
        _check_dims("dynamic_shared", (self.dynamic_shared,))

    @classmethod
    def for_len(cls, n: int, block: int = 256, dynamic_shared: int = 0) -> LaunchConfig1D:
        """Enough blocks of `block` threads to cover `n` elements (`ceil(n / block)`)."""
        if block <= 0:
            raise ValueError(f"block must be positive, got {block}")
        return cls(_ceil_div(n, block), block, dynamic_shared)

    @property
    def grid3(self) -> tuple[int, int, int]:
        return (self.grid, 1, 1)

    @property
    def block3(self) -> tuple[int, int, int]:
        return (self.block, 1, 1)


@dataclass(frozen=True)
class LaunchConfig2D:
    """A `grid=(gx, gy)` of `block=(bx, by)` threads; x is the column axis."""

    grid: tuple[int, int]
    block: tuple[int, int]
    dynamic_shared: int = 0
    domain: ClassVar[int] = 2

    def __post_init__(self) -> None:
        object.__setattr__(self, "grid", tuple(self.grid))
        object.__setattr__(self, "block", tuple(self.block))
        if len(self.grid) != 2 or len(self.block) != 2:
            raise ValueError(f"LaunchConfig2D takes 2-tuples, got grid={self.grid!r} block={self.block!r}")
        _check_dims("grid", self.grid)
        _check_dims("block", self.block)
        _check_dims("dynamic_shared", (self.dynamic_shared,))

    @classmethod
    def for_shape(
        cls, rows: int, cols: int, block: tuple[int, int] = (16, 16), dynamic_shared: int = 0
    ) -> LaunchConfig2D:
        """Enough blocks to cover a `rows x cols` matrix (x over columns, y over rows)."""
        bx, by = block
        return cls((_ceil_div(cols, bx), _ceil_div(rows, by)), (bx, by), dynamic_shared)

    @property
    def grid3(self) -> tuple[int, int, int]:
        return (self.grid[0], self.grid[1], 1)

    @property
    def block3(self) -> tuple[int, int, int]:
        return (self.block[0], self.block[1], 1)


@dataclass(frozen=True)
class LaunchConfig3D:
    """A `grid=(gx, gy, gz)` of `block=(bx, by, bz)` threads."""

    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    dynamic_shared: int = 0
    domain: ClassVar[int] = 3

    def __post_init__(self) -> None:
        object.__setattr__(self, "grid", tuple(self.grid))
        object.__setattr__(self, "block", tuple(self.block))
        if len(self.grid) != 3 or len(self.block) != 3:
            raise ValueError(f"LaunchConfig3D takes 3-tuples, got grid={self.grid!r} block={self.block!r}")
        _check_dims("grid", self.grid)
        _check_dims("block", self.block)
        _check_dims("dynamic_shared", (self.dynamic_shared,))

    @property
    def grid3(self) -> tuple[int, int, int]:
        return self.grid

    @property
    def block3(self) -> tuple[int, int, int]:
        return self.block


LaunchConfig = LaunchConfig1D | LaunchConfig2D | LaunchConfig3D
