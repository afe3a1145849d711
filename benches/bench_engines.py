"""pytest-benchmark suite: each operation in the Rust engine and in the pure-Python
reference, grouped so the report shows them side by side.

    python3 -m pytest benches --benchmark-enable                # measure
    python3 -m pytest benches --benchmark-enable --benchmark-group-by=group

CI runs it with benchmarks disabled (each body once), so it never rots.
"""

from __future__ import annotations

import pytest

import dragoncastle as dc
from dragoncastle import reference
from dragoncastle.bench import OPERATIONS

ENGINES = {"rust": dc, "reference": reference}


@pytest.mark.parametrize("engine", sorted(ENGINES))
@pytest.mark.parametrize("op", OPERATIONS, ids=[op.name for op in OPERATIONS])
def test_operation(benchmark, op, engine):
    benchmark.group = op.name
    run = op.make(ENGINES[engine])
    result = benchmark(run)
    assert result is not None


@pytest.mark.parametrize("threads", [1, 2])
def test_batch_playouts(benchmark, threads):
    benchmark.group = "batch playouts, 2000 games"
    scores, winners, lengths = benchmark(dc.playouts, "random", 2000, players=2, seed=0, threads=threads)
    assert scores.shape == (2000, 2) and winners.any(axis=1).all() and (lengths > 0).all()
