"""Code that never imports safekernels produces nothing, whatever its method names."""

import itertools
from dataclasses import dataclass


@dataclass
class Job:
    name: str

    def launch(self, *args: object) -> "Job":
        return self

    def partition(self, shape: tuple[int, ...]) -> list[int]:
        return list(shape)

    def unpartition(self) -> "Job":
        return self

    def sync_on(self, stream: object) -> tuple["Job", "Job"]:
        return self, self

    def shared(self) -> "Job":
        return self


def kernel(fn: object) -> object:
    return fn


@kernel
def add(z: Job, x: Job, y: Job) -> None:
    print(z, x, y)


def main() -> None:
    z = Job("z")
    x = Job("x")
    add(z, x, z)
    add(z, x, z)
    z.launch(z, z).sync_on(None)
    print(z.partition((1, 2)), z.partition((3,)), z.unpartition(), z.shared(), z.shared())
    for a, b in itertools.pairwise("abc"):
        print(a.partition(b))
