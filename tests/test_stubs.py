"""The hand-written stub `_core.pyi` matches the compiled module."""

from __future__ import annotations

import subprocess
import sys


def test_stub_matches_runtime():
    r = subprocess.run([sys.executable, "-m", "mypy.stubtest", "dragoncastle._core"], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
