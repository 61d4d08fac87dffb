"""The elastic solid's sweeps, four graph-coloured tetrahedra at a time (cpp/deformable/lanes.hpp).

- The AVX2 build of the sweeps and the baseline (SSE2) build give bitwise the same trajectory
  (TORSION_NO_AVX2 picks the baseline; on a CPU without AVX2 both runs take the baseline).
- Partly filled groups (a colour of fewer than four tetrahedra: one, two, five) move only their
  own tetrahedra: a free-falling solid keeps its rest shape, as free fall's exact solution.
"""

from pathlib import Path

import numpy as np

import torsion
from torsion.deformable import box_tetrahedra

from ..avx2 import run_both_builds

_RUN = r"""
import sys
import numpy as np
import torsion
from torsion.deformable import box_tetrahedra
v, t = box_tetrahedra(4, 3, 2, 0.2, 0.15, 0.1, origin=(-0.1, -0.075, 0.02))
w = torsion.World()
w.set_time_step(1e-3)
w.add_ground()
mat = torsion.DeformableMaterial(density=500.0, youngs_modulus=1e5, poisson_ratio=0.3)
s = w.add_deformable_volume(v, t, material=mat)
w.integrate(300)
np.save(sys.argv[1], np.concatenate([s.get_positions().ravel(), s.get_velocities().ravel(),
                                     [s.get_elastic_energy()]]))
"""


def test_avx2_and_baseline_sweeps_give_the_same_bits(tmp_path: Path):
    a, b = run_both_builds(_RUN, tmp_path)
    assert np.all(np.isfinite(a))
    # the block fell 20 mm onto the ground and is pressed against it: not a trivial state
    z = a[: a.size // 2].reshape(-1, 3)[:, 2]
    assert z.min() < 0.006 and a[-1] > 0.0
    assert a.tobytes() == b.tobytes()


def _free_fall(v, t, steps=200, dt=1e-3):
    w = torsion.World()
    w.set_time_step(dt)
    mat = torsion.DeformableMaterial(density=500.0, youngs_modulus=1e5, poisson_ratio=0.3)
    s = w.add_deformable_volume(v, t, material=mat)
    w.integrate(steps)
    return s.get_positions()


def _check_free_fall(v, t, steps=200, dt=1e-3):
    x = _free_fall(v, t, steps, dt)
    # symplectic Euler's drop after n steps of h: g h^2 n (n + 1) / 2, the same for every vertex
    drop = 9.81 * dt * dt * steps * (steps + 1) / 2.0
    expected = v + np.array([0.0, 0.0, -drop])
    assert np.abs(x - expected).max() < 1e-9


def test_single_tetrahedron_falls_without_deforming():
    v = np.array([[0.0, 0.0, 1.0], [0.1, 0.0, 1.0], [0.0, 0.1, 1.0], [0.0, 0.0, 1.1]])
    _check_free_fall(v, np.array([[0, 1, 2, 3]]))


def test_two_tetrahedra_sharing_a_face_fall_without_deforming():
    v = np.array([[0.0, 0.0, 1.0], [0.1, 0.0, 1.0], [0.0, 0.1, 1.0], [0.0, 0.0, 1.1],
                  [0.1, 0.1, 1.1]])
    # (1, 2, 3) shared; the second one ordered right-handed
    _check_free_fall(v, np.array([[0, 1, 2, 3], [1, 4, 2, 3]]))


def test_box_of_odd_colour_sizes_falls_without_deforming():
    v, t = box_tetrahedra(3, 1, 1, 0.3, 0.1, 0.1, origin=(0.0, 0.0, 1.0))
    assert len(t) % 4 != 0
    _check_free_fall(v, t)
