"""Example counts that follow the Hypothesis profile (``tests/conftest.py``).

An explicit ``@settings(max_examples=N)`` overrides the profile, so tests
parametrized over many rules would run their full count on every Python in
tox.  ``examples(N)`` scales ``N`` like the profile scales its default
(``quick``, tox's whole-suite profile, draws a quarter; ``smoke``, the
other Pythons' and the pure wheel's, a twentieth), so each Python still
runs every test.
``stride()`` thins fixed tables of inputs the same way.
"""

from __future__ import annotations

import os
from typing import Any

from hypothesis import HealthCheck, settings

# Each profile's max_examples over the default profile's (100).
_SCALE = {"default": 1.0, "ci": 3.0, "dev": 0.2, "quick": 0.25, "smoke": 0.05}


def _scale() -> float:
    return _SCALE.get(os.environ.get("HYPOTHESIS_PROFILE", "default"), 1.0)


def examples(count: int) -> int:
    """``count`` scaled by the active profile, at least 1."""
    return max(1, round(count * _scale()))


def stride() -> int:
    """Take every ``stride()``-th item of a fixed table of inputs (the URL
    corpus): 1 (all) on the default and ``ci`` profiles, 4 on ``quick``,
    5 on ``dev``, 20 on ``smoke``, so tables shrink with the example
    counts."""
    return max(1, round(1 / min(1.0, _scale())))


def backend_settings(**kwargs: Any) -> settings:
    """``settings(**kwargs)`` for a ``@given`` test that takes the ``on`` or
    ``backend`` fixture (``conftest.py``).  Those fixtures are function-scoped
    (so Hypothesis's ``function_scoped_fixture`` health check objects) but
    are values that no example can change, a back end and the functions
    bound to it, so the check is suppressed.  A test that runs once per back
    end draws half the examples it drew when it ran once (``max_examples``),
    so that the two runs together cost what the one did."""
    suppress = [*settings.default.suppress_health_check, HealthCheck.function_scoped_fixture]
    return settings(suppress_health_check=suppress, **kwargs)
