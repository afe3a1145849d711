"""The vectorized environment: many games stepped at once in Rust threads.

    python3 examples/vecenv.py [GAMES] [STEPS]

Each step takes one action per game and fills numpy arrays in place:
observations (the compact 1,190-byte encoding), legal-action masks, rewards,
terminated flags and the seat to move. Here a learner at seat 0 plays
random legal actions against a greedy opponent that plays inside Rust.
"""

import sys
import time

import numpy as np

import dragoncastle as dc

games = int(sys.argv[1]) if len(sys.argv) > 1 else 256
steps = int(sys.argv[2]) if len(sys.argv) > 2 else 2000

env = dc.VecEnv(games, players=2, seed=0, threads=2, opponents="greedy", learner=0)
obs, masks, rewards, terminated, to_move = env.reset()
print(f"{games} games; observations {obs.shape} {obs.dtype}, masks {masks.shape}")

rng = np.random.default_rng(0)
wins = finished = 0
start = time.perf_counter()
for _ in range(steps):
    # Any policy: here one random legal action per game, chosen from the masks.
    # (env.sample() does the same inside Rust, without this Python cost.)
    scores = rng.random(masks.shape) * masks
    actions = scores.argmax(axis=1)
    obs, masks, rewards, terminated, to_move = env.step(actions)
    # Rewards arrive when a game ends: 1 for a win (shared on a tie), 0 otherwise.
    finished += int(terminated.sum())
    wins += float(rewards[terminated, 0].sum())
seconds = time.perf_counter() - start

assert (to_move == 0).all(), "the opponent always hands the turn back to the learner"
print(f"{games * steps} learner decisions in {seconds:.2f} s ({games * steps / seconds:,.0f} per second with the policy in numpy)")
print(f"{finished} games finished; random play won {wins:.1f} of them against greedy")
