"""A file that does not parse is one diagnostic for that file, not a crash."""

import safekernels as sk
from safekernels import simt


def main(n: int) -> None:
    launch = = simt.LaunchConfig1D.for_len(n, block=256)  # expect: E0001
    print(sk, launch)
