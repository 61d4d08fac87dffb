"""Convex edges of triangle meshes: the top edge of a step's riser, the rim of a table.

A box lying on the top of a static triangle-mesh step near its edge used to get contacts from
the riser below it: the riser's face clipped the box's far end face (behind the riser, inside
the step) to the sliver of riser under the top, and reported it as deep as the box's reach past
the riser (up to 19 cm) with the riser's horizontal normal. Those deepest points won the
manifold's reduction, the top's support was dropped, and the box sank into the step or fell
through it; a box merely touching the top near the edge was stopped and spun as if it hit the
riser. References: the same step built from a static box, and the exact depth of a box resting
a known distance into the top."""

import math

import numpy as np
import pytest

import torsion

from ..meshes import box_mesh, write_obj


def step_mesh(w, tmp_path):
    """A static triangle-mesh step: floor z = 0 for x < 0, a vertical 10 cm riser at x = 0
    facing -x, top z = 0.1 for x > 0 (y in [-1, 1]; six triangles)."""
    profile = [(-1.0, 0.0), (0.0, 0.0), (0.0, 0.1), (1.0, 0.1)]
    vertices = np.array([(x, y, z) for x, z in profile for y in (-1.0, 1.0)])
    tris = []
    for i in range(len(profile) - 1):
        a, d, b, c = 2 * i, 2 * i + 1, 2 * i + 2, 2 * i + 3
        tris += [(a, b, c), (a, c, d)]
    m = w.add_mesh(write_obj(tmp_path / "step.obj", vertices, np.array(tris)), 1.0,
                   inertia=np.eye(3), com=[0, 0, 0],
                   collision_mode=torsion.MeshCollisionMode.ORIGINAL_MESH)
    m.set_body_type(torsion.BodyType.STATIC)
    m.set_position([0, 0, 0])


def step_boxes(w):
    """The same step from the ground and a static box."""
    w.add_ground(0.0)
    s = w.add_box(1.0, 2.0, 0.1, 1.0)
    s.set_body_type(torsion.BodyType.STATIC)
    s.set_position([0.5, 0.0, 0.05])


@pytest.mark.parametrize("overhang", [0.005, 0.01, 0.03, 0.08])
def test_box_overhanging_a_mesh_step_rests_on_its_top(tmp_path, overhang):
    heights = []
    for build in (lambda w: step_mesh(w, tmp_path), step_boxes):
        w = torsion.World()
        build(w)
        b = w.add_box(0.2, 0.1, 0.1, 1.0)
        b.set_position([0.1 - overhang, 0.0, 0.16])  # 1 cm above the top
        w.integrate(1000)
        heights.append(b.get_position()[2])
    assert heights[0] == pytest.approx(0.15, abs=5e-4)
    assert heights[0] == pytest.approx(heights[1], abs=1e-6)


def test_box_resting_into_the_top_near_the_edge_gets_only_the_top_contacts(tmp_path):
    w = torsion.World()
    w.set_gravity([0.0, 0.0, 0.0])
    step_mesh(w, tmp_path)
    b = w.add_box(0.2, 0.1, 0.1, 1.0)
    b.set_position([0.09, 0.0, 0.1498])  # 0.2 mm into the top, 1 cm past the edge
    w.integrate1()
    c = w.get_contact_problem()
    assert len(c) == 4
    np.testing.assert_allclose(np.abs(c["normal"][:, 2]), 1.0, atol=1e-12)
    np.testing.assert_allclose(c["depth"], 2e-4, atol=1e-12)


def test_box_overhanging_a_closed_mesh_table_stays_on_it(tmp_path):
    w = torsion.World()
    w.add_ground(0.0)
    t = w.add_mesh(write_obj(tmp_path / "table.obj", *box_mesh((1.0, 1.0, 0.5))), 1.0,
                   collision_mode=torsion.MeshCollisionMode.ORIGINAL_MESH)
    t.set_body_type(torsion.BodyType.STATIC)
    t.set_position([0.0, 0.0, 0.25])
    b = w.add_box(0.2, 0.1, 0.1, 1.0)
    b.set_position([0.41, 0.0, 0.56])  # 1 cm past the table's edge
    w.integrate(1000)
    assert b.get_position()[2] == pytest.approx(0.55, abs=5e-4)


def tilted_foot(w, pen):
    """A 0.05 x 0.1 x 0.22 box (a foot on its toe) tilted 0.012 rad about y, its lowest edge
    2.1 cm past the riser and `pen` below the top."""
    t = 0.012
    R = np.array([[math.cos(t), 0, math.sin(t)], [0, 1, 0], [-math.sin(t), 0, math.cos(t)]])
    low = R @ np.array([0.025, 0.0, -0.11])
    b = w.add_box(0.05, 0.1, 0.22, 1.0)
    b.set_position([-0.0025, 0.0, 0.1 - pen - low[2]])
    b.set_orientation([math.cos(t / 2), 0.0, math.sin(t / 2), 0.0])
    return b


@pytest.mark.parametrize("pen", [0.0005, 0.002])
def test_a_foot_touching_the_top_near_the_edge_is_not_pushed_by_the_riser(tmp_path, pen):
    w = torsion.World()
    w.set_gravity([0.0, 0.0, 0.0])
    step_mesh(w, tmp_path)
    tilted_foot(w, pen)
    w.integrate1()
    c = w.get_contact_problem()
    assert len(c) > 0
    np.testing.assert_allclose(np.abs(c["normal"][:, 2]), 1.0, atol=1e-12)
    assert c["depth"].max() == pytest.approx(pen, abs=1e-12)


def test_a_frictionless_foot_slides_over_the_edge_unhindered(tmp_path):
    w = torsion.World()
    step_mesh(w, tmp_path)
    w.set_default_material(0.0, 0.0, 0.0)
    b = tilted_foot(w, 2e-4)
    b.set_velocity([0.3, 0.0, 0.0], [0.0, 0.0, 0.0])
    w.integrate(3)
    # no horizontal contact: nothing slows it (it was 0.222 m/s, spinning at 2 rad/s)
    assert b.get_linear_velocity()[0] == pytest.approx(0.3, abs=1e-12)
