"""The robot-on-a-ground path of detect_collisions (one robot without self-collision and a
ground: pairs listed without boxes, links far above the plane skipped from their pose) against
the general path (boxes and broad phase for every body), which the same scene takes once a far,
unrelated static body joins it: the robot's motion and contacts must be bitwise the same."""

import numpy as np
import pytest

import torsion


def _robot_world(urdf, extra_body):
    w = torsion.World()
    w.set_time_step(0.001)
    w.add_ground()
    q = w.add_articulated_system(urdf)
    gc = q.get_generalized_coordinate()
    gc[2] = 0.36
    gc[3:7] = [0.995, 0.05, 0.08, 0.0]  # tilted: the legs land one after another
    gc[3:7] /= np.linalg.norm(gc[3:7])
    gc[7:] = torsion.robots.QUADRUPED_STAND
    q.set_generalized_coordinate(gc)
    n = q.get_dof()
    q.set_pd_gains(np.full(n, 50.0), np.full(n, 1.0))
    q.set_pd_target(gc, np.zeros(n))
    if extra_body:
        s = w.add_sphere(0.1, 1.0)
        s.set_body_type(torsion.BodyType.STATIC)
        s.set_position([50.0, 50.0, 5.0])
    return w, q


URDFS = [torsion.robots.urdf_path("quadruped")]
try:
    import pybullet_data  # noqa: E402

    URDFS.append(pybullet_data.getDataPath() + "/a1/a1.urdf")
except ImportError:  # pragma: no cover - the A1 case needs pybullet_data
    pass


@pytest.mark.parametrize("urdf", URDFS)
def test_robot_ground_path_matches_general_path(urdf):
    fast, qf = _robot_world(urdf, extra_body=False)
    general, qg = _robot_world(urdf, extra_body=True)
    touched = 0
    for _ in range(30):
        fast.integrate(10)
        general.integrate(10)
        np.testing.assert_array_equal(qf.get_generalized_coordinate(),
                                      qg.get_generalized_coordinate())
        np.testing.assert_array_equal(qf.get_generalized_velocity(),
                                      qg.get_generalized_velocity())
        cf, cg = qf.get_contacts(), qg.get_contacts()
        assert len(cf) == len(cg)
        for name in ("position", "normal", "depth", "impulse", "local_body_index"):
            np.testing.assert_array_equal(cf[name], cg[name])
        touched = max(touched, len(cf))
    # the robot landed and stands on its feet (the comparison covered contacts)
    assert touched >= 3
    assert qf.get_generalized_coordinate()[2] > 0.2
