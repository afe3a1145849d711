#!/usr/bin/env python3
"""What the stable ABI costs: the package's extension (``abi3``, one wheel for
Python 3.9 and later) against one built for this Python version only, side by
side in one run, on the calls where Python meets Rust most often.

    python3 benches/abi3.py              # 7 rounds of each figure
    python3 benches/abi3.py --rounds 15

It builds the version-specific extension with ``cargo build --features
python`` into a scratch copy of the package, then times the same script
under both, alternating, and prints best and median per figure and their
ratio (version-specific / abi3: above 1 means abi3 is faster).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Microseconds per call of the operations a Python agent or environment loop uses most.
PROBE = r"""
import json, random, sys, time
import dragoncastle as dc
def per_call(fn, n):
    start = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - start) / n * 1e6
g = dc.Game(players=2, seed=1)
rng = random.Random(0)
for _ in range(30):
    g.apply(rng.choice(g.legal_action_ids()))
def step():
    c = g.clone()
    c.apply(c.legal_action_ids()[0])
env = dc.VecEnv(64, players=2, seed=0)
env.reset()
actions = env.sample()
out = {
    "legal_actions()": per_call(g.legal_actions, 20000),
    "legal_action_ids()": per_call(g.legal_action_ids, 20000),
    "clone + apply": per_call(step, 20000),
    "compact_observation()": per_call(g.compact_observation, 20000),
    "observation_tensor()": per_call(g.observation_tensor, 5000),
    "VecEnv(64).step": per_call(lambda: env.step(env.sample()), 2000),
}
print(json.dumps({"abi3": dc._core.__file__.endswith(".abi3.so"), "times": out}))
"""


def version_specific_package(tmp: Path) -> Path:
    """A copy of the package whose extension is built for this Python only."""
    out = subprocess.run(["cargo", "build", "--release", "--lib", "--features", "python", "--message-format=json"],
                         cwd=ROOT, check=True, capture_output=True, text=True).stdout
    lib = None
    for line in out.splitlines():
        msg = json.loads(line)
        if msg.get("reason") == "compiler-artifact" and msg["target"]["name"] == "_core":
            lib = next((f for f in msg["filenames"] if f.endswith(".so")), lib)
    if lib is None:
        raise RuntimeError("cargo did not report the extension")
    pkg = tmp / "dragoncastle"
    shutil.copytree(ROOT / "python" / "dragoncastle", pkg)
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    shutil.copyfile(lib, pkg / f"_core{suffix}")
    return tmp


def run(path: Path | None) -> dict:
    env = None
    if path is not None:
        import os

        env = {**os.environ, "PYTHONPATH": str(path)}
    r = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, env=env, check=True)
    return json.loads(r.stdout)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        specific = version_specific_package(Path(tmp))
        runs: dict[str, list[dict]] = {"abi3": [], "specific": []}
        for _ in range(args.rounds):  # alternate, so load on the machine hits both alike
            a, s = run(None), run(specific)
            if not a["abi3"] or s["abi3"]:
                raise SystemExit("the installed package must be the abi3 build (pip install .), the copy version-specific")
            runs["abi3"].append(a["times"])
            runs["specific"].append(s["times"])
    print(f"Python {sys.version.split()[0]}, {args.rounds} rounds, microseconds per call (best / median)")
    print(f"{'call':<24} {'abi3':>18} {'version-specific':>20} {'ratio (medians)':>16}")
    for name in runs["abi3"][0]:
        a = [r[name] for r in runs["abi3"]]
        s = [r[name] for r in runs["specific"]]
        print(f"{name:<24} {min(a):8.3f} / {statistics.median(a):7.3f} {min(s):10.3f} / {statistics.median(s):7.3f}"
              f" {statistics.median(s) / statistics.median(a):15.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
