from __future__ import annotations

import pytest

import dragoncastle
from dragoncastle import reference

# The rule tests run against both engines: they have the same API.
ENGINES = {"rust": dragoncastle, "reference": reference}


@pytest.fixture(params=sorted(ENGINES))
def dc(request: pytest.FixtureRequest):
    """The engine module under test (``Game``, ``Layout``, ``Action``...)."""
    return ENGINES[request.param]
