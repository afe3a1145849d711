"""A tiny learner in the solo Gymnasium environment: a linear softmax policy over the compact
observation, trained with REINFORCE, in numpy only. It prints its learning curve (the mean final
score per block of training games) and compares the trained policy with a random policy and the
greedy agent on the same held-out deals.

    python3 examples/gymnasium_learn.py             # 2,000 training games, blocks of 100 (about 10 s)
    python3 examples/gymnasium_learn.py 100 50      # training games, block size (quick)

Needs Gymnasium (``pip install "dragoncastle[rl]"``). See docs/environments.md.
"""

import sys
from collections import Counter

import gymnasium
import numpy as np

import dragoncastle as dc
import dragoncastle.envs.gymnasium  # noqa: F401  (registers DragonCastle-Solo-v0)

games = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
block = int(sys.argv[2]) if len(sys.argv) > 2 else 100
EVAL_SEED, EVAL_GAMES = 1_000_000, 200   # held-out deals, never trained on
LEARNING_RATE = 0.001

# reward="score": after every decision, the change of our score. The rewards of a game add up to
# its final score, and each decision is credited with the points scored after it (not before),
# which makes the gradient much less noisy than a single reward at the end.
env = gymnasium.make("DragonCastle-Solo-v0", reward="score")


def features(obs):
    """The compact observation (1,190 small integers, docs/observation.md) scaled to about [0, 1],
    plus a constant 1 so that each action also has a bias of its own."""
    return np.concatenate(([1.0], np.minimum(obs, 8) / 8.0))


n_features = features(env.observation_space.sample()).size
# One row of weights per action id: the logit of action a is W[a] . x. A row per action is
# what makes masking cheap: only the rows of the legal actions are ever read or updated.
W = np.zeros((dc.NUM_ACTIONS, n_features))
# A linear estimate of the score still to come, the baseline that centres the returns.
V = np.zeros(n_features)
rng = np.random.default_rng(0)


def policy(x, mask):
    """The legal action ids and their probabilities: a softmax over the legal actions only
    (masked logits), so an illegal action is never chosen."""
    legal = np.flatnonzero(mask)
    logits = W[legal] @ x
    p = np.exp(logits - logits.max())
    return legal, p / p.sum()


def play(seed=None, greedy=False, train=False, kinds=None):
    """One game; the final score. ``greedy`` plays the most likely action, ``train`` updates
    the policy from the game with REINFORCE, ``kinds`` counts the kinds of actions played."""
    obs, info = env.reset(seed=seed)
    trajectory, terminated = [], False
    while not terminated:
        x = features(obs)
        legal, p = policy(x, info["action_mask"])
        k = int(np.argmax(p)) if greedy else rng.choice(len(legal), p=p)
        obs, reward, terminated, truncated, info = env.step(legal[k])
        if kinds is not None:
            kinds[dc.Action.from_id(int(legal[k])).kind.name] += 1
        trajectory.append((x, legal, p, k, reward))
    if train:
        to_come = 0.0
        for x, legal, p, k, reward in reversed(trajectory):
            to_come += reward
            advantage = to_come - V @ x
            V[:] += 0.01 * advantage * x / (x @ x)
            # The gradient of log p(k) for a softmax over the legal rows: x (onehot(k) - p).
            grad = -p
            grad[k] += 1.0
            W[legal] += LEARNING_RATE * advantage * np.outer(grad, x) / np.sqrt(x @ x)
    return info["scores"][0]


def random_policy_score(seed):
    """The uniformly random legal policy on one deal (what W = 0 plays before any training)."""
    obs, info = env.reset(seed=seed)
    terminated = False
    while not terminated:
        obs, reward, terminated, truncated, info = env.step(env.action_space.sample(info["action_mask"]))
    return info["scores"][0]


eval_seeds = range(EVAL_SEED, EVAL_SEED + EVAL_GAMES)
env.action_space.seed(0)
random_mean = np.mean([random_policy_score(s) for s in eval_seeds])
print(f"random policy: mean score {random_mean:.2f} on {EVAL_GAMES} held-out deals")

print(f"learning curve: mean final score per block of {block} training games")
env.reset(seed=0)  # later resets draw their deals from the environment's seeded generator
scores = []
for game in range(1, games + 1):
    scores.append(play(train=True))
    if game % block == 0 or game == games:
        recent = scores[(game - 1) // block * block:]
        print(f"  games {game - len(recent) + 1:5d}-{game:<5d}  mean score {np.mean(recent):6.2f}  {'#' * round(np.mean(recent))}")

kinds: Counter[str] = Counter()
trained = np.mean([play(seed=s, greedy=True, kinds=kinds) for s in eval_seeds])
sampled = np.mean([play(seed=s) for s in eval_seeds])
greedy_agent = dc.playouts("greedy", EVAL_GAMES, players=1, seed=EVAL_SEED)[0][:, 0].mean()
print(f"after training, on the same {EVAL_GAMES} held-out deals: most likely action {trained:.2f}, "
      f"sampled {sampled:.2f}, random policy {random_mean:.2f}, greedy agent {greedy_agent:.2f}")
# A linear policy finds a simple, consistent plan rather than the game's deep one; look at what
# it does (with the default sizes it takes a tile and Discards it for 1 VP nearly every turn,
# which already beats the greedy agent in solo).
total = sum(kinds.values())
print("what the trained policy plays:", ", ".join(f"{k} {n / total:.0%}" for k, n in kinds.most_common()))
