"""Hypothesis's profiles for the suite (loaded by tests/conftest.py before
any test module is imported), and ``examples``: a property's own number
of examples, scaled as the profile scales the default."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

# No test may depend on how busy the machine is: Hypothesis's deadline and
# its "too slow" health check both time examples, so both are off. The
# "ci" profile (HYPOTHESIS_PROFILE=ci, set by .ci/run) runs half as many
# examples: of the properties that leave their count to the profile, and of
# those that set their own through ``examples``.
settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("ci", settings.get_profile("default"), max_examples=50)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def examples(count: int) -> int:
    """A property's own number of examples, scaled as the profile scales
    the default (100): the "ci" profile runs half of each."""
    return max(10, count * settings().max_examples // 100)
