"""A PyTorch network inside the Rust search (the same plumbing as
``numpy_evaluator.py``): the search gathers leaves, calls the network once
per batch under ``torch.no_grad()``, and goes on in Rust.

    python3 examples/torch_evaluator.py            # 200 leaves per decision, batch 32
    python3 examples/torch_evaluator.py 50         # quick

Needs PyTorch (the CPU build is enough: pip install torch --index-url
https://download.pytorch.org/whl/cpu); without it the example says so and
exits cleanly. The network is untrained: it shows the interface only.
"""

import sys

import numpy as np

import dragoncastle as dc
from dragoncastle.agents import MCTSAgent

try:
    import torch
except ImportError:
    print("PyTorch is not installed: skipped (pip install torch)")
    sys.exit(0)

iterations = int(sys.argv[1]) if len(sys.argv) > 1 else 200
PLAYERS = 2
torch.manual_seed(0)


class Net(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.body = torch.nn.Sequential(torch.nn.Linear(dc.COMPACT_OBSERVATION_SIZE, 128), torch.nn.ReLU())
        self.policy = torch.nn.Linear(128, dc.NUM_ACTIONS)
        self.value = torch.nn.Linear(128, PLAYERS)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.body(x)
        return self.policy(h), torch.softmax(self.value(h), dim=1)


net = Net().eval()


@torch.no_grad()
def evaluate(observations: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    logits, values = net(torch.from_numpy(observations).float() / 255.0)
    logits = logits.masked_fill(~torch.from_numpy(masks), float("-inf"))
    priors = torch.softmax(logits, dim=1)
    # Values by seat relative to the mover (column 0), like the observation.
    return priors.numpy().astype(np.float32), values.numpy().astype(np.float32)


agent = MCTSAgent(iterations=iterations, evaluator=evaluate, batch_size=32, seed=1)
g = dc.Game(players=PLAYERS, seed=3)
r = agent.search(g)
print(f"PyTorch-guided search: {r.iterations} leaves in {r.seconds:.3f} s, chose {r.action}")
