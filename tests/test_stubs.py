"""Types: the hand-written stub `_core.pyi` matches the compiled module, and the
Python layer type-checks."""

from __future__ import annotations

import subprocess
import sys


def test_stub_matches_runtime():
    r = subprocess.run([sys.executable, "-m", "mypy.stubtest", "dragoncastle._core"], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_package_type_checks():
    """The Python layer (agents, CLI, benchmarks, reference engine) passes mypy."""
    r = subprocess.run([sys.executable, "-m", "mypy", "--ignore-missing-imports", "-p", "dragoncastle"], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
