"""Methods named like safekernels operations on ordinary objects are not moves or launches."""

import safekernels as sk
from safekernels import simt


class Rocket:
    def launch(self, countdown: int) -> str:
        return f"lift-off after {countdown}"

    def sync(self) -> None:
        pass


class Promise:
    def then(self, callback: object) -> "Promise":
        return self

    def sync_on(self, stream: object) -> None:
        pass


def parse(line: str) -> tuple[str, str]:
    key, _, value = line.partition("=")
    again, _, _ = line.partition("=")
    head, _, tail = line.rpartition(":")
    return key + again + head, value + tail


def main() -> None:
    rocket = Rocket()
    print(rocket.launch(3), rocket.launch(2))
    rocket.sync()
    rocket.sync()
    promise = Promise()
    promise.then(print)
    promise.then(print)
    promise.sync_on(None)
    promise.sync_on(None)
    words = "a b c".split()
    first = words[0]
    print(parse("k=v"), first, words, sk, simt)
