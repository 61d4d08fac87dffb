"""The DEM's pair law, four contacts at a time (cpp/granular/pair_lanes.inc), built for AVX-512VL,
AVX2 and the baseline (SSE2) and picked at run time, gives the same bits in every build: a heap of
particles of two sizes and two materials (one with rolling resistance, one without), some fixed,
poured into a box onto a resting rigid box, so that the groups of four hold apart, touching,
sliding (Coulomb cap) and rolling-limited contacts and partly filled groups. Trajectories,
spins, contact statistics and the state hash must be equal byte for byte."""

from pathlib import Path

import numpy as np

from ..avx2 import run_avx2_without_avx512, run_both_builds

_RUN = r"""
import sys
import numpy as np
import torsion
rng = np.random.default_rng(3)
n = 600
grid = np.stack(np.meshgrid(np.arange(10), np.arange(10), np.arange(6), indexing="ij"), -1)
pos = grid.reshape(-1, 3)[:n] * 0.021 + [0.012, 0.012, 0.06]
pos += rng.uniform(-2e-3, 2e-3, size=pos.shape)
radii = np.where(np.arange(n) % 3 == 0, 0.008, 0.01)
sand = torsion.GranularMaterial(youngs_modulus=1e7, restitution=0.3, friction=0.5,
                                rolling_friction=0.1)
glass = torsion.GranularMaterial(youngs_modulus=5e6, restitution=0.8, friction=0.2)
w = torsion.World()
w.set_time_step(1e-3)
w.add_ground(0.0)
b = w.add_box(0.06, 0.06, 0.03, 0.3)
b.set_position([0.1, 0.1, 0.015])
g = w.add_granular_particles(pos, radii, sand)
g.set_box_container([0.0, 0.0, 0.0], [0.22, 0.22, 1.0])
g.set_wall_material(sand)
other = g.add_material(glass)
for i in range(0, n, 4):
    g.set_material_id(i, other)
for i in range(0, 30):
    g.set_fixed(i)
g.num_threads = 2
out = []
for k in range(6):
    w.integrate(50)
    st = g.get_stats()
    out += [g.get_positions(), g.get_velocities(), g.get_angular_velocities(),
            b.get_position(), np.array([st["contacts"], st["wall_contacts"], st["shape_contacts"],
                                        st["max_overlap"], float(w.state_hash() % (1 << 52))])]
np.save(sys.argv[1], np.concatenate([np.ravel(a) for a in out]))
"""


def test_every_build_of_the_pair_law_gives_the_same_bits(tmp_path: Path):
    a, b = run_both_builds(_RUN, tmp_path)
    c = run_avx2_without_avx512(_RUN, tmp_path)
    assert np.all(np.isfinite(a))
    stats = a[-5:]
    # the last sample is a heap at work: contacts between particles, with the walls and the box
    assert stats[0] > 300 and stats[1] > 50 and stats[2] > 0
    assert a.tobytes() == b.tobytes()
    assert c.tobytes() == b.tobytes()
