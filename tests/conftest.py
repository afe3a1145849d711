from __future__ import annotations

import pytest

import dragoncastle

# The rule tests run against every engine listed here; the pure-Python reference
# engine joins when it exists (it has the same API).
ENGINES = {"rust": dragoncastle}


@pytest.fixture(params=sorted(ENGINES))
def dc(request: pytest.FixtureRequest):
    """The engine module under test (``Game``, ``Layout``, ``Action``...)."""
    return ENGINES[request.param]
