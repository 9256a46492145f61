"""Test settings shared by every part of the suite.

Hypothesis explores new random examples on every local run; CI (``.ci/run`` sets
``HYPOTHESIS_PROFILE=ci``) replays a fixed derandomized set, so that a landing
depends on the code, not on the luck of the draw. Examples that once found a bug
stay in the tests as ``@example``.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
