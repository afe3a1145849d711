"""Docstring examples of the installed package run as tests."""

from __future__ import annotations

import doctest
import importlib

import pytest

# Every module with examples, and how many examples it has at least; only
# dragoncastle.arena's run elsewhere (tests/test_ray.py), as they need Ray.
MODULES = {
    "dragoncastle": 1,
    "dragoncastle.agents": 1,
    "dragoncastle.play": 1,
    "dragoncastle.errors": 1,
    "dragoncastle.envs.pettingzoo": 1,
    "dragoncastle.envs.gymnasium": 1,
    "dragoncastle.openspiel": 1,
    "dragoncastle.plots": 6,
    "dragoncastle.ladder": 5,
    "dragoncastle.selfplay": 3,
    "dragoncastle.distributed": 3,
    "dragoncastle.reference": 1,
    "dragoncastle.reference.actions": 1,
    "dragoncastle.reference.layout": 1,
    "dragoncastle.reference.phase": 1,
    "dragoncastle.reference.realm": 1,
    "dragoncastle.reference.solo": 1,
    "dragoncastle.reference.text": 1,
    "dragoncastle.reference.tiles": 1,
}


@pytest.mark.parametrize("name", MODULES)
def test_docstrings(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= MODULES[name] and result.failed == 0
