"""Docstring examples of the installed package run as tests."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["dragoncastle", "dragoncastle.agents", "dragoncastle.play"]


@pytest.mark.parametrize("name", MODULES)
def test_docstrings(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
