"""The step's AVX2 kernels (core/cpu_dispatch.hpp: kinematics, inertias, CRBA, RNEA, the
factorisation, the build of a contact-space island, collision detection) give the bits of their
baseline (SSE2) builds: each bundled robot, every joint type among them (floating, revolute on a frame axis
and off it, continuous, prismatic, spherical, a mimic joint), is stepped on a ground under PD
from a moving start in two processes, one with TORSION_NO_AVX2 (the baseline), and the two
trajectories, mass matrices, nonlinear terms and state hashes must be equal byte for byte. On
a CPU without AVX2 both runs take the baseline and the test checks nothing more than
determinism across processes.
"""

from pathlib import Path

import numpy as np

from ..avx2 import run_both_builds

_RUN = r"""
import sys
import numpy as np
import torsion
out = []
for name in ("quadruped", "humanoid", "slider", "nao", "wheeled", "arm7"):
    w = torsion.World()
    w.set_time_step(1e-3)
    w.add_ground()
    s = w.add_articulated_system(torsion.robots.urdf_path(name))
    gc = s.get_generalized_coordinate()
    if name == "quadruped":
        gc[2] = 0.33
        gc[7:] = torsion.robots.QUADRUPED_STAND
    s.set_generalized_coordinate(gc)
    rng = np.random.default_rng(7)
    s.set_generalized_velocity(rng.uniform(-0.5, 0.5, s.get_dof()))
    s.set_pd_gains(np.full(s.get_dof(), 50.0), np.full(s.get_dof(), 1.0))
    s.set_pd_target(gc, np.zeros(s.get_dof()))
    for k in range(20):
        w.integrate(10)
        out += [s.get_generalized_coordinate(), s.get_generalized_velocity()]
    out += [s.get_mass_matrix().ravel(), s.get_nonlinearities(np.array([0.0, 0.0, -9.81])),
            np.array([float(w.state_hash() % (1 << 52))])]
np.save(sys.argv[1], np.concatenate([np.ravel(a) for a in out]))
"""


def test_avx2_and_baseline_builds_give_the_same_bits(tmp_path: Path):
    a, b = run_both_builds(_RUN, tmp_path)
    assert a.size > 1000 and np.all(np.isfinite(a))
    assert a.tobytes() == b.tobytes()
