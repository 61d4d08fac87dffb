"""Fixed tendons and tendon couplings (world/tendons.hpp, docs/wires.md "Tendons")."""

import math

import numpy as np
import pytest

import torsion

# a two-link planar arm: revolute joints about y, each link a 0.5 m rod along x with a 1 kg point
# mass (plus a small inertia) at its end
ARM = """<?xml version="1.0"?>
<robot name="arm2">
  <link name="base"/>
  <link name="l1">
    <inertial><origin xyz="0.5 0 0"/><mass value="1"/>
      <inertia ixx="1e-3" iyy="1e-3" izz="1e-3" ixy="0" ixz="0" iyz="0"/></inertial>
  </link>
  <link name="l2">
    <inertial><origin xyz="0.5 0 0"/><mass value="1"/>
      <inertia ixx="1e-3" iyy="1e-3" izz="1e-3" ixy="0" ixz="0" iyz="0"/></inertial>
  </link>
  <joint name="j1" type="continuous"><parent link="base"/><child link="l1"/>
    <axis xyz="0 1 0"/></joint>
  <joint name="j2" type="continuous"><parent link="l1"/><child link="l2"/>
    <origin xyz="0.5 0 0"/><axis xyz="0 1 0"/></joint>
</robot>
"""

ONE = """<?xml version="1.0"?>
<robot name="arm1">
  <link name="base"/>
  <link name="l1">
    <inertial><origin xyz="0.5 0 0"/><mass value="2"/>
      <inertia ixx="1e-3" iyy="1e-2" izz="1e-3" ixy="0" ixz="0" iyz="0"/></inertial>
  </link>
  <joint name="j1" type="continuous"><parent link="base"/><child link="l1"/>
    <axis xyz="0 1 0"/></joint>
  <link name="l0"/>
  <joint name="fixed0" type="fixed"><parent link="base"/><child link="l0"/></joint>
</robot>
"""


@pytest.fixture
def arm_file(tmp_path):
    p = tmp_path / "arm2.urdf"
    p.write_text(ARM)
    return str(p)


@pytest.fixture
def one_file(tmp_path):
    p = tmp_path / "arm1.urdf"
    p.write_text(ONE)
    return str(p)


def coords(robot):
    return np.asarray(robot.get_generalized_coordinate())


def test_fixed_tendon_length_and_jacobian(arm_file):
    w = torsion.World()
    robot = w.add_articulated_system(arm_file, fixed_base=True)
    robot.set_generalized_coordinate([0.3, -0.7])
    robot.set_generalized_velocity([0.5, 2.0])
    t = w.add_fixed_tendon("t", [(robot, "j1", 2.0), (robot, "j2", -0.5)])
    assert t.get_length() == pytest.approx(2.0 * 0.3 - 0.5 * -0.7, abs=1e-15)
    assert t.get_velocity() == pytest.approx(2.0 * 0.5 - 0.5 * 2.0, abs=1e-15)
    np.testing.assert_allclose(t.get_jacobian(), [2.0, -0.5])
    assert t.get_spring_length() == pytest.approx(t.get_length())
    assert w.get_tendon("t") == t and w.get_tendons() == [t]
    assert t.get_joints()[1][1:] == ("j2", -0.5)


def test_limit_holds_the_sum_of_two_joints(arm_file):
    # the arm starts horizontal and falls under gravity; q1 + q2 (the tendon) would sweep past
    # 0.4 rad, the tendon's upper limit stops it there and holds it under the load
    def run(with_tendon):
        w = torsion.World()
        w.set_time_step(1e-3)
        robot = w.add_articulated_system(arm_file, fixed_base=True)
        robot.set_generalized_coordinate([0.0, 0.0])
        t = None
        if with_tendon:
            t = w.add_fixed_tendon("sum", [(robot, "j1", 1.0), (robot, "j2", 1.0)],
                                   limits=(-0.4, 0.4))
        top = 0.0
        for _ in range(3000):
            w.integrate()
            q = coords(robot)
            top = max(top, q[0] + q[1])
        return w, robot, t, top

    _, _, _, free_top = run(False)
    assert free_top > 1.0  # without the tendon the sum goes far past 0.4
    w, robot, t, top = run(True)
    q = coords(robot)
    assert top < 0.4 + 1e-6
    assert q[0] + q[1] == pytest.approx(0.4, abs=1e-6)
    assert t.get_length() == pytest.approx(0.4, abs=1e-6)
    assert t.get_limit_force() < 0.0  # the upper limit pulls the length down
    # the joints still swing (no damping), but only along the limit: the tendon's rate is zero
    u = robot.get_generalized_velocity()
    assert abs(u[0]) > 0.1 and abs(u[0] + u[1]) < 1e-6


def test_spring_and_damping_against_the_closed_form(one_file):
    # one joint, inertia I about it, no gravity; tendon L = c q with stiffness k, damping b:
    # I q'' = -c^2 k q - c^2 b q' (an underdamped oscillator)
    m, r, iyy, c, k, b, q0 = 2.0, 0.5, 1e-2, 0.8, 30.0, 0.4, 0.2
    inertia = m * r * r + iyy
    w0 = math.sqrt(c * c * k / inertia)
    zeta = c * c * b / (2.0 * math.sqrt(inertia * c * c * k))
    wd = w0 * math.sqrt(1.0 - zeta * zeta)
    dt = 1e-4
    w = torsion.World()
    w.set_time_step(dt)
    w.set_gravity([0, 0, 0])
    robot = w.add_articulated_system(one_file, fixed_base=True)
    robot.set_generalized_coordinate([q0])
    t = w.add_fixed_tendon("spring", [(robot, "j1", c)], stiffness=k, damping=b,
                           spring_length=0.0)
    worst = 0.0
    for n in range(1, 20001):  # 2 s, about 3 periods
        w.integrate()
        tt = n * dt
        exact = q0 * math.exp(-zeta * w0 * tt) * (
            math.cos(wd * tt) + zeta * w0 / wd * math.sin(wd * tt))
        worst = max(worst, abs(coords(robot)[0] - exact))
    assert worst < 3e-3 * q0  # O(dt) of the one-step scheme (2.2e-3 here)
    # the force reported is the spring-damper's along the tendon
    q, u = coords(robot)[0], robot.get_generalized_velocity()[0]
    assert t.get_spring_force() == pytest.approx(-k * c * q - b * c * u, rel=2e-2, abs=1e-4)


def test_friction_holds_below_and_slips_above(one_file):
    # gravity's torque at the horizontal: m g r = 2 * 9.81 * 0.5 = 9.81 N m; tendon L = q
    def drop(friction):
        w = torsion.World()
        robot = w.add_articulated_system(one_file, fixed_base=True)
        w.add_fixed_tendon("f", [(robot, "j1", 1.0)], friction=friction)
        w.integrate(200)
        return coords(robot)[0]

    assert abs(drop(12.0)) < 1e-9
    assert drop(5.0) > 0.05  # about +y: gravity turns the arm's tip down, q grows


def test_bad_input_is_refused(arm_file, one_file):
    w = torsion.World()
    robot = w.add_articulated_system(arm_file, fixed_base=True)
    other = w.add_articulated_system(one_file, fixed_base=True)
    ball = w.add_sphere(0.1, 1.0)
    with pytest.raises(ValueError, match="no joint named 'nope'"):
        w.add_fixed_tendon("t", [(robot, "nope", 1.0)])
    with pytest.raises(ValueError, match="every coefficient is zero"):
        w.add_fixed_tendon("t", [(robot, "j1", 0.0), (robot, "j2", 0.0)])
    with pytest.raises(ValueError, match="at least one"):
        w.add_fixed_tendon("t", [])
    # two systems: a row with two sides; a third is refused
    both = w.add_fixed_tendon("both", [(robot, "j1", 1.0), (other, "j1", 1.0)])
    third = w.add_articulated_system(one_file, fixed_base=True)
    with pytest.raises(ValueError, match="at most two articulated systems"):
        w.add_fixed_tendon("t", [(robot, "j1", 1.0), (other, "j1", 1.0), (third, "j1", 1.0)])
    w.remove_tendon(both)
    with pytest.raises(ValueError, match="not an articulated system"):
        w.add_fixed_tendon("t", [(ball, "j1", 1.0)])
    with pytest.raises(ValueError, match="no joint named 'fixed0'"):  # merged into its parent
        w.add_fixed_tendon("t", [(other, "fixed0", 1.0)])
    with pytest.raises(ValueError, match="named twice"):
        w.add_fixed_tendon("t", [(robot, "j1", 1.0), (robot, "j1", 1.0)])
    with pytest.raises(ValueError, match="coefficient must be finite"):
        w.add_fixed_tendon("t", [(robot, "j1", float("nan"))])
    with pytest.raises(ValueError, match="stiffness"):
        w.add_fixed_tendon("t", [(robot, "j1", 1.0)], stiffness=-1.0)
    with pytest.raises(ValueError, match="damping"):
        w.add_fixed_tendon("t", [(robot, "j1", 1.0)], damping=float("inf"))
    with pytest.raises(ValueError, match="lower must be <= upper"):
        w.add_fixed_tendon("t", [(robot, "j1", 1.0)], limits=(0.5, -0.5))
    with pytest.raises(ValueError, match="name must not be empty"):
        w.add_fixed_tendon("", [(robot, "j1", 1.0)])
    with pytest.raises(TypeError):
        w.add_fixed_tendon("t", [(robot, "j1")])
    with pytest.raises(TypeError):
        w.add_fixed_tendon("t", [(robot, 3, 1.0)])
    with pytest.raises(TypeError):
        w.add_fixed_tendon("t", [(robot, "j1", 1.0)], limits=0.3)
    t = w.add_fixed_tendon("t", [(robot, "j1", 1.0)])
    with pytest.raises(ValueError, match="already exists"):
        w.add_fixed_tendon("t", [(robot, "j2", 1.0)])
    with pytest.raises(ValueError, match="erp"):
        w.add_tendon_coupling("c", t, None, [0.0], erp=0.0)
    with pytest.raises(ValueError, match="compliance"):
        w.add_tendon_coupling("c", t, None, [0.0], compliance=-1.0)
    with pytest.raises(ValueError, match="at least one coefficient"):
        w.add_tendon_coupling("c", t, None, [])
    with pytest.raises(ValueError, match="another tendon"):
        w.add_tendon_coupling("c", t, t, [0.0, 1.0])
    assert len(w.get_tendons()) == 1 and w.get_tendon_couplings() == []


def test_ids_removal_and_handles(arm_file):
    w = torsion.World()
    robot = w.add_articulated_system(arm_file, fixed_base=True)
    a = w.add_fixed_tendon("a", [(robot, "j1", 1.0)])
    b = w.add_fixed_tendon("b", [(robot, "j2", 1.0)])
    c = w.add_fixed_tendon("c", [(robot, "j1", 1.0), (robot, "j2", 1.0)])
    cp = w.add_tendon_coupling("ab", a, b, [0.0, 1.0])
    assert [t.get_id() for t in w.get_tendons()] == [0, 1, 2]
    w.remove_tendon(a)  # and its coupling; c takes a's index
    assert not a.is_alive() and not cp.is_alive()
    with pytest.raises(torsion.RemovedObjectError):
        a.get_length()
    with pytest.raises(torsion.RemovedObjectError):
        cp.get_error()
    assert w.get_tendons() == [c, b] and c.get_index_in_world() == 0
    assert w.get_tendon_couplings() == []
    d = w.add_fixed_tendon("d", [(robot, "j1", 1.0)])
    assert d.get_id() == 3  # ids are not reused
    cp2 = w.add_tendon_coupling("held", d)
    w.remove_tendon_coupling(cp2)
    assert not cp2.is_alive() and d.is_alive()
    w.remove_object(robot)  # its tendons go with it
    assert w.get_tendons() == [] and not b.is_alive()


def test_coupling_holds_its_polynomial(arm_file):
    # q1 = 0.1 + 0.5 q2 + 0.3 q2^2 while the arm falls and swings under gravity
    w = torsion.World()
    robot = w.add_articulated_system(arm_file, fixed_base=True)
    q2 = -0.3
    robot.set_generalized_coordinate([0.1 + 0.5 * q2 + 0.3 * q2 * q2, q2])
    t1 = w.add_fixed_tendon("t1", [(robot, "j1", 1.0)])
    t2 = w.add_fixed_tendon("t2", [(robot, "j2", 1.0)])
    cp = w.add_tendon_coupling("poly", t1, t2, [0.1, 0.5, 0.3])
    assert abs(cp.get_error()) < 1e-15
    worst, moved = 0.0, 0.0
    for _ in range(2000):
        w.integrate()
        q = coords(robot)
        worst = max(worst, abs(q[0] - (0.1 + 0.5 * q[1] + 0.3 * q[1] ** 2)))
        moved = max(moved, abs(q[1] - q2))
    assert moved > 0.5  # it really moves
    assert worst < 1e-3  # velocity-level row: drift O(dt^2 curvature), corrected by erp
    assert abs(cp.get_error()) < 1e-4
    assert cp.get_force() != 0.0


def test_coupling_holds_one_length(arm_file):
    w = torsion.World()
    robot = w.add_articulated_system(arm_file, fixed_base=True)
    robot.set_generalized_coordinate([0.1, 0.1])
    t = w.add_fixed_tendon("sum", [(robot, "j1", 1.0), (robot, "j2", 1.0)])
    w.add_tendon_coupling("held", t, None, [0.2])
    for _ in range(1500):
        w.integrate()
        assert abs(t.get_length() - 0.2) < 1e-6
    assert abs(coords(robot)[0] - 0.1) > 0.1  # the joints move, their sum does not


def test_compliant_coupling_is_a_spring(one_file):
    # compliance 1/k on L = q, no gravity: oscillates at sqrt(k / I)
    w = torsion.World()
    w.set_time_step(1e-4)
    w.set_gravity([0, 0, 0])
    robot = w.add_articulated_system(one_file, fixed_base=True)
    robot.set_generalized_coordinate([0.1])
    t = w.add_fixed_tendon("t", [(robot, "j1", 1.0)])
    k = 20.0
    w.add_tendon_coupling("soft", t, None, [0.0], compliance=1.0 / k)
    inertia = 2.0 * 0.25 + 1e-2
    period = 2 * math.pi / math.sqrt(k / inertia)
    crossings, last, n = [], coords(robot)[0], 0
    while len(crossings) < 3 and n < 100000:
        w.integrate()
        n += 1
        q = coords(robot)[0]
        if last > 0.0 >= q:
            crossings.append(n * 1e-4)
        last = q
    assert len(crossings) == 3
    assert (crossings[2] - crossings[0]) / 2 == pytest.approx(period, rel=5e-3)


# --- spatial tendons: length and Jacobian against MuJoCo's ten_length / ten_J ---

CHAIN_URDF = """<?xml version="1.0"?>
<robot name="chain3">
  <link name="base"/>
  <link name="l1"><inertial><origin xyz="0.25 0 0"/><mass value="1"/>
    <inertia ixx="1e-2" iyy="1e-2" izz="1e-2" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="l2"><inertial><origin xyz="0.25 0 0"/><mass value="1"/>
    <inertia ixx="1e-2" iyy="1e-2" izz="1e-2" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="l3"><inertial><origin xyz="0.25 0 0"/><mass value="1"/>
    <inertia ixx="1e-2" iyy="1e-2" izz="1e-2" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="j1" type="continuous"><parent link="base"/><child link="l1"/>
    <origin xyz="0 0 0.1"/><axis xyz="0 1 0"/></joint>
  <joint name="j2" type="continuous"><parent link="l1"/><child link="l2"/>
    <origin xyz="0.5 0 0"/><axis xyz="0 1 0"/></joint>
  <joint name="j3" type="continuous"><parent link="l2"/><child link="l3"/>
    <origin xyz="0.5 0 0"/><axis xyz="0 0 1"/></joint>
</robot>
"""

# the same chain in MJCF, with the sites, wrap geoms (and their side sites) and the tendon
CHAIN_MJCF = """<mujoco>
  <option gravity="0 0 0"/>
  <default><geom contype="0" conaffinity="0"/></default>
  <worldbody>
    <site name="s0" pos="0.05 0.02 0.0"/>
    <site name="p0" pos="-0.1 0.05 0.02"/>
    <body name="l1" pos="0 0 0.1">
      <joint name="j1" type="hinge" axis="0 1 0"/>
      <inertial pos="0.25 0 0" mass="1" diaginertia="1e-2 1e-2 1e-2"/>
      <site name="s1" pos="0.3 0.01 0.03"/>
      <body name="l2" pos="0.5 0 0">
        <joint name="j2" type="hinge" axis="0 1 0"/>
        <inertial pos="0.25 0 0" mass="1" diaginertia="1e-2 1e-2 1e-2"/>
        <geom name="ball" type="sphere" size="0.06" pos="0 0 0"/>
        <site name="side_ball" pos="0 0 0.1"/>
        <site name="s2" pos="0.3 -0.01 0.03"/>
        <body name="l3" pos="0.5 0 0">
          <joint name="j3" type="hinge" axis="0 0 1"/>
          <inertial pos="0.25 0 0" mass="1" diaginertia="1e-2 1e-2 1e-2"/>
          <geom name="drum" type="cylinder" size="0.04 0.05" pos="0.2 0 0"/>
          <site name="side_drum" pos="0.2 -0.1 0"/>
          <site name="s3" pos="0.4 0.01 -0.02"/>
          <site name="p3" pos="0.3 0.05 0.05"/>
        </body>
      </body>
    </body>
  </worldbody>
  <tendon>
    <spatial name="t">
      <site site="s0"/>
      <site site="s1"/>
      <geom geom="ball" sidesite="side_ball"/>
      <site site="s2"/>
      <geom geom="drum" sidesite="side_drum"/>
      <site site="s3"/>
      <pulley divisor="2"/>
      <site site="p0"/>
      <site site="p3"/>
    </spatial>
  </tendon>
</mujoco>
"""


@pytest.fixture
def chain_file(tmp_path):
    p = tmp_path / "chain3.urdf"
    p.write_text(CHAIN_URDF)
    return str(p)


def torsion_chain(chain_file):
    w = torsion.World()
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
    return w, robot, w.add_spatial_tendon("t", path)


def mujoco_length_and_jacobian(model, data, q):
    import mujoco

    data.qpos[:] = q
    mujoco.mj_forward(model, data)
    jac = np.zeros(model.nv)
    adr, nnz = model.ten_J_rowadr[0], model.ten_J_rownnz[0]
    for k in range(nnz):
        jac[model.ten_J_colind[adr + k]] = data.ten_J[adr + k]
    return float(data.ten_length[0]), jac, int(data.ten_wrapnum[0])


# (more configurations, other side sites and MuJoCo's side-site rules: test_tendon_wrap_sides.py)
CONFIGS = [
    [-0.2, 1.0, -0.3],  # a segment clear of the ball, wrapped towards the side site
    [0.0, 0.0, 0.0],
    [0.3, 0.4, 0.1],
    [-0.2, 0.5, -0.3],
    [0.5, -0.3, 0.5],   # the drum clear of the path
    [0.1, -1.0, 0.0],   # the elbow bent up: the straight path clears the ball on its side
    [0.0, -0.5, -0.4],
    [0.2, 0.2, -0.6],
    [0.1, 0.6, 0.2],
]


def test_spatial_tendon_matches_mujoco(chain_file):
    mujoco = pytest.importorskip("mujoco")
    model = mujoco.MjModel.from_xml_string(CHAIN_MJCF)
    data = mujoco.MjData(model)
    w, robot, t = torsion_chain(chain_file)
    assert t.get_kind() == "spatial"
    wraps = set()
    for q in CONFIGS:
        robot.set_generalized_coordinate(q)
        length, jac, wrapnum = mujoco_length_and_jacobian(model, data, q)
        wraps.add(wrapnum)
        assert t.get_length() == pytest.approx(length, abs=1e-9), q
        np.testing.assert_allclose(t.get_jacobian(), jac, atol=1e-9, err_msg=str(q))
    # the configurations exercise wrapped and unwrapped obstacles (MuJoCo's path point count)
    assert len(wraps) >= 2


def test_spatial_tendon_jacobian_against_finite_differences(chain_file):
    w, robot, t = torsion_chain(chain_file)
    h = 1e-6
    for q in CONFIGS:
        q = np.asarray(q, dtype=float)
        robot.set_generalized_coordinate(q)
        jac = t.get_jacobian()
        fd = np.zeros(3)
        for k in range(3):
            dq = np.zeros(3)
            dq[k] = h
            robot.set_generalized_coordinate(q + dq)
            lp = t.get_length()
            robot.set_generalized_coordinate(q - dq)
            lm = t.get_length()
            fd[k] = (lp - lm) / (2 * h)
        np.testing.assert_allclose(jac, fd, atol=1e-8, err_msg=str(q))
        robot.set_generalized_coordinate(q)
        robot.set_generalized_velocity([0.3, -0.2, 0.5])
        assert t.get_velocity() == pytest.approx(jac @ [0.3, -0.2, 0.5], abs=1e-12)


def test_spatial_tendon_limit_and_actuator(chain_file):
    # a cable pulled (actuator force < 0) shortens until its lower limit holds it
    w, robot, t = torsion_chain(chain_file)
    w.set_gravity([0, 0, 0])
    robot.set_generalized_coordinate([0.2, 0.3, 0.1])
    l0 = t.get_length()
    lower = l0 - 0.05
    t.set_properties(limits=(lower, math.inf))
    t.set_actuator_force(-20.0)
    w.integrate(1500)
    assert t.get_length() == pytest.approx(lower, abs=1e-5)
    assert t.get_limit_force() == pytest.approx(20.0, rel=1e-3)


def test_spatial_path_rules(chain_file):
    w, robot, _ = torsion_chain(chain_file)
    with pytest.raises(ValueError, match="between two sites"):
        w.add_spatial_tendon("a", [("site", robot, 1, [0, 0, 0]),
                                   ("sphere", robot, 2, [0, 0, 0], 0.1),
                                   ("sphere", robot, 2, [0, 0, 0], 0.1),
                                   ("site", robot, 3, [0, 0, 0])])
    with pytest.raises(ValueError, match="start and end at a site|between two sites"):
        w.add_spatial_tendon("a", [("site", robot, 1, [0, 0, 0]),
                                   ("sphere", robot, 2, [0, 0, 0], 0.1)])
    with pytest.raises(ValueError, match="radius"):
        w.add_spatial_tendon("a", [("site", robot, 1, [0, 0, 0]),
                                   ("sphere", robot, 2, [0, 0, 0], -0.1),
                                   ("site", robot, 3, [0, 0, 0])])
    with pytest.raises(ValueError, match="divisor"):
        w.add_spatial_tendon("a", [("site", robot, 1, [0, 0, 0]), ("site", robot, 2, [0, 0, 0]),
                                   ("pulley", 0.0),
                                   ("site", robot, 1, [0, 0, 0]), ("site", robot, 3, [0, 0, 0])])
    with pytest.raises(ValueError, match="fewer than two sites"):
        w.add_spatial_tendon("a", [("site", robot, 1, [0, 0, 0]), ("site", robot, 2, [0, 0, 0]),
                                   ("pulley", 2.0), ("site", robot, 1, [0, 0, 0])])
    with pytest.raises(ValueError, match="local index"):
        w.add_spatial_tendon("a", [("site", robot, 1, [0, 0, 0]), ("site", robot, 9, [0, 0, 0])])
    with pytest.raises(ValueError, match="finite"):
        w.add_spatial_tendon("a", [("site", robot, 1, [0, 0, 0]),
                                   ("site", robot, 2, [0, float("nan"), 0])])
    ball = w.add_sphere(0.1, 1.0)
    ball.set_body_type(torsion.BodyType.KINEMATIC)
    with pytest.raises(ValueError, match="kinematic"):
        w.add_spatial_tendon("a", [("site", robot, 1, [0, 0, 0]), ("site", ball, 0, [0, 0, 0])])
    with pytest.raises(ValueError, match="'site', 'sphere'"):
        w.add_spatial_tendon("a", [("knot", robot, 1, [0, 0, 0]), ("site", robot, 2, [0, 0, 0])])
    assert [x.get_name() for x in w.get_tendons()] == ["t"]


# --- state: checkpoints, state hash, WorldBatch copies ---


def tendon_world(arm_file):
    w = torsion.World()
    robot = w.add_articulated_system(arm_file, fixed_base=True)
    robot.set_generalized_coordinate([0.2, -0.1])
    t1 = w.add_fixed_tendon("t1", [(robot, "j1", 1.0)], stiffness=3.0, damping=0.1)
    t2 = w.add_fixed_tendon("t2", [(robot, "j1", 1.0), (robot, "j2", 1.0)], limits=(-0.3, 0.3),
                            friction=0.05)
    w.add_tendon_coupling("c", t1, t2, [0.0, 0.5], compliance=0.01)
    return w, robot, t1, t2


def test_spring_dead_band_against_the_closed_form(one_file):
    # one joint, inertia I, no gravity; tendon L = c q, stiffness k, dead band [lo, hi] (MuJoCo's
    # springlength pair): released at rest above the band it swings harmonically (omega^2 =
    # k c^2 / I) outside the band and coasts at constant speed through it, period
    # 2 pi / omega + 2 (hi - lo) / (c |u|) with 1/2 I u^2 = 1/2 k (c q0 - hi)^2
    m, r, iyy, c, k, lo, hi, q0, dt = 2.0, 0.5, 1e-2, 0.8, 30.0, -0.05, 0.1, 0.3, 1e-4
    inertia = m * r * r + iyy
    speed = math.sqrt(k / inertia) * (c * q0 - hi)
    period = 2 * math.pi / math.sqrt(k * c * c / inertia) + 2 * (hi - lo) / (c * speed)
    w = torsion.World()
    w.set_time_step(dt)
    w.set_gravity([0, 0, 0])
    robot = w.add_articulated_system(one_file, fixed_base=True)
    robot.set_generalized_coordinate([q0])
    t = w.add_fixed_tendon("band", [(robot, "j1", c)], stiffness=k, spring_length=(lo, hi))
    assert t.get_spring_length() == (lo, hi)
    crossings, last, n, inside = [], q0, 0, []
    while len(crossings) < 3 and n < 100000:
        w.integrate()
        n += 1
        q, u = coords(robot)[0], robot.get_generalized_velocity()[0]
        if lo + 1e-3 < c * q < hi - 1e-3:
            inside.append(u)
            assert t.get_spring_force() == 0.0  # no force in the band
        if last > 0.0 >= q:
            crossings.append(n * dt)
        last = q
    assert len(crossings) == 3
    assert (crossings[2] - crossings[0]) / 2 == pytest.approx(period, rel=2e-3)
    # constant through the band (the implicit spring's loss, (omega dt)^2 per step, takes 0.4 %
    # of the speed over these passes)
    assert max(abs(v) for v in inside) - min(abs(v) for v in inside) < 1e-2 * speed
    assert min(abs(v) for v in inside) == pytest.approx(speed, rel=1e-2)
    # a single value is no band again; a band lower > upper is refused
    t.set_properties(spring_length=0.02)
    assert t.get_spring_length() == 0.02
    with pytest.raises(ValueError, match="lower <= upper"):
        t.set_properties(spring_length=(0.3, 0.1))
    with pytest.raises(TypeError, match="pair"):
        t.set_properties(spring_length=(0.1, 0.2, 0.3))
    # state: checkpoints and the hash see the band
    t.set_properties(spring_length=(lo, hi))
    cp = w.capture_checkpoint()
    h = w.state_hash()
    t.set_properties(spring_length=(lo, 0.2))
    assert w.state_hash() != h
    w.restore_checkpoint(cp)
    assert t.get_spring_length() == (lo, hi) and w.state_hash() == h


def test_checkpoint_and_state_hash(arm_file):
    w, robot, t1, t2 = tendon_world(arm_file)
    h0 = w.state_hash()
    t1.set_properties(stiffness=4.0)
    assert w.state_hash() != h0  # properties are state
    w.integrate(100)
    cp = w.capture_checkpoint()
    h = w.state_hash()
    w.integrate(300)
    after = (w.state_hash(), coords(robot).copy(), t2.get_limit_force())
    t1.set_properties(stiffness=9.0)
    w.restore_checkpoint(cp)
    assert w.state_hash() == h and t1.get_stiffness() == 4.0
    w.integrate(300)
    assert w.state_hash() == after[0]
    np.testing.assert_array_equal(coords(robot), after[1])
    assert t2.get_limit_force() == after[2]
    # the portable bytes, into a world built the same way
    w2, _, t1b, _ = tendon_world(arm_file)
    t1b.set_properties(stiffness=4.0)
    w2.restore_checkpoint(torsion.Checkpoint.from_bytes(cp.to_bytes()))
    assert w2.state_hash() == h
    # a topology change (a tendon added or removed) refuses the checkpoint
    w.add_fixed_tendon("t3", [(robot, "j2", 1.0)])
    with pytest.raises(RuntimeError, match="topology"):
        w.restore_checkpoint(cp)


def test_determinism_and_world_batch_copies(arm_file):
    def run():
        w, *_ = tendon_world(arm_file)
        w.integrate(500)
        return w.state_hash()

    assert run() == run()
    w, *_ = tendon_world(arm_file)
    batch = torsion.WorldBatch.from_world(w, 2, num_threads=2)
    assert [t.get_name() for t in batch.world(1).get_tendons()] == ["t1", "t2"]
    assert len(batch.world(0).get_tendon_couplings()) == 1
    batch.integrate(200)
    w.integrate(200)
    assert list(batch.state_hashes()) == [w.state_hash()] * 2


def test_world_xml_round_trip(arm_file, chain_file, tmp_path):
    w, robot, t1, t2 = tendon_world(arm_file)
    t2.set_actuator_force(0.5)
    chain = w.add_articulated_system(chain_file, fixed_base=True)
    chain.set_generalized_coordinate([0.3, 0.4, 0.1])
    b = {n: chain.get_body_index(n) for n in ("base", "l1", "l2", "l3")}
    s = w.add_spatial_tendon("cable", [
        ("site", chain, b["l1"], [0.3, 0.01, 0.03]),
        ("sphere", chain, b["l2"], [0, 0, 0], 0.06, [0, 0, 0.1]),
        ("site", chain, b["l2"], [0.3, -0.01, 0.03]),
        # its side point on another body (l2's) than the cylinder's
        ("cylinder", chain, b["l3"], [0.2, 0, 0], [0, 0, 1], 0.04,
         (chain, b["l2"], [0.7, -0.1, 0.0])),
        ("site", chain, b["l3"], [0.4, 0.01, -0.02]),
        ("pulley", 2.0),
        ("site", chain, b["base"], [-0.1, 0.05, 0.02]),
        ("site", chain, b["l3"], [0.3, 0.05, 0.05]),
    ], limits=(0.1, 3.0))
    t1.set_properties(spring_length=(-0.1, 0.2))  # a dead band
    w.add_tendon_coupling("held", s, None, [s.get_length()])
    path = tmp_path / "world.xml"
    w.export_to_xml(str(path))
    w2 = torsion.World(str(path))
    names = [t.get_name() for t in w2.get_tendons()]
    assert names == ["t1", "t2", "cable"]
    for a, c in zip(w.get_tendons(), w2.get_tendons()):
        assert c.get_kind() == a.get_kind()
        assert c.get_length() == pytest.approx(a.get_length(), abs=1e-12)
        np.testing.assert_allclose(c.get_jacobian(), a.get_jacobian(), atol=1e-12)
        assert (c.get_stiffness(), c.get_damping(), c.get_spring_length(), c.get_limits(),
                c.get_friction(), c.get_actuator_force()) == (
            a.get_stiffness(), a.get_damping(), a.get_spring_length(), a.get_limits(),
            a.get_friction(), a.get_actuator_force())
    # the side point on another body is kept: the lengths agree where it picks the wrap
    chain2 = w2.get_object_list()[chain.get_index_in_world()]
    cable2 = w2.get_tendon("cable")
    rng = np.random.default_rng(3)
    for q in rng.uniform(-1.5, 1.5, size=(20, 3)):
        chain.set_generalized_coordinate(q)
        chain2.set_generalized_coordinate(q)
        assert cable2.get_length() == pytest.approx(s.get_length(), abs=1e-12)
    cps = w2.get_tendon_couplings()
    assert [c.get_name() for c in cps] == ["c", "held"]
    assert cps[0].get_second().get_name() == "t2" and cps[1].get_second() is None
    assert cps[0].get_polynomial() == [0.0, 0.5] and cps[0].get_compliance() == 0.01
    # a malformed file: a coupling naming a tendon that is not there
    bad = path.read_text().replace('first="2"', 'first="7"', 1)
    path.write_text(bad)
    with pytest.raises(ValueError, match="first"):
        torsion.World(str(path))
