"""Tendon armature (world/tendons.hpp, stage_tendon_forces): the step's mass matrix is
M + armature J^T J, as MuJoCo's (mj_tendonArmature); qacc compared with MuJoCo's on one model."""

import math

import numpy as np
import pytest

import torsion

from .test_tendons import CHAIN_MJCF, CHAIN_URDF, ONE, coords

G = 9.81

# the chain of test_tendons with gravity, its wrapping tendon, a second spatial tendon through
# sites (MuJoCo refuses armature on a tendon with wrap geoms) with a pulley, given an armature,
# and a fixed tendon (with its own armature) over two of the joints that the spatial one also
# moves
ARMATURE_MJCF = CHAIN_MJCF.replace('<option gravity="0 0 0"/>', f'<option gravity="0 0 -{G}"/>') \
    .replace("</tendon>", """  <spatial name="u" armature="0.7">
      <site site="s0"/>
      <site site="s1"/>
      <site site="s2"/>
      <site site="s3"/>
      <pulley divisor="2"/>
      <site site="p0"/>
      <site site="p3"/>
    </spatial>
    <fixed name="f" armature="1.3">
      <joint joint="j1" coef="0.6"/>
      <joint joint="j2" coef="-1.1"/>
    </fixed>
  </tendon>""")

CONFIGS = [[0.0, 0.0, 0.0], [0.3, 0.4, 0.1], [-0.2, 0.5, -0.3], [0.5, -0.3, 0.5],
           [0.1, 0.6, 0.2]]


@pytest.fixture
def chain_file(tmp_path):
    p = tmp_path / "chain3.urdf"
    p.write_text(CHAIN_URDF)
    return str(p)


def torsion_chain(chain_file, spatial_armature, fixed_armature):
    w = torsion.World()
    w.set_time_step(1e-3)
    w.set_gravity([0, 0, -G])
    robot = w.add_articulated_system(chain_file, fixed_base=True)
    b = {n: robot.get_body_index(n) for n in ("base", "l1", "l2", "l3")}
    path = [
        ("site", robot, b["base"], [0.05, 0.02, 0.0]),
        ("site", robot, b["l1"], [0.3, 0.01, 0.03]),
        ("sphere", robot, b["l2"], [0, 0, 0], 0.06, [0, 0, 0.1]),
        ("site", robot, b["l2"], [0.3, -0.01, 0.03]),
        ("cylinder", robot, b["l3"], [0.2, 0, 0], [0, 0, 1], 0.04, [0.2, -0.1, 0]),
        ("site", robot, b["l3"], [0.4, 0.01, -0.02]),
        ("pulley", 2.0),
        ("site", robot, b["base"], [-0.1, 0.05, 0.02]),
        ("site", robot, b["l3"], [0.3, 0.05, 0.05]),
    ]
    w.add_spatial_tendon("t", path)
    sites = [e for e in path if e[0] != "sphere" and e[0] != "cylinder"]
    ts = w.add_spatial_tendon("u", sites, armature=spatial_armature)
    tf = w.add_fixed_tendon("f", [(robot, "j1", 0.6), (robot, "j2", -1.1)],
                            armature=fixed_armature)
    return w, robot, ts, tf


def torsion_qacc(w, robot, q):
    robot.set_generalized_coordinate(q)
    robot.set_generalized_velocity([0.0, 0.0, 0.0])
    w.integrate()
    return np.asarray(robot.get_generalized_velocity()) / w.get_time_step()


def test_qacc_matches_mujoco_with_tendon_armature(chain_file):
    mujoco = pytest.importorskip("mujoco")
    model = mujoco.MjModel.from_xml_string(ARMATURE_MJCF)
    data = mujoco.MjData(model)
    assert list(model.tendon_armature) == [0.0, 0.7, 1.3]
    bare = mujoco.MjModel.from_xml_string(ARMATURE_MJCF)
    bare.tendon_armature[:] = 0.0
    bare_data = mujoco.MjData(bare)
    w, robot, ts, tf = torsion_chain(chain_file, 0.7, 1.3)
    assert ts.get_armature() == 0.7 and tf.get_armature() == 1.3
    w0, robot0, _, _ = torsion_chain(chain_file, 0.0, 0.0)
    changed = 0.0
    for q in CONFIGS:
        data.qpos[:] = q
        data.qvel[:] = 0.0
        mujoco.mj_forward(model, data)
        bare_data.qpos[:] = q
        mujoco.mj_forward(bare, bare_data)
        got = torsion_qacc(w, robot, q)
        np.testing.assert_allclose(got, data.qacc, rtol=1e-9, atol=1e-9, err_msg=str(q))
        np.testing.assert_allclose(torsion_qacc(w0, robot0, q), bare_data.qacc, rtol=1e-9,
                                   atol=1e-9, err_msg=str(q))
        changed = max(changed, float(np.max(np.abs(data.qacc - bare_data.qacc))))
    assert changed > 0.5  # the armature matters in these configurations


def test_armature_slows_a_spring_as_added_inertia(tmp_path):
    # one hinge, inertia I about it, tendon L = c q with stiffness k and armature a:
    # (I + a c^2) q'' = -k c^2 q, period 2 pi sqrt((I + a c^2) / (k c^2))
    p = tmp_path / "one.urdf"
    p.write_text(ONE)
    m, r, iyy, c, k, a, q0, dt = 2.0, 0.5, 1e-2, 0.8, 30.0, 0.9, 0.2, 1e-4
    inertia = m * r * r + iyy + a * c * c
    w = torsion.World()
    w.set_time_step(dt)
    w.set_gravity([0, 0, 0])
    robot = w.add_articulated_system(str(p), fixed_base=True)
    robot.set_generalized_coordinate([q0])
    t = w.add_fixed_tendon("spring", [(robot, "j1", c)], stiffness=k, spring_length=0.0,
                           armature=a)
    period = 2 * math.pi * math.sqrt(inertia / (k * c * c))
    crossings, last, n = [], q0, 0
    energy0 = 0.5 * k * (c * q0) ** 2
    worst = 0.0
    while len(crossings) < 3 and n < 100000:
        w.integrate()
        n += 1
        q, u = coords(robot)[0], robot.get_generalized_velocity()[0]
        worst = max(worst, abs(0.5 * inertia * u * u + 0.5 * k * (c * q) ** 2 - energy0))
        if last > 0.0 >= q:
            crossings.append(n * dt)
        last = q
    assert len(crossings) == 3
    assert (crossings[2] - crossings[0]) / 2 == pytest.approx(period, rel=2e-3)
    # the energy with the armature's kinetic term, 1/2 (I + a c^2) u^2, is kept but for the
    # implicit spring's loss, (w dt)^2 per step (0.6 % over these 1.5 periods; leaving out the
    # armature's term would be off by a third)
    assert worst < 1e-2 * energy0
    assert t.get_spring_force() == pytest.approx(-k * c * coords(robot)[0], rel=5e-2, abs=1e-3)


def test_armature_is_state_and_checked(chain_file):
    w, robot, ts, tf = torsion_chain(chain_file, 0.7, 0.0)
    tf.set_properties(armature=2.0)
    assert tf.get_armature() == 2.0
    tf.set_properties(stiffness=1.0)
    assert tf.get_armature() == 2.0  # unchanged when not given
    with pytest.raises(ValueError, match="armature"):
        tf.set_properties(armature=-1.0)
    with pytest.raises(ValueError, match="armature"):
        w.add_fixed_tendon("bad", [(robot, "j3", 1.0)], armature=float("nan"))
    with pytest.raises(TypeError, match="armature"):
        tf.set_properties(armature="heavy")
    # a checkpoint restores it, and the state hash sees it
    cp = w.capture_checkpoint()
    h = w.state_hash()
    tf.set_properties(armature=3.0)
    assert w.state_hash() != h
    w.restore_checkpoint(cp)
    assert tf.get_armature() == 2.0 and w.state_hash() == h
    w2, _, _, tf2 = torsion_chain(chain_file, 0.7, 0.0)
    w2.restore_checkpoint(torsion.Checkpoint.from_bytes(cp.to_bytes()))
    assert tf2.get_armature() == 2.0


VELOCITIES = [[1.5, -2.0, 0.7], [-0.8, 1.1, 2.4], [2.5, 0.3, -1.9], [0.4, -1.7, -0.6],
              [-2.2, 2.0, 1.0]]


def test_qacc_matches_mujoco_moving_with_the_velocity_product_bias(chain_file):
    # a moving chain: MuJoCo adds J^T armature (dJ/dt qvel) of the spatial tendon to its bias
    # forces (mj_tendonBias; zero for the fixed tendon). torsion's step takes the Coriolis terms
    # at a predicted midpoint velocity (articulated_step.cpp), so (u+ - u) / dt differs from qacc
    # by O(dt): Richardson's extrapolation of two steps, 2 f(h / 2) - f(h), removes that term
    # and leaves O(h^2) (1e-12 here) and round-off (~1e-10)
    mujoco = pytest.importorskip("mujoco")
    model = mujoco.MjModel.from_xml_string(ARMATURE_MJCF)
    data = mujoco.MjData(model)
    w, robot, ts, tf = torsion_chain(chain_file, 0.7, 1.3)
    bias_part = 0.0
    for q, u in zip(CONFIGS, VELOCITIES):
        data.qpos[:] = q
        data.qvel[:] = u
        mujoco.mj_forward(model, data)
        # the size of the armature's velocity-product term in this qacc, (M + a J^T J)^-1 J^T a
        # (dJ/dt) u, with (dJ/dt) u by central differences of the Jacobian along u
        js = []
        for sign in (1.0, -1.0):
            robot.set_generalized_coordinate(np.asarray(q) + sign * 1e-6 * np.asarray(u))
            js.append(np.asarray(ts.get_jacobian()))
        robot.set_generalized_coordinate(q)
        jt, jf = np.asarray(ts.get_jacobian()), np.asarray(tf.get_jacobian())
        m = np.asarray(robot.get_mass_matrix()) + 0.7 * np.outer(jt, jt) + 1.3 * np.outer(jf, jf)
        dot = float((js[0] - js[1]) @ u / 2e-6)
        bias_part = max(bias_part, float(np.abs(np.linalg.solve(m, jt * 0.7 * dot)).max()))
        f = {}
        for h in (2e-6, 1e-6):
            w.set_time_step(h)
            robot.set_generalized_coordinate(q)
            robot.set_generalized_velocity(u)
            w.integrate()
            f[h] = (np.asarray(robot.get_generalized_velocity()) - u) / h
        got = 2.0 * f[1e-6] - f[2e-6]
        np.testing.assert_allclose(got, data.qacc, rtol=1e-9, atol=1e-9, err_msg=str((q, u)))
    assert bias_part > 0.1  # leaving it out would fail the comparison
