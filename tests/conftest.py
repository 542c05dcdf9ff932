"""Shared test settings: Hypothesis profiles (``HYPOTHESIS_PROFILE=ci`` runs
more examples, ``dev`` fewer)."""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "default", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("ci", max_examples=300, deadline=None)
settings.register_profile("dev", max_examples=20, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
