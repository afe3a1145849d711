"""Tests of ``dragoncastle.playouts``: whole games played in Rust threads."""

from __future__ import annotations

import numpy as np
import pytest

import dragoncastle as dc


@pytest.mark.parametrize("n_games", [2**62, 10**11])
def test_playouts_too_large_is_a_clean_error(n_games):
    """Sizes that cannot fit in memory raise MemoryError before any work,
    instead of aborting the interpreter."""
    with pytest.raises(MemoryError):
        dc.playouts("random", n_games, players=2, seed=0, threads=1)
    with pytest.raises(ValueError):
        dc.playouts("random", 10, players=2, threads=10**6)


def test_playouts_take_agent_specs():
    """dc.playouts plays any agent spec in every seat, as the arena does."""
    scores, winners, lengths = dc.playouts("mcts:iterations=20", 4, players=2, seed=3, threads=2)
    again = dc.playouts("mcts:iterations=20", 4, players=2, seed=3, threads=1)
    assert (scores == again[0]).all() and (lengths == again[2]).all()
    r = dc.arena(["mcts:iterations=20", "mcts:iterations=20"], 4, seed=3, threads=1)
    assert scores.tolist() == [g["scores"] for g in r.games]
    assert lengths.tolist() == [sum(g["decisions"]) for g in r.games]
    solo, _, _ = dc.playouts("mcts:iterations=20", 2, players=1, seed=0)
    assert solo.shape == (2, 1) and (solo > 0).all()
    with pytest.raises(ValueError):
        dc.playouts("mcts:bogus=1", 2)


@pytest.mark.parametrize("spirits", [["beauty"], ["change"], ["strength"], 10])
def test_card_playouts_do_not_depend_on_threads_or_what_ran_before(spirits):
    """R-SPIRIT-1, R-SPIRIT-2: Spirit legality is remembered per thread
    (`rust/state/memo.rs`); a game's moves must not depend on which games the
    thread played before it, nor on how games are spread over threads."""
    kw = dict(players=2, spirits=spirits, dragons=1)
    whole = dc.playouts("random", 40, seed=5, threads=1, **kw)
    spread = dc.playouts("random", 40, seed=5, threads=2, **kw)
    # The second half alone, on a thread that has not seen the first.
    dc.playouts("random", 5, seed=900, threads=1, players=3, spirits=spirits, dragons=2)
    tail = dc.playouts("random", 20, seed=25, threads=1, **kw)
    for a, b in zip(whole, spread):
        assert (a == b).all()
    for a, b in zip(whole, tail):
        assert (a[20:] == b).all()


def test_batch_playouts_are_seeded_and_thread_independent():
    s1, w1, l1 = dc.playouts("random", 60, players=3, seed=5, threads=1)
    s2, w2, l2 = dc.playouts("random", 60, players=3, seed=5, threads=2)
    assert (s1 == s2).all() and (w1 == w2).all() and (l1 == l2).all()
    assert s1.shape == (60, 3) and w1.dtype == np.bool_ and l1.shape == (60,)
    assert w1.any(axis=1).all()
    # Game k is the seeded game seed + k: with the Dragon of Ingenuity's priorities in every
    # seat (no random draw), its scores are those of the game replayed in Python.
    dragon, dragon_winners, dragon_lengths = dc.playouts("dragon", 6, players=3, seed=11)
    for k in range(6):
        g = dc.Game(players=3, seed=11 + k)
        while not g.is_over:
            g.apply(g.dragon_action())
        assert list(dragon[k]) == g.scores()
        assert list(np.flatnonzero(dragon_winners[k])) == list(g.winners())
        assert dragon_lengths[k] == len(g.history)
    solo, _, _ = dc.playouts("dragon", 10, players=1)
    assert solo.shape == (10, 1)
    greedy, gw, _ = dc.playouts("greedy", 20, players=4)
    assert greedy.shape == (20, 4) and gw.any(axis=1).all()
    for agent, bad in (("random", {"players": 5}), ("nobody", {}), ("mcts:bogus=1", {}), ("random", {"threads": 0})):
        with pytest.raises(ValueError):
            dc.playouts(agent, 5, **bad)


def test_batch_playouts_release_the_gil():
    """While a thread runs a long batch in Rust, another Python thread keeps running: with
    the GIL held, the counting loop below could not advance until the batch returned."""
    import threading

    results = {}
    started = threading.Event()

    def work(k):
        started.set()
        results[k] = dc.playouts("random", 60_000, players=2, seed=9, threads=1)[0]

    worker = threading.Thread(target=work, args=(0,))
    worker.start()
    started.wait()
    counted = 0
    while worker.is_alive():
        counted += 1
    worker.join()
    assert counted > 10_000, f"only {counted} steps of Python ran during the batch"
    assert (results[0][:300] == dc.playouts("random", 300, players=2, seed=9, threads=2)[0]).all()
