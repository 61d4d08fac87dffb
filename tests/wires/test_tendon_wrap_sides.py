"""MuJoCo's side-site rules for a spatial tendon's wraps (world/tendon_path.hpp): a segment that
clears the obstacle on the side away from the side site is still wrapped (towards the side site),
arcs past half a turn, a side site inside the obstacle (MuJoCo's inside wrap) and the choice of
way without a side site; ten_length / ten_J compared with MuJoCo's over many configurations."""

import numpy as np
import pytest

import torsion

from .test_tendons import CHAIN_MJCF, CHAIN_URDF, mujoco_length_and_jacobian

BALL_R, DRUM_R = 0.06, 0.04


def variant(ball_side, drum_side):
    """The chain of test_tendons with the side sites moved (None: the geom has no side site)."""
    xml = CHAIN_MJCF.replace('<site name="side_ball" pos="0 0 0.1"/>',
                             f'<site name="side_ball" pos="{ball_side}"/>' if ball_side else "")
    xml = xml.replace('<site name="side_drum" pos="0.2 -0.1 0"/>',
                      f'<site name="side_drum" pos="{drum_side}"/>' if drum_side else "")
    if not ball_side:
        xml = xml.replace('<geom geom="ball" sidesite="side_ball"/>', '<geom geom="ball"/>')
    if not drum_side:
        xml = xml.replace('<geom geom="drum" sidesite="side_drum"/>', '<geom geom="drum"/>')
    return xml


def torsion_tendon(w, robot, ball_side, drum_side):
    b = {n: robot.get_body_index(n) for n in ("base", "l1", "l2", "l3")}
    vec = (lambda s: [float(x) for x in s.split()] if s else None)
    ball = ("sphere", robot, b["l2"], [0, 0, 0], BALL_R)
    drum = ("cylinder", robot, b["l3"], [0.2, 0, 0], [0, 0, 1], DRUM_R)
    path = [
        ("site", robot, b["base"], [0.05, 0.02, 0.0]),
        ("site", robot, b["l1"], [0.3, 0.01, 0.03]),
        ball + ((vec(ball_side),) if ball_side else ()),
        ("site", robot, b["l2"], [0.3, -0.01, 0.03]),
        drum + ((vec(drum_side),) if drum_side else ()),
        ("site", robot, b["l3"], [0.4, 0.01, -0.02]),
        ("pulley", 2.0),
        ("site", robot, b["base"], [-0.1, 0.05, 0.02]),
        ("site", robot, b["l3"], [0.3, 0.05, 0.05]),
    ]
    name = f"t{len(w.get_tendons())}"
    return w.add_spatial_tendon(name, path)


def segment_clears(a, b, c, r, axis=None):
    """The straight segment a-b misses the sphere (or, with axis, the infinite cylinder)."""
    if axis is not None:
        proj = lambda v: v - np.dot(v, axis) * axis
        a, b, c = proj(a), proj(b), proj(c)
    d = b - a
    t = np.clip(np.dot(c - a, d) / np.dot(d, d), 0.0, 1.0)
    return np.linalg.norm(a + t * d - c) > r


# side sites: outside (above the ball, beside the drum: the configuration of test_tendons),
# outside on the other sides, inside each obstacle (MuJoCo's inside wrap), and none
VARIANTS = [
    ("0 0 0.1", "0.2 -0.1 0"),
    ("0 0 -0.1", "0.2 0.1 0"),
    ("0 0.08 0.02", "0.25 0.05 0.03"),
    ("0 0 0.03", "0.2 0.01 0"),
    (None, None),
]


@pytest.mark.parametrize("ball_side,drum_side", VARIANTS)
def test_side_site_rules_match_mujoco(tmp_path, ball_side, drum_side):
    mujoco = pytest.importorskip("mujoco")
    model = mujoco.MjModel.from_xml_string(variant(ball_side, drum_side))
    data = mujoco.MjData(model)
    urdf = tmp_path / "chain3.urdf"
    urdf.write_text(CHAIN_URDF)
    w = torsion.World()
    robot = w.add_articulated_system(str(urdf), fixed_base=True)
    t = torsion_tendon(w, robot, ball_side, drum_side)
    site = {n: model.site(n).id for n in ("s1", "s2", "s3")}
    ball, drum = model.geom("ball").id, model.geom("drum").id
    rng = np.random.default_rng(31)
    forced = 0  # MuJoCo wraps although the straight segment clears the obstacle
    for q in rng.uniform(-2.0, 2.0, size=(150, 3)):
        length, jac, _ = mujoco_length_and_jacobian(model, data, q)
        robot.set_generalized_coordinate(q)
        assert t.get_length() == pytest.approx(length, abs=1e-9), q
        np.testing.assert_allclose(t.get_jacobian(), jac, atol=1e-9, err_msg=str(q))
        wrapped = set()
        objs = np.asarray(data.wrap_obj).ravel()  # per path point: geom id, -1 site, -2 pulley
        for k in range(data.ten_wrapadr[0], data.ten_wrapadr[0] + data.ten_wrapnum[0]):
            if objs[k] >= 0:
                wrapped.add(int(objs[k]))
        clear_ball = segment_clears(data.site_xpos[site["s1"]], data.site_xpos[site["s2"]],
                                    data.geom_xpos[ball], BALL_R)
        axis = data.geom_xmat[drum].reshape(3, 3)[:, 2]
        clear_drum = segment_clears(data.site_xpos[site["s2"]], data.site_xpos[site["s3"]],
                                    data.geom_xpos[drum], DRUM_R, axis)
        forced += (ball in wrapped and clear_ball) + (drum in wrapped and clear_drum)
    if ball_side is not None:
        assert forced > 0  # the configurations exercise the side rule (or the inside wrap)
