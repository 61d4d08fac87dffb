"""The contact pipeline's AVX2 kernels (core/cpu_dispatch.hpp: box-box and box-ground manifolds,
the rectangle clip, the manifold reduction, the contact problem build, the Delassus blocks, the
starting impulses, the warm-start store, the islands' Gauss-Seidel sweeps and the sliding
contact's root search) give the bits of their baseline (SSE2) builds: a
pile of boxes of three sizes dropped at random orientations onto the ground and each other,
with a sphere and a capsule among them, is stepped in two processes, one with TORSION_NO_AVX2,
and the poses, velocities, contact impulses and state hash must be equal byte for byte. On a
CPU without AVX2 both runs take the baseline and the test checks determinism across processes
only.
"""

from pathlib import Path

import numpy as np

from ..avx2 import run_both_builds

_RUN = r"""
import sys
import numpy as np
import torsion
w = torsion.World()
w.set_time_step(1e-3)
w.add_ground(0.0)
rng = np.random.default_rng(11)
bodies = []
for k in range(40):
    s = (0.1, 0.07, 0.12)[k % 3]
    b = w.add_box(s, s * 0.8, s * 1.1, 1.0 + 0.1 * k)
    b.set_position([rng.uniform(-0.2, 0.2), rng.uniform(-0.2, 0.2), 0.1 + 0.13 * k])
    q = rng.normal(size=4)
    b.set_orientation(q / np.linalg.norm(q))
    bodies.append(b)
bodies.append(w.add_sphere(0.05, 1.0))
bodies[-1].set_position([0.0, 0.0, 6.0])
bodies.append(w.add_capsule(0.04, 0.1, 1.0))
bodies[-1].set_position([0.05, 0.0, 6.3])
out = []
for k in range(15):
    w.integrate(60)
    for b in bodies:
        c = b.get_contacts()
        out += [b.get_position(), b.get_quaternion(), b.get_linear_velocity(),
                b.get_angular_velocity(), c["position"], c["normal"], c["depth"], c["impulse"],
                np.array([float(len(c))])]
out.append(np.array([float(w.state_hash() % (1 << 52))]))
np.save(sys.argv[1], np.concatenate([np.ravel(a) for a in out]))
"""


def test_avx2_and_baseline_contact_builds_give_the_same_bits(tmp_path: Path):
    a, b = run_both_builds(_RUN, tmp_path)
    assert a.size > 3000 and np.all(np.isfinite(a))
    assert a.tobytes() == b.tobytes()
