"""A safekernels function whose source annotates a host result (`-> bytes`) gives no device value: `partition` on
its result is `bytes.partition`, not a tile move, so reading the bytes again is fine."""

from safekernels.disk_data import read_regular


def first_line(path: str) -> tuple[bytes, int]:
    raw = read_regular(path, 1 << 20)
    header, _sep, _body = raw.partition(b"\n")
    return header, len(raw)
