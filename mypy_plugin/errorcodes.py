"""mypy error codes named exactly like the CLI's codes, so `# type: ignore[E0382]` and `--disable-error-code E0499`
mean the same thing as `# ownership: ignore[E0382]` and `ownership-check --ignore E0499`.

mypy accepts any code string; the category groups them in `mypy --show-error-code-links`-style listings.
"""

from __future__ import annotations

from typing import Final

from mypy.errorcodes import ErrorCode

CATEGORY: Final = "ownership"

_DESCRIPTIONS: Final[dict[str, str]] = {
    "E0382": "Use of a value after it was moved into a launch, a partition or a sync",
    "E0499": "The same buffer borrowed as mutable more than once at a time",
    "E0502": "A buffer borrowed as mutable while it is also borrowed as immutable",
    "E0505": "A value moved while a pending operation still borrows it",
    "E0133": "An operation that requires `with simt.unsafe():` used outside one",
    "E0308": "A prepared launch used with a kernel other than the one that prepared it",
    "W0002": "Ownership not checked: the parser or the analysis gave up on this file or function",
    "W0003": "A lazy DeviceOp (a launch, a combinator) built and never run",
}

CODES: Final[dict[str, ErrorCode]] = {
    code: ErrorCode(code, description, CATEGORY) for code, description in _DESCRIPTIONS.items()
}


def error_code(code: str) -> ErrorCode:
    """The mypy `ErrorCode` of a checker code (an unknown code gets its own, so nothing is ever dropped)."""
    found = CODES.get(code)
    if found is None:
        found = ErrorCode(code, f"safekernels ownership diagnostic {code}", CATEGORY)
        CODES[code] = found
    return found
