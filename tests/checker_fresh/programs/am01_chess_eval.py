# fresh-expect: E0502 at line 104
# fresh-known-miss: cli,mypy ping-pong accumulator names planned by a generator with index arithmetic (`slots[(i + 1) % 2]`) and read from a dict of buffers: which buffer each launch reads and writes depends on values the checker does not evaluate
# fresh-note: chess evaluator blending material/mobility/centre terms into two accumulators chosen by a generator; an off-by-one in the generator's rotation makes the second blend read and write the same accumulator.
from __future__ import annotations
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread

SQUARES = 64
BATCH = 24
PIECE_VALUES = np.array([0.0, 1.0, 3.0, 3.2, 5.0, 9.0, 0.0], np.float32)  # none, P, N, B, R, Q, K


@simt.kernel
@simt.launch_contract(block=32)
def material(board: Slice[i32], values: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    p = idx.get()
    if (o := out.get_mut(idx)) is not None:
        acc = f32(0.0)
        for sq in range(64):
            piece = board[p * 64 + sq]
            if piece > 0:
                acc += values[piece]
            elif piece < 0:
                acc -= values[-piece]
        o.set(acc)


@simt.kernel
@simt.launch_contract(block=32)
def square_bonus(board: Slice[i32], table: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    p = idx.get()
    if (o := out.get_mut(idx)) is not None:
        acc = f32(0.0)
        for sq in range(64):
            piece = board[p * 64 + sq]
            if piece > 0:
                acc += table[sq]
            elif piece < 0:
                acc -= table[63 - sq]
        o.set(acc)


@simt.kernel
@simt.launch_contract(block=32)
def blend(prev: Slice[f32], term: Slice[f32], weight: f32, out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(prev[i] + weight * term[i])


def blend_plan(terms: list[str]) -> Iterator[tuple[str, str, str]]:
    """(term, read-from, write-into): ping-pong between two accumulators, starting from the zero plane."""
    slots = ("acc_a", "acc_b")
    src = "zero"
    for i, term in enumerate(terms):
        dst = slots[i % 2]
        yield term, src, dst
        src = slots[(i + 1) % 2]


@dataclass
class Evaluator:
    stream: sk.Stream
    weights: dict[str, float] = field(default_factory=lambda: {"material": 1.0, "centre": 0.08, "mobility": 0.05})
    planes: dict[str, sk.DeviceBuffer] = field(init=False)

    def __post_init__(self) -> None:
        names = [*self.weights, "zero", "acc_a", "acc_b"]
        self.planes = {name: sk.zeros(BATCH, f32, self.stream) for name in names}
        dev = self.stream.device
        cfg = simt.LaunchConfig1D.for_len(BATCH, block=32)
        self.prep = {k.name: k.prepare(cfg, dev) for k in (material, square_bonus, blend)}
        centre = np.zeros((8, 8), np.float32)
        centre[2:6, 2:6] = 0.5
        centre[3:5, 3:5] = 1.0
        self.centre = sk.to_device(centre.ravel(), self.stream)
        self.edges = sk.to_device((1.0 - centre.ravel()) * 0.3, self.stream)
        self.values = sk.to_device(PIECE_VALUES, self.stream)
        self.result = "zero"

    @property
    def score(self) -> sk.DeviceBuffer:
        return self.planes[self.result]

    def compute_terms(self, board: sk.DeviceBuffer) -> None:
        material.launch(self.prep["material"], self.stream, board, self.values, self.planes["material"])
        square_bonus.launch(self.prep["square_bonus"], self.stream, board, self.centre, self.planes["centre"])
        square_bonus.launch(self.prep["square_bonus"], self.stream, board, self.edges, self.planes["mobility"])

    def evaluate(self, board: sk.DeviceBuffer) -> np.ndarray:
        self.compute_terms(board)
        for term, src, dst in blend_plan(list(self.weights)):
            w = self.weights[term]
            blend.launch(self.prep["blend"], self.stream, self.planes[src], self.planes[term], w, self.planes[dst])
            self.result = dst
        return self.score.to_numpy(self.stream)


def random_boards(rng: np.random.Generator) -> np.ndarray:
    boards = np.zeros((BATCH, SQUARES), np.int32)
    for b in range(BATCH):
        squares = rng.choice(SQUARES, size=20, replace=False)
        boards[b, squares] = rng.integers(-6, 7, size=20)
    return boards


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    rng = np.random.default_rng(11)
    evaluator = Evaluator(stream)
    boards = random_boards(rng)
    scores = evaluator.evaluate(sk.to_device(boards.ravel(), stream))
    mat = np.array([np.sign(r) @ PIECE_VALUES[np.abs(r)] for r in boards])
    assert np.all(np.abs(scores - mat) < 2.5), (scores, mat)
    best = int(np.argmax(scores))
    print(f"best position {best}: {scores[best]:+.2f} (material {mat[best]:+.1f})")


if __name__ == "__main__":
    main()
