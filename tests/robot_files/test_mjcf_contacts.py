"""MJCF joint limits, contact filters, friction and equality constraints against MuJoCo's compile
and simulation of the same file: soft joint limits (solreflimit / solimplimit) spring a joint back
from outside its range as MuJoCo's do; contype / conaffinity give the same colliding pairs
(between systems, with the ground, within a system with MuJoCo's parent filter); geom friction
and condim give MuJoCo's sliding friction (the larger of a pair's coefficients); connect and weld
equality constraints are refused naming the element."""

from __future__ import annotations

import itertools
import warnings

import mujoco
import numpy as np
import pytest

import torsion


def write(tmp_path, text, name="m.xml"):
    p = tmp_path / name
    p.write_text(text)
    return str(p)


def load(path, **kw):
    world = torsion.World()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", torsion.MJCFWarning)
        warnings.simplefilter("ignore", torsion.JointLimitWarning)
        model = world.load_mjcf_file(path, **kw)
    return world, model


PENDULUM = """<mujoco>
  <option timestep="{dt}" gravity="0 0 -9.81"/>
  <worldbody>
    <body name="arm" pos="0 0 1">
      <joint name="hinge" axis="0 1 0" range="{lo} {hi}" {extra}/>
      <geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.03" contype="0" conaffinity="0"/>
    </body>
  </worldbody>
</mujoco>"""


@pytest.mark.parametrize("q0, extra", [
    (0.0, ""),                                                       # MuJoCo's defaults
    (0.0, 'solreflimit="0.05 0.5" solimplimit="0.8 0.99 0.01 0.3 3"'),
    (-1.2, 'damping="0.2" solreflimit="-800 -5"'),                   # direct stiffness, damping
])
def test_soft_limit_springs_back_like_mujoco(tmp_path, q0, extra):
    """A pendulum started outside its range [30, 70] degrees (as the Ant's ankles at their reset
    pose): MuJoCo's soft limit springs it back; torsion follows MuJoCo's trajectory."""
    path = write(tmp_path, PENDULUM.format(dt=0.002, lo=30, hi=70, extra=extra))
    m = mujoco.MjModel.from_xml_path(path)
    d = mujoco.MjData(m)
    d.qpos[0] = q0
    world, model = load(path)
    (s,) = model.systems
    s.set_generalized_coordinate([q0])
    ours, theirs = [], []
    for _ in range(250):
        mujoco.mj_step(m, d)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", torsion.JointLimitWarning)
            world.integrate(1)
        ours.append(s.get_generalized_coordinate()[0])
        theirs.append(d.qpos[0])
    ours, theirs = np.array(ours), np.array(theirs)
    # it entered the range (a hard stop would hold it at the bound)
    assert theirs.max() > np.radians(30) + 0.05
    np.testing.assert_allclose(ours, theirs, atol=5e-3 * np.ptp(theirs))


def test_limit_softness_is_read_and_checked(tmp_path):
    bad = PENDULUM.format(dt=0.002, lo=30, hi=70, extra='solreflimit="0.02 -1"')
    with pytest.raises(ValueError, match="solreflimit"):
        load(write(tmp_path, bad))
    bad = PENDULUM.format(dt=0.002, lo=30, hi=70, extra='solimplimit="0.9 1.5 0.001"')
    with pytest.raises(ValueError, match="solimplimit"):
        load(write(tmp_path, bad))


# spheres of radius 0.1 on the floor, neighbours overlapping by 5 cm
FILTERS = [(1, 1), (1, 0), (0, 1), (2, 2), (2, 1), (3, 0), (1, 1)]


def filter_scene():
    bodies = "".join(
        f'<body name="s{i}" pos="{0.15 * i} 0 0.09"><freejoint/>'
        f'<geom size="0.1" contype="{ct}" conaffinity="{ca}"/></body>'
        for i, (ct, ca) in enumerate(FILTERS))
    return ("<mujoco><worldbody>"
            '<geom name="floor" type="plane" size="5 5 0.1" contype="1" conaffinity="2"/>'
            f"{bodies}</worldbody></mujoco>")


def mujoco_pairs(path):
    m = mujoco.MjModel.from_xml_path(path)
    d = mujoco.MjData(m)
    mujoco.mj_forward(m, d)
    pairs = set()
    for c in d.contact[:d.ncon]:
        names = sorted(mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_BODY, m.geom_bodyid[g]) for g in c.geom)
        pairs.add(tuple(names))
    return pairs


def torsion_pairs(world, name_of):
    world.integrate1()
    pairs = set()
    for c in world.get_contact_problem():
        a = name_of(int(c["object_a_index"]), int(c["local_a"]))
        b = name_of(int(c["object_b_index"]), int(c["local_b"]))
        pairs.add(tuple(sorted((a, b))))
    return pairs


def test_contype_conaffinity_collide_the_same_pairs_as_mujoco(tmp_path):
    path = write(tmp_path, filter_scene())
    world, model = load(path)
    index = {s.get_index_in_world(): s.get_name() for s in model.systems}

    def name_of(obj, local):
        return index.get(obj, "world")  # the ground is the only other object

    theirs = mujoco_pairs(path)
    ours = torsion_pairs(world, name_of)
    print("\nMuJoCo's pairs:", sorted(theirs))
    assert ours == theirs
    # the scene tests something: some neighbours and floor contacts collide, some do not
    assert 0 < len(theirs) < len(FILTERS) - 1 + len(FILTERS)


def test_an_object_added_later_collides_as_a_default_mujoco_geom(tmp_path):
    """Objects added with the default group (1) act as MuJoCo's default geom (contype =
    conaffinity = 1): a sphere of contype 2 / conaffinity 2 lets it pass, one of 1 / 0 not."""
    text = ("<mujoco><worldbody>"
            '<body name="a" pos="0 0 1"><freejoint/><geom size="0.1" contype="2" conaffinity="2"/></body>'
            '<body name="b" pos="1 0 1"><freejoint/><geom size="0.1" contype="1" conaffinity="0"/></body>'
            "</worldbody></mujoco>")
    world, model = load(write(tmp_path, text))
    world.set_gravity([0, 0, 0])
    world.add_sphere(0.1, 1.0).set_position([0.15, 0, 1])
    world.add_sphere(0.1, 1.0).set_position([1.15, 0, 1])
    world.integrate1()
    touched = {model.systems[0].get_index_in_world(): False, model.systems[1].get_index_in_world(): False}
    for c in world.get_contact_problem():
        for k in ("object_a_index", "object_b_index"):
            if int(c[k]) in touched:
                touched[int(c[k])] = True
    assert touched == {model.systems[0].get_index_in_world(): False,
                       model.systems[1].get_index_in_world(): True}


CHAIN = """<mujoco><option gravity="0 0 0"/><worldbody>
  <body name="base" pos="0 0 1"><freejoint/>
    <geom name="g0" type="capsule" fromto="0 0 0 0.3 0 0" size="0.05"/>
    <body name="mid" pos="0.3 0 0">
      <joint name="mx" axis="1 0 0"/><joint name="my" axis="0 1 0"/><joint name="mz" axis="0 0 1"/>
      <geom name="g1" type="capsule" fromto="0 0 0 0 0 0.3" size="0.05"/>
      <body name="tip" pos="0 0 0.3">
        <joint name="t" axis="0 1 0"/>
        <geom name="g2" type="capsule" fromto="0 0 0 -0.28 0 -0.25" size="0.05"/>
      </body>
    </body>
  </body>
</worldbody></mujoco>"""


@pytest.mark.parametrize("flag", ["", '<flag contact="disable"/>'])
def test_contact_disable_flag_turns_every_contact_off_as_mujoco(tmp_path, flag):
    # a ball dropped on a floor, beside a static sphere it starts inside: with MuJoCo's
    # <flag contact="disable"/> it falls through both, as MuJoCo's does; without, it rests
    xml = f"""<mujoco><option timestep="0.002">{flag}</option><worldbody>
      <geom name="floor" type="plane" size="1 1 0.1"/>
      <geom name="marker" type="sphere" size="0.05" pos="0 0 0.3"/>
      <body pos="0 0 0.3"><freejoint/><geom type="sphere" size="0.1"/></body>
    </worldbody></mujoco>"""
    path = write(tmp_path, xml)
    m = mujoco.MjModel.from_xml_path(path)
    d = mujoco.MjData(m)
    world, model = load(path)
    (s,) = model.systems
    for _ in range(250):
        mujoco.mj_step(m, d)
    world.integrate(250)
    z = s.get_generalized_coordinate()[2]
    if flag:
        assert d.qpos[2] < -0.1 and z < -0.1  # fell through
        assert z == pytest.approx(d.qpos[2], abs=1e-3)
    else:
        assert d.qpos[2] > 0.09 and z > 0.09  # held up


def test_self_collision_with_mujocos_parent_filter(tmp_path):
    """base - mid (three joints: a chain of massless bodies in torsion) - tip, the tip folded
    back onto the base: MuJoCo's parent filter keeps base/mid and mid/tip apart, base/tip touch."""
    path = write(tmp_path, CHAIN)
    world, model = load(path)
    (s,) = model.systems
    names = {i: b for i, b in enumerate(s.get_body_names())}
    theirs = mujoco_pairs(path)
    ours = torsion_pairs(world, lambda obj, local: names[local].split("/")[0])
    assert theirs == {("base", "tip")}
    assert ours == theirs


SLIDE = """<mujoco><option timestep="0.002"/><worldbody>
  <geom name="floor" type="plane" size="5 5 0.1" friction="{floor}" condim="{condim}"/>
  <body name="box" pos="0 0 0.05"><freejoint/>
    <geom type="box" size="0.05 0.05 0.05" friction="{box}" condim="{condim}"/>
  </body>
</worldbody></mujoco>"""


@pytest.mark.parametrize("floor, box, condim", [("0.3", "0.1", 3), ("0.1 0.01", "0.5", 4), ("0.8", "0.8", 1)])
def test_sliding_friction_is_mujocos(tmp_path, floor, box, condim):
    """A box sliding at 2 m/s: it stops after v^2 / (2 mu g) with mu the larger coefficient of
    the pair (condim 1 on both geoms: frictionless, it keeps sliding), in torsion and in
    MuJoCo."""
    path = write(tmp_path, SLIDE.format(floor=floor, box=box, condim=condim))
    m = mujoco.MjModel.from_xml_path(path)
    d = mujoco.MjData(m)
    d.qvel[0] = 2.0
    world, model = load(path)
    (s,) = model.systems
    v = np.zeros(6)
    v[0] = 2.0
    s.set_generalized_velocity(v)
    for _ in range(500):
        mujoco.mj_step(m, d)
    world.integrate(500)
    ours, theirs = s.get_generalized_coordinate()[0], d.qpos[0]
    mu = max(float(floor.split()[0]), float(box.split()[0])) if condim > 1 else 0.0
    expected = min(2.0 ** 2 / (2 * mu * 9.81), 2.0) if mu > 0 else 2.0
    print(f"\nslid {ours:.4f} m in torsion, {theirs:.4f} m in MuJoCo, Coulomb {expected:.4f} m")
    assert theirs == pytest.approx(expected, rel=0.03)
    assert ours == pytest.approx(theirs, rel=0.03)


@pytest.mark.parametrize("element, why", [
    ('<connect name="loop" body1="a" body2="b" anchor="0 0 0"/>', "closes a loop"),
    ('<weld body1="a"/>', "closes a loop"),
])  # (joint and tendon equalities are tendon couplings: test_mjcf_tendons.py)
def test_equality_constraints_are_refused_by_name(tmp_path, element, why):
    text = ("<mujoco><worldbody>"
            '<body name="a"><joint name="ja"/><geom size="0.1"/></body>'
            '<body name="b" pos="1 0 0"><joint name="jb"/><geom size="0.1"/></body>'
            f"</worldbody><equality>{element}</equality></mujoco>")
    path = write(tmp_path, text)
    tag = element.split()[0]
    with pytest.raises(ValueError, match=f"<equality>{tag}.*{why}.*ignore_unsupported=True"):
        torsion.World().load_mjcf_file(path)
    with pytest.warns(torsion.MJCFWarning, match=f"<equality>{tag}"):
        model = torsion.World().load_mjcf_file(path, ignore_unsupported=True)
    assert len(model.systems) == 2
