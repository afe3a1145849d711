"""A small numpy network inside the Rust search: self-play data, a fit, and
the search guided by the network's priors and values.

    python3 examples/numpy_evaluator.py            # 20 self-play games, 10 test games
    python3 examples/numpy_evaluator.py 4 2        # quick

The network is deliberately tiny (one hidden layer on the compact
observation); it shows the plumbing, not a strong player. The shipped model
and its training are ``dragoncastle train`` (docs/training.md).
"""

import sys

import numpy as np

import dragoncastle as dc
from dragoncastle.agents import MCTSAgent

games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
test_games = int(sys.argv[2]) if len(sys.argv) > 2 else 10
rng = np.random.default_rng(0)

# 1. Training data: games played by the rollout search (visit policies, returns).
data = dc.selfplay(MCTSAgent(iterations=100), games, players=2, seed=0)
x = np.minimum(data["observations"], 8).astype(np.float32) / 8  # small counts and codes
mine = data["returns"][np.arange(len(x)), data["to_move"]]  # the mover's return
print(f"self-play: {len(x)} decisions from {games} games")


class Net:
    """Observation -> hidden (64, tanh) -> priors over actions, value of the mover."""

    def __init__(self, inputs: int, hidden: int = 64) -> None:
        self.w1 = rng.normal(0, 1 / np.sqrt(inputs), (inputs, hidden)).astype(np.float32)
        self.wp = np.zeros((hidden, dc.NUM_ACTIONS), np.float32)
        self.wv = np.zeros(hidden, np.float32)

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        h = np.tanh(x @ self.w1)
        return h, h @ self.wp, 1 / (1 + np.exp(-(h @ self.wv)))

    def fit(self, x, policies, masks, returns, steps=300, lr=2.0) -> None:
        for _ in range(steps):
            h, logits, v = self.forward(x)
            logits = np.where(masks, logits, -1e9)
            p = np.exp(logits - logits.max(axis=1, keepdims=True))
            p /= p.sum(axis=1, keepdims=True)
            # Cross-entropy to the visit policy and squared error to the return
            # (only the heads learn: a random projection is enough here).
            self.wp -= lr * h.T @ (p - policies) / len(x)
            self.wv -= lr * h.T @ ((v - returns) * v * (1 - v)) / len(x)

    def __call__(self, observations: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The search's evaluator: priors over actions, a value per seat."""
        _, logits, v = self.forward(np.minimum(observations, 8).astype(np.float32) / 8)
        logits = np.where(masks, logits, -np.inf)
        priors = np.exp(logits - logits.max(axis=1, keepdims=True))
        # Values by seat relative to the mover, as the observation is: the
        # mover's chance of winning, and the rest for the other player.
        return priors.astype(np.float32), np.stack([v, 1 - v], axis=1).astype(np.float32)


net = Net(x.shape[1])


def agreement() -> float:
    """How often the network's top prior is the search's most visited action."""
    logits = np.where(data["masks"], net.forward(x)[1], -np.inf)
    return float(np.mean(logits.argmax(axis=1) == data["policies"].argmax(axis=1)))


before = agreement()
net.fit(x, data["policies"], data["masks"], mine)
print(f"top prior = the search's choice on the training data: {before:.0%} before, {agreement():.0%} after the fit")

# 2. The network in the search: 200 leaves per decision, 16 per call.
guided = MCTSAgent(iterations=200, evaluator=net, batch_size=16, seed=1)
g = dc.Game(players=2, seed=1000)
r = guided.search(g)
print(f"network-guided search: {r.iterations} leaves, chose {r.action}")
result = dc.play(g, [guided, dc.agents.GreedyAgent(seed=2)])
print(f"one game against greedy: scores {result.scores}")
wins = 0
for k in range(test_games):
    g = dc.Game(players=2, seed=2000 + k)
    seats = [guided, dc.agents.RandomAgent(seed=k)] if k % 2 == 0 else [dc.agents.RandomAgent(seed=k), guided]
    res = dc.play(g, seats)
    wins += (k % 2) in res.winners
print(f"network-guided search against random: won {wins} of {test_games}")
