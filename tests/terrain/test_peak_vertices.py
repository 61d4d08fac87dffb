"""A surface vertex inside a box, cylinder or hull: a terrain or mesh peak pressed into a box's
face. The vertex region is the only feature that touches the shape there (the faces around a
peak slope away under the box), and with no contact margin the vertex is inside the shape as
soon as they touch. References: the exact geometry of a point inside a box (its distance to the
face that pushes it out) and, for the drops, a brute-force check that no sample of the box's
bottom sinks below the surface."""

import math

import numpy as np
import pytest

import torsion
from torsion import Shape
from torsion._core import collide_triangle

from ..meshes import write_obj

N, SIZE = 5, 4.0  # 1 m cells: one peak at the centre sample
HALF = np.array([0.3, 0.3, 0.1])  # the box: 0.6 x 0.6 x 0.2 m


def peak_heights(peak):
    h = np.zeros(N * N)
    h[(N // 2) * N + N // 2] = peak
    return h


def rotation(quat):
    w, x, y, z = quat
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def q_axis(axis, angle):
    axis = np.asarray(axis, float) / np.linalg.norm(axis)
    return np.array([math.cos(angle / 2), *(math.sin(angle / 2) * axis)])


def box_over_vertex(w, vertex, quat, sink):
    """A box whose bottom face holds `vertex` `sink` m inside it, (0.05, 0.03) m off its centre."""
    R = rotation(quat)
    local = np.array([-0.05, -0.03, -HALF[2] + sink])  # the vertex in the box's frame
    b = w.add_box(*(2 * HALF), 5.0)
    b.set_orientation(quat)
    b.set_position(np.asarray(vertex) - R @ local)
    return b, R


APEX = [0.0, 0.0, 0.2]


def pyramid_surface(w, tmp_path, body_type):
    """An open pyramid with its apex at APEX as a triangle-mesh surface (four sloped faces, free
    base edges) at the origin, of the given body type."""
    vertices = [[-1, -1, 0], [1, -1, 0], [1, 1, 0], [-1, 1, 0], APEX]
    faces = [[0, 1, 4], [1, 2, 4], [2, 3, 4], [3, 0, 4]]
    path = write_obj(tmp_path / "pyramid.obj", np.array(vertices, float), np.array(faces))
    m = w.add_mesh(path, 1.0, inertia=np.eye(3), com=[0, 0, 0],
                   collision_mode=torsion.MeshCollisionMode.ORIGINAL_MESH)
    m.set_body_type(body_type)
    m.set_position([0, 0, 0])
    return m


def contact_at(contacts, vertex, surface=0):
    """The one contact at `vertex`: its normal, turned to point from the surface (world index
    `surface`; None: the normals already do, as collide_triangle's) to the shape, and its
    depth."""
    at = np.linalg.norm(contacts["position"] - vertex, axis=1) < 0.05
    assert at.sum() == 1, contacts
    k = int(np.flatnonzero(at)[0])
    flip = surface is not None and contacts["object_a_index"][k] == surface
    return contacts["normal"][k] * (-1.0 if flip else 1.0), contacts["depth"][k]


@pytest.mark.parametrize("peak", [0.05, 0.2])
@pytest.mark.parametrize("yaw, tilt", [(0.0, 0.0), (0.3, 0.0), (0.0, 0.01), (0.7, 0.02)])
def test_terrain_peak_inside_a_box_pushes_along_the_box_face(peak, yaw, tilt):
    w = torsion.World()
    w.add_height_map(N, N, SIZE, SIZE, 0.0, 0.0, peak_heights(peak))
    # yaw, then a tilt that keeps the bottom face inside the peak's cone (slope >= 0.05)
    qz, qt = q_axis([0, 0, 1], yaw), q_axis([1, 0.3, 0], tilt)
    q = np.array([qz[0] * qt[0] - qz[1:] @ qt[1:], *(qz[0] * qt[1:] + qt[0] * qz[1:]
                                                     + np.cross(qz[1:], qt[1:]))])
    vertex = np.array([0.0, 0.0, peak])
    _, R = box_over_vertex(w, vertex, q, 0.01)
    w.integrate1()
    n, depth = contact_at(w.get_contact_problem(), vertex)
    # the vertex leaves the box through its bottom face: along the face's inward normal, by its
    # distance to that face
    np.testing.assert_allclose(n, R[:, 2], atol=1e-12)
    assert depth == pytest.approx(0.01, abs=1e-12)
    w.integrate2()


def test_a_flat_patch_is_left_to_the_face_contacts():
    # the same box sunk 1 cm into a flat heightmap: the grid vertex under it is not a peak, the
    # four face contacts at the box's corners carry it as before
    w = torsion.World()
    w.add_height_map(N, N, SIZE, SIZE, 0.0, 0.0, np.zeros(N * N))
    box, _ = box_over_vertex(w, [0.0, 0.0, 0.0], (1.0, 0.0, 0.0, 0.0), 0.01)
    w.integrate1()
    c = w.get_contact_problem()
    assert len(c) == 4
    np.testing.assert_allclose(np.sort(np.abs(c["position"][:, 0] - box.get_position()[0])),
                               [0.3] * 4, atol=1e-12)
    np.testing.assert_allclose(c["depth"], 0.01, atol=1e-12)


@pytest.mark.parametrize("peak", [0.05, 0.2])
def test_box_dropped_on_a_terrain_peak_rests_on_it(peak):
    # no contact margin: the peak is inside the box from the first step that touches
    w = torsion.World()
    w.set_time_step(1e-3)
    heights = peak_heights(peak)
    w.add_height_map(N, N, SIZE, SIZE, 0.0, 0.0, heights)
    b = w.add_box(*(2 * HALF), 5.0)
    b.set_position([0.05, 0.03, peak + HALF[2] + 0.002])
    w.integrate(3000)
    assert np.linalg.norm(b.get_linear_velocity()) < 1e-3
    # brute force: the box's bottom face sampled, against the surface under each sample (the
    # pyramid around the peak: its four faces are planes through the peak and a cell's edge)
    g = np.linspace(-1.0, 1.0, 21)
    A, B = np.meshgrid(g, g)
    local = np.stack([A.ravel() * HALF[0], B.ravel() * HALF[1], np.full(A.size, -HALF[2])], 1)
    pts = b.get_position() + local @ np.asarray(b.get_rotation_matrix()).T
    surface = np.maximum(0.0, peak * (1.0 - np.maximum(np.abs(pts[:, 0]), np.abs(pts[:, 1]))))
    # the grid's triangles split each cell along its diagonal: the surface under a point is at
    # most the pyramid's; the peak itself is exact
    assert np.min(pts[:, 2] - surface) > -1e-3
    R = np.asarray(b.get_rotation_matrix())
    assert (R.T @ (np.array([0, 0, peak]) - b.get_position()))[2] == pytest.approx(-HALF[2],
                                                                                     abs=1e-3)


def test_mesh_peak_inside_a_box_pushes_along_the_box_face(tmp_path):
    w = torsion.World()
    m = pyramid_surface(w, tmp_path, torsion.BodyType.STATIC)
    q = q_axis([0, 0, 1], 0.4)
    _, R = box_over_vertex(w, APEX, q, 0.02)
    w.integrate1()
    n, depth = contact_at(w.get_contact_problem(), APEX, m.get_index_in_world())
    np.testing.assert_allclose(n, R[:, 2], atol=1e-12)
    assert depth == pytest.approx(0.02, abs=1e-12)


def test_lone_triangle_corner_inside_a_box():
    # one triangle whose corner (0, 0, 0.05) rises into a box's bottom face: both of the
    # corner's edges are free, and the box face is in the corner's cone
    tri = np.array([[0.0, 0.0, 0.05], [-1.0, 0.5, 0.0], [-1.0, -0.5, 0.0]])
    # counter-clockwise seen from above
    assert np.cross(tri[1] - tri[0], tri[2] - tri[0])[2] > 0
    c = collide_triangle(Shape.box(*(2 * HALF)), (0.1, 0.05, 0.05 + HALF[2] - 0.01),
                         (1.0, 0.0, 0.0, 0.0), tri)
    n, depth = contact_at(c, tri[0], surface=None)
    np.testing.assert_allclose(n, (0, 0, 1), atol=1e-12)
    assert depth == pytest.approx(0.01, abs=1e-12)


@pytest.mark.parametrize("kind", ["cylinder", "hull"])
def test_peak_inside_a_cylinder_or_hull_pushes_along_its_bottom_face(kind, tmp_path):
    # the same function serves every shape with a solid core: a level cylinder (its cap) and a
    # convex hull of a box (its bottom face), with the peak 1.5 cm inside, off their centres
    from ..meshes import box_mesh
    w = torsion.World()
    w.add_height_map(N, N, SIZE, SIZE, 0.0, 0.0, peak_heights(0.1))
    if kind == "cylinder":
        body, half_height = w.add_cylinder(0.3, 0.2, 5.0), 0.1
    else:
        path = write_obj(tmp_path / "box.obj", *box_mesh((0.6, 0.4, 0.2)))
        body, half_height = w.add_mesh(path, 5.0), 0.1
    body.set_orientation(q_axis([0, 0, 1], 0.5))
    body.set_position([0.04, -0.07, 0.1 + half_height - 0.015])
    w.integrate1()
    n, depth = contact_at(w.get_contact_problem(), np.array([0.0, 0.0, 0.1]))
    np.testing.assert_allclose(n, (0, 0, 1), atol=1e-12)
    assert depth == pytest.approx(0.015, abs=1e-12)


def test_a_rising_mesh_peak_lifts_a_box(tmp_path):
    # a kinematic pyramid (triangle surface) rising at 0.1 m/s under a box resting on its apex:
    # the box rides up with it, the apex never more than 1 mm into the box's bottom face
    w = torsion.World()
    w.set_time_step(1e-3)
    m = pyramid_surface(w, tmp_path, torsion.BodyType.KINEMATIC)
    m.set_velocity([0, 0, 0.1], [0, 0, 0])
    box = w.add_box(*(2 * HALF), 5.0)
    box.set_position([0.05, 0.03, APEX[2] + HALF[2] + 0.001])
    deepest = 0.0
    for _ in range(1000):
        w.integrate()
        top = m.get_position() + np.array(APEX)
        local = np.asarray(box.get_rotation_matrix()).T @ (top - box.get_position())
        deepest = max(deepest, local[2] + HALF[2])  # > 0: the apex inside the bottom face
    assert m.get_position()[2] == pytest.approx(0.1, abs=1e-9)
    assert box.get_position()[2] > APEX[2] + 0.1
    assert deepest < 1e-3


def border_floor(w, kind, tmp_path):
    """Flat ground ending at x = 1 with its top at z = 0: a 2 x 2 m heightmap (0.1 m cells) or
    an open triangle-mesh sheet (0.5 m cells), both border vertices on free edges."""
    if kind == "heightmap":
        w.add_height_map(21, 21, 2.0, 2.0, 0.0, 0.0, np.zeros(21 * 21))
        return
    X, Y = np.meshgrid(np.linspace(-3, 1, 9), np.linspace(-2, 2, 9))
    V = np.c_[X.ravel(), Y.ravel(), np.zeros(81)]
    F = [[j * 9 + i, j * 9 + i + 1, j * 9 + i + 10] for j in range(8) for i in range(8)] + \
        [[j * 9 + i, j * 9 + i + 10, j * 9 + i + 9] for j in range(8) for i in range(8)]
    path = write_obj(tmp_path / "sheet.obj", V, np.array(F))
    m = w.add_mesh(path, 1.0, inertia=np.eye(3), com=[0, 0, 0],
                   collision_mode=torsion.MeshCollisionMode.ORIGINAL_MESH)
    m.set_body_type(torsion.BodyType.STATIC)
    m.set_position([0, 0, 0])


@pytest.mark.parametrize("kind", ["heightmap", "mesh"])
def test_a_border_vertex_on_a_box_bottom_face_is_left_to_the_face_contacts(kind, tmp_path):
    # a box lying flat across the border (x in [0.7, 1.1]), pitched by round-off: the border
    # vertices lie on its bottom face, inside it by ~1e-13. The upward direction needs no depth
    # (the faces carry the box along it); they were pushed out through the box's far side face
    # instead: 0.3 m along a horizontal normal
    w = torsion.World()
    border_floor(w, kind, tmp_path)
    b = w.add_box(0.4, 0.3, 0.1, 1.0)
    b.set_orientation(q_axis([0, 1, 0], -1e-12))
    b.set_position([0.9, 0.0, 0.05])
    w.integrate1()
    c = w.get_contact_problem()
    assert len(c) > 0
    # reference: a box lying on a plane touches it along the plane's normal, at no depth
    np.testing.assert_allclose(np.abs(c["normal"][:, 2]), 1.0, atol=1e-9)
    np.testing.assert_allclose(c["depth"], 0.0, atol=1e-9)
    w.integrate2()


def test_a_box_rests_across_a_heightmap_border_like_on_a_table():
    # reference: the same box on a static box with the same top face and edge at x = 1
    def rest(floor):
        w = torsion.World()
        w.set_time_step(0.02)
        if floor == "heightmap":
            w.add_height_map(21, 21, 2.0, 2.0, 0.0, 0.0, np.zeros(21 * 21))
        else:
            f = w.add_box(2, 2, 1, 1.0)
            f.set_body_type(torsion.BodyType.STATIC)
            f.set_position([0, 0, -0.5])
        b = w.add_box(0.4, 0.3, 0.1, 1.0)
        b.set_position([0.9, 0.3, 0.05])
        w.integrate(100)
        return b.get_position(), 2 * b.get_quaternion()[2]
    (p_hm, pitch_hm), (p_table, pitch_table) = rest("heightmap"), rest("table")
    assert abs(pitch_table) < 1e-6
    assert abs(pitch_hm) < 1e-6  # was 6.5e-3 rad: tilted and sank in one step
    np.testing.assert_allclose(p_hm, p_table, atol=1e-6)
