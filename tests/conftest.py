"""Shared test settings: hypothesis runs a fixed, moderate number of examples, no deadline."""

from hypothesis import HealthCheck, settings

settings.register_profile(
    "tabletop",
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
settings.load_profile("tabletop")
