"""Issue 30's quality criteria for a pile of cubes at the default settings.

The 100-cube pile of torsion.bench.bench_contact (0.1 m, 1 kg cubes dropped from a jittered grid
at 0.3 to 1.1 m, dt = 1 ms, friction 0.8), run for 3 s with the default solver and contact
settings, the scene whose speed the benchmark reports against MuJoCo: after the first contact no
contact is ever deeper than 1 mm, at 3 s no body moves faster than 1 mm/s, and no body rises
faster than it fell (popping). pile_quality is the benchmark's own measure, so the test and the
benchmark's quality report check the same numbers.
"""

import numpy as np

from torsion.bench.bench_contact import make_torsion, meets_quality, pile_quality


def test_default_pile_meets_the_quality_criteria():
    q = pile_quality(make_torsion(100), seconds=3.0)
    assert q["max_penetration_m"] <= 1e-3, q
    assert q["max_speed_end"] < 1e-3, q
    assert q["popping"] < 1.0, q
    # the solver residual is reported (m/s) and finite; the pile had contacts
    assert np.isfinite(q["mean_residual"]) and q["mean_residual"] > 0.0, q
    assert meets_quality(q)


def one_box_probes(z, speed=0.0):
    """A 0.1 m cube at height z (m) on the ground, moving up at `speed` (m/s), position pass
    off: the engine tuple pile_quality takes."""
    import torsion
    from torsion.bench.bench_contact import torsion_probes

    w = torsion.World()
    w.set_time_step(1e-3)
    w.add_ground(0.0)
    w.set_position_correction(0.0)
    b = w.add_box(0.1, 0.1, 0.1, 1.0)
    b.set_position([0.0, 0.0, z])
    b.set_velocity([0.0, 0.0, speed], [0.0, 0.0, 0.0])

    def residual():
        d = w.get_contact_solver_diagnostics()
        return float(d["error"]) if d["contacts"] else None

    return (*torsion_probes(w), lambda: np.array([b.get_linear_velocity()]), residual)


def test_quality_measure_sees_penetration():
    # a cube placed 2 mm into the ground stays there with the position pass off (ERP is off too)
    q = pile_quality(one_box_probes(0.048), seconds=0.2)
    assert 1.9e-3 < q["max_penetration_m"] < 2.1e-3, q
    assert not meets_quality(q)


def test_quality_measure_sees_motion_and_popping():
    # a cube resting on the ground, then thrown up at 1 m/s: it rises faster than it ever fell
    q = pile_quality(one_box_probes(0.05, speed=1.0), seconds=0.05)
    assert q["popping"] > 1.0, q
    assert q["max_speed_end"] > 0.5, q
    assert not meets_quality(q)
