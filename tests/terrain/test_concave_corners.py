"""Concave corners of terrain and triangle meshes: a floor meeting a steep wall (a stair riser,
a curb) and the foot of a slope.

Two former failures, both with a box (the bundled humanoid's feet are boxes):
- a box pitched nose-down a few millimetres into both the floor and the wall got no contact at
  all and fell through, on a heightmap and on a static triangle mesh: each face clipped only the
  box's lowest edge, which lies past the floor's foot line and below the wall's;
- a heightmap grid vertex at the foot of a slope, inside a box, gave a contact pushing the box
  into the terrain (normal down, depth the box's full height).
References: the exact depth of the box's tilted bottom face at the floor's foot line, and the
surface itself (the box rests on it)."""

import math

import numpy as np
import pytest

import torsion

from ..meshes import write_obj

SPACING, LENGTH = 0.05, 4.0


def grid_surface(w, tmp_path, kind, height):
    """The surface z = height(x) on a 4 m square grid of 5 cm cells, as a heightmap or a static
    triangle mesh (the same triangles)."""
    n = int(round(LENGTH / SPACING)) + 1
    xs = np.linspace(-LENGTH / 2, LENGTH / 2, n)
    X, Y = np.meshgrid(xs, xs)
    H = height(X)
    if kind == "heightmap":
        w.add_height_map(n, n, LENGTH, LENGTH, 0.0, 0.0, H.reshape(-1))
        return
    vertices = np.stack([X.reshape(-1), Y.reshape(-1), H.reshape(-1)], 1)
    tris = []
    for j in range(n - 1):
        for i in range(n - 1):
            a = j * n + i
            tris += [(a, a + 1, a + n + 1), (a, a + n + 1, a + n)]
    path = write_obj(tmp_path / "surface.obj", vertices, np.array(tris))
    m = w.add_mesh(path, 1.0, inertia=np.eye(3), com=[0, 0, 0],
                   collision_mode=torsion.MeshCollisionMode.ORIGINAL_MESH)
    m.set_body_type(torsion.BodyType.STATIC)
    m.set_position([0, 0, 0])


def step(x):
    """A 0.3 m step rising between x = 0 and x = 0.05 (an 80.5 degree wall)."""
    return np.where(x > 1e-9, 0.3, 0.0)


def normals_from_surface(box, contacts):
    """The contacts' normals turned to point from the surface to the box."""
    return np.where(contacts["is_object_a"][:, None], contacts["normal"], -contacts["normal"])


@pytest.mark.parametrize("kind", ["heightmap", "mesh"])
@pytest.mark.parametrize("tilt_deg, into_wall, into_floor",
                         [(3.0, 0.005, 0.002), (3.0, 0.01, 0.003), (5.0, 0.003, 0.003),
                          (8.0, 0.004, 0.001)])
def test_box_pitched_into_a_floor_wall_corner_touches_the_floor_and_rests(
        tmp_path, kind, tilt_deg, into_wall, into_floor):
    w = torsion.World()
    grid_surface(w, tmp_path, kind, step)
    box = w.add_box(0.1, 0.1, 0.1, 1.0)
    t = math.radians(tilt_deg)
    R = np.array([[math.cos(t), 0, math.sin(t)], [0, 1, 0], [-math.sin(t), 0, math.cos(t)]])
    # nose-down about +y: the front-bottom edge (body (0.05, y, -0.05)) is the lowest, placed
    # into_wall past the foot line x = 0 and into_floor below the floor
    edge = np.array([into_wall, 0.013, -into_floor])
    box.set_position(edge - R @ np.array([0.05, 0.0, -0.05]))
    box.set_orientation([math.cos(t / 2), 0.0, math.sin(t / 2), 0.0])
    w.integrate1()
    c = box.get_contacts()
    n = normals_from_surface(box, c)
    floor = n[:, 2] > 0.999
    assert floor.any(), c
    # the floor's contacts are points of the tilted bottom face over the floor (x <= 0, up to
    # the clipping's round-off), each as deep as the face is below the floor there: the face
    # rises tan(t) per metre back from the front edge
    x = c["position"][floor, 0]
    assert (x <= 1e-8).all(), c
    np.testing.assert_allclose(c["depth"][floor], into_floor - math.tan(t) * (into_wall - x),
                               atol=1e-9)
    # the wall pushes back (its normal leans 9.5 degrees up from -x)
    assert (n[:, 0] < -0.9).any(), c
    w.integrate2()
    w.integrate(500)
    assert box.get_position()[2] > 0.045  # resting on the floor (0.05 level), not fallen through


def test_random_boxes_hulls_and_cylinders_pressed_into_a_corner_never_fall(tmp_path):
    rng = np.random.default_rng(11)
    vertices = np.array([[x, y, z] for x in (-.05, .05) for y in (-.05, .05) for z in (-.05, .05)])
    hull = write_obj(tmp_path / "cube.obj", vertices,
                     np.array([(0, 1, 3), (0, 3, 2), (4, 6, 7), (4, 7, 5), (0, 4, 5), (0, 5, 1),
                               (2, 3, 7), (2, 7, 6), (0, 2, 6), (0, 6, 4), (1, 5, 7), (1, 7, 3)]))
    for kind in ("heightmap", "mesh"):
        for shape in ("box", "hull", "cylinder"):
            for _ in range(8):
                w = torsion.World()
                grid_surface(w, tmp_path, kind, step)
                b = {"box": lambda: w.add_box(0.1, 0.1, 0.1, 1.0),
                     "hull": lambda: w.add_mesh(str(hull), 1.0),
                     "cylinder": lambda: w.add_cylinder(0.05, 0.1, 1.0)}[shape]()
                axis = rng.normal(size=3)
                axis /= np.linalg.norm(axis)
                a = math.radians(rng.uniform(1.0, 20.0))
                b.set_orientation([math.cos(a / 2), *(math.sin(a / 2) * axis)])
                R = np.asarray(b.get_rotation_matrix())
                # the shape's extreme points along +x and -z, from dense samples of its surface
                u = rng.normal(size=(4000, 3))
                if shape == "cylinder":
                    u /= np.maximum(np.hypot(u[:, 0], u[:, 1]), np.abs(u[:, 2]))[:, None] / 0.05
                else:
                    u /= np.abs(u).max(1)[:, None] / 0.05
                p = u @ R.T
                gaps = rng.uniform(0.0005, 0.005, 2)
                b.set_position([gaps[0] - p[:, 0].max(), 0.0, -gaps[1] - p[:, 2].min()])
                w.integrate1()
                assert len(b.get_contacts()) > 0, (kind, shape)
                w.integrate2()
                w.integrate(300)
                assert b.get_position()[2] > 0.03, (kind, shape)


def ramp(x):
    """Floor for x <= 0, a 0.2 slope (11.3 degrees) beyond: the vertices at x = 0 are concave."""
    return np.where(x > 0.0, 0.2 * x, 0.0)


@pytest.mark.parametrize("kind", ["heightmap", "mesh"])
def test_concave_vertex_inside_a_box_never_pushes_it_into_the_terrain(tmp_path, kind):
    w = torsion.World()
    grid_surface(w, tmp_path, kind, ramp)
    box = w.add_box(0.3, 0.2, 0.1, 1.0)
    # the bottom face 10 um into the floor, the front face 1 mm past the foot of the ramp: the
    # grid vertices of the foot line under the box are inside it
    box.set_position([-0.149, 0.037, 0.05 - 1e-5])
    w.integrate1()
    c = box.get_contacts()
    n = normals_from_surface(box, c)
    assert len(c) > 0
    assert (n[:, 2] > 0.0).all(), c
    # the deepest point is the front-bottom edge under the ramp: (0.2 * 1 mm + 10 um) deep
    # vertically, less along the ramp's normal
    assert c["depth"].max() <= 0.2 * 1e-3 + 1e-5 + 1e-12
    w.integrate2()
    for _ in range(20):
        w.integrate()
        assert box.get_position()[2] > 0.05 - 1e-3


@pytest.mark.parametrize("kind", ["heightmap", "mesh"])
def test_box_sliding_fast_into_a_step_stays_on_the_floor(tmp_path, kind):
    w = torsion.World()
    w.set_default_material(0.3, 0.0, 0.0)
    grid_surface(w, tmp_path, kind, step)
    b = w.add_box(0.1, 0.1, 0.1, 1.0)
    b.set_position([-0.5, 0.013, 0.051])
    w.integrate(50)
    b.set_linear_velocity([10.0, 0.0, 0.0])
    for _ in range(15):
        w.integrate(100)
        assert b.get_position()[2] > 0.04


@pytest.mark.parametrize("shape", ["sphere", "capsule"])
@pytest.mark.parametrize("kind", ["heightmap", "mesh"])
@pytest.mark.parametrize("below", [0.001, 0.005, 0.02, 0.05])
def test_a_sphere_pushed_under_a_valley_line_is_pushed_back_out(tmp_path, kind, below, shape):
    # A V-shaped valley z = a |x| (the crease x = 0 is a grid line). A sphere whose centre lies
    # `below` under the crease projects outside both triangles that meet there, across the
    # concave edge: neither reported a contact, and a sphere embedded there by a landing at a
    # large time step fell through the terrain. Each face now pushes it along its own normal,
    # by the exact depth of its plane, from the crease. The same for a capsule lying along the
    # crease (a limb), from each end of its core.
    slope, r = 0.3, 0.1
    w = torsion.World()
    grid_surface(w, tmp_path, kind, lambda x: slope * np.abs(x))
    if shape == "sphere":
        ball = w.add_sphere(r, 1.0)
    else:
        ball = w.add_capsule(r, 0.2, 1.0)
        ball.set_orientation([math.cos(math.pi / 4), math.sin(math.pi / 4), 0.0, 0.0])
    ball.set_position([0.0, 0.012, -below])
    w.integrate1()
    contacts = ball.get_contacts()
    assert len(contacts) >= (2 if shape == "sphere" else 4)
    normals = normals_from_surface(ball, contacts)
    norm = math.hypot(slope, 1.0)
    for n, depth, p in zip(normals, contacts["depth"], contacts["position"]):
        assert abs(n[0]) == pytest.approx(slope / norm, abs=1e-12)  # a face's normal
        assert n[2] == pytest.approx(1.0 / norm, abs=1e-12)
        assert depth == pytest.approx(r + below / norm, abs=1e-12)  # r - (signed plane distance)
    assert {np.sign(n[0]) for n in normals} == {-1.0, 1.0}  # both faces
    w.integrate2()
    # held against gravity (it fell at g dt); ERP, off by default, would push it out
    np.testing.assert_allclose(ball.get_linear_velocity(), 0.0, atol=1e-5)
