# fresh-expect: clean
# fresh-note: Computes averagine isotope envelopes for precursor groups built with the zip_longest grouper recipe; the kernel's two DisjointSlice outputs are the two split_at halves of one reused arena, which never overlap.
"""Proteomics: theoretical isotope envelopes (averagine, Poisson model) for precursor masses.

For a peptide of monoisotopic mass M the number of heavy isotopes is roughly Poisson with mean
lambda = M / 1800 (averagine); the kernel writes the normalised M+0 and M+1 abundances in one pass,
into the two halves of one device buffer. Precursors are processed in fixed-size groups, and the
host scores each observed envelope against its theoretical one to flag co-isolated precursors.
"""
from __future__ import annotations

import itertools
import math

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

GROUP = 96
LAMBDA_PER_DA = 1.0 / 1800.0


@simt.kernel
@simt.launch_contract(block=32, requires=("len(mass) >= len(m0)", "len(mass) >= len(m1)"))
def envelope(mass: Slice[f32], m0: DisjointSlice[f32], m1: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    lam = mass[i] * f32(LAMBDA_PER_DA)
    p0 = f32(1.0)
    p1 = lam
    p2 = lam * lam * f32(0.5)
    p3 = p2 * lam / f32(3.0)
    total = p0 + p1 + p2 + p3
    if (a := m0.get_mut(idx)) is not None:
        a.set(p0 / total)
    idx1 = thread.index_1d()
    if (b := m1.get_mut(idx1)) is not None:
        b.set(p1 / total)


def grouper(values: list[float], n: int, fill: float = 0.0):
    return itertools.zip_longest(*[iter(values)] * n, fillvalue=fill)


def synthetic_precursors(rng: np.random.Generator, count: int) -> tuple[list[float], np.ndarray]:
    masses = rng.uniform(800.0, 4200.0, count)
    lam = masses * LAMBDA_PER_DA
    p = np.stack([np.ones(count), lam, lam**2 / 2, lam**3 / 6])
    p /= p.sum(axis=0)
    observed = p[:2].T * rng.normal(1.0, 0.03, (count, 2))
    interfered = rng.choice(count, 7, replace=False)
    observed[interfered, 1] *= 1.6                  # a co-eluting precursor inflates M+1
    return masses.tolist(), observed


def cosine(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return (a * b).sum(axis=1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = envelope.prepare(simt.LaunchConfig1D.for_len(GROUP, block=32), dev)
    masses, observed = synthetic_precursors(np.random.default_rng(1836), 250)

    arena = sk.zeros(2 * GROUP, f32, stream)
    m0, m1 = arena.split_at(GROUP)
    theory = []
    for group in grouper(masses, GROUP):
        mass = sk.to_device(np.asarray(group, np.float32), stream)
        envelope.launch(prep, stream, mass, m0, m1)
        theory.append(np.stack([m0.to_numpy(stream), m1.to_numpy(stream)], axis=1))
    theo = np.concatenate(theory)[: len(masses)]

    score = cosine(theo, observed)
    flagged = np.flatnonzero(score < 0.995)
    print(f"{len(masses)} precursors in {math.ceil(len(masses) / GROUP)} groups; median score {np.median(score):.4f}")
    for k in flagged[:8]:
        print(f"  M {masses[k]:7.2f} Da: M1/M0 obs {observed[k, 1] / observed[k, 0]:.2f} "
              f"vs theory {theo[k, 1] / theo[k, 0]:.2f} (score {score[k]:.4f})")


if __name__ == "__main__":
    main()
