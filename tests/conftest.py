"""Test-wide settings.

Property tests (hypothesis) run derandomized under CI (the CI environment variable is set), so a
CI run is repeatable: the same examples every time. Locally they explore new random examples on
every run; set TORSION_HYPOTHESIS_PROFILE=ci to reproduce CI, or =dev for random exploration.
"""

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None, print_blob=True)
settings.load_profile(os.environ.get("TORSION_HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))
