"""Rays and the depth camera see deformables (cpp/query/ray_surface.hpp): a cloth's triangles and
a solid's boundary faces at the particles' current positions. Checked against analytic hits on a
flat cloth, on a cloth displaced to a known shape (a tilted plane, a paraboloid given exactly at
the vertices: the hit lies on the triangle the ray crosses) and on a solid box, through ray_test,
ray_test_batch (bit for bit the same), the lidar and the depth camera."""

import numpy as np
import pytest

import torsion
from torsion.deformable import box_tetrahedra, grid_cloth


def flat_cloth_world(z=0.5, n=8, size=1.0):
    w = torsion.World()
    v, t = grid_cloth(n, n, size, size, center=(0.0, 0.0, z))
    cloth = w.add_deformable_cloth(v, t, pinned_vertices=[0, n])
    return w, cloth, v, t


def test_a_ray_down_hits_a_flat_cloth_at_its_height():
    w, cloth, v, t = flat_cloth_world(z=0.5)
    hits = w.ray_test([0.13, -0.21, 2.0], [0.0, 0.0, -1.0], 10.0)
    assert len(hits) == 1
    h = hits[0]
    assert h.distance == pytest.approx(1.5, abs=1e-14)
    np.testing.assert_allclose(h.position, [0.13, -0.21, 0.5], atol=1e-14)
    np.testing.assert_allclose(h.normal, [0.0, 0.0, 1.0], atol=1e-14)  # facing the ray
    assert h.deformable_id == cloth.id and h.object_id == -1 and h.object is None
    assert w.get_deformable(h.deformable_id) == cloth
    # the triangle named holds the hit point (barycentric coordinates in [0, 1])
    a, b, c = v[t[h.triangle]]
    lam = np.linalg.lstsq(np.c_[b - a, c - a], h.position - a, rcond=None)[0]
    assert lam.min() >= -1e-12 and lam.sum() <= 1 + 1e-12
    # from below: the normal faces the ray; beside the cloth: no hit; the mask filters it
    up = w.ray_test([0.13, -0.21, -1.0], [0.0, 0.0, 1.0], 10.0)[0]
    assert up.distance == pytest.approx(1.5, abs=1e-14)
    np.testing.assert_allclose(up.normal, [0.0, 0.0, -1.0], atol=1e-14)
    assert w.ray_test([0.6, 0.0, 2.0], [0.0, 0.0, -1.0], 10.0) == []
    assert w.ray_test([0.0, 0.0, 2.0], [0.0, 0.0, -1.0], 10.0, collision_mask=2) == []
    assert w.ray_test([0.0, 0.0, 2.0], [0.0, 0.0, -1.0], 1.4) == []  # too short


def test_the_closer_of_a_body_and_a_cloth_is_reported():
    w, cloth, _, _ = flat_cloth_world(z=0.5)
    box = w.add_box(0.2, 0.2, 0.2, 1.0)
    box.set_position([0.0, 0.0, 1.0])
    box.set_body_type(torsion.BodyType.STATIC)
    above = w.ray_test([0.0, 0.0, 2.0], [0.0, 0.0, -1.0], 10.0)[0]
    assert above.object_id == box.get_id() and above.deformable_id == -1 and above.triangle == -1
    assert above.distance == pytest.approx(0.9, abs=1e-14)
    below = w.ray_test([0.0, 0.0, 0.0], [0.0, 0.0, 1.0], 10.0)[0]
    assert below.deformable_id == cloth.id and below.distance == pytest.approx(0.5, abs=1e-14)


def paraboloid(v, k=0.8, z0=0.3):
    return np.c_[v[:, :2], z0 + k * (v[:, 0] ** 2 + v[:, 1] ** 2)]


def test_rays_hit_a_displaced_cloth_on_its_triangles():
    """The cloth is set to a paraboloid at its vertices; each vertical ray's hit is the plane of
    the triangle below it, evaluated exactly (barycentric interpolation of the vertex heights)."""
    n = 10
    w = torsion.World()
    v, t = grid_cloth(n, n, 1.0, 1.0)
    cloth = w.add_deformable_cloth(v, t)
    x = paraboloid(v)
    cloth.set_positions(x)
    rng = np.random.default_rng(3)
    xy = rng.uniform(-0.49, 0.49, size=(200, 2))
    starts = np.c_[xy, np.full(len(xy), 3.0)]
    dirs = np.tile([0.0, 0.0, -1.0], (len(xy), 1))
    res = w.ray_test_batch(starts, dirs, np.full(len(xy), 10.0))
    assert res.hit.all()
    assert (res.deformable_id == cloth.id).all() and (res.object_index == -1).all()
    for i in range(len(xy)):
        a, b, c = x[t[res.triangle[i]]]
        # the point of the triangle's plane over xy[i]
        lam = np.linalg.solve(np.c_[(b - a)[:2], (c - a)[:2]], xy[i] - a[:2])
        assert lam.min() >= -1e-9 and lam.sum() <= 1 + 1e-9  # the ray crosses this triangle
        z = a[2] + lam @ [b[2] - a[2], c[2] - a[2]]
        assert res.position[i, 2] == pytest.approx(z, abs=1e-13)
        assert res.distance[i] == pytest.approx(3.0 - z, abs=1e-13)
        nrm = np.cross(b - a, c - a)
        nrm /= np.linalg.norm(nrm) * np.sign(nrm[2])
        np.testing.assert_allclose(res.normal[i], nrm, atol=1e-12)
        # the batch is ray_test, bit for bit
        h = w.ray_test(starts[i], dirs[i], 10.0)[0]
        assert h.distance == res.distance[i] and h.triangle == res.triangle[i]
    # and the surface moved with the particles: the paraboloid's height, within the chordal error
    exact = 0.3 + 0.8 * (xy ** 2).sum(1)
    assert np.abs(res.position[:, 2] - exact).max() < 0.8 * (1.0 / n) ** 2


def test_a_tilted_cloth_and_a_ray_at_an_angle():
    w = torsion.World()
    v, t = grid_cloth(6, 6, 1.0, 1.0)
    cloth = w.add_deformable_cloth(v, t)
    # the plane z = 0.2 + 0.5 x
    cloth.set_positions(np.c_[v[:, :2], 0.2 + 0.5 * v[:, 0]])
    s = np.array([-1.0, 0.1, 1.0])
    d = np.array([1.0, 0.0, -1.0]) / np.sqrt(2.0)
    # s + t d on the plane: 1 - t / sqrt2 = 0.2 + 0.5 (-1 + t / sqrt2) -> t = 1.3 sqrt2 / 1.5
    t_exact = 1.3 * np.sqrt(2.0) / 1.5
    h = w.ray_test(s, d, 10.0)[0]
    assert h.distance == pytest.approx(t_exact, abs=1e-14)
    n = np.array([-0.5, 0.0, 1.0]) / np.sqrt(1.25)
    np.testing.assert_allclose(h.normal, n, atol=1e-14)


def test_a_solid_is_seen_by_its_outer_faces():
    w = torsion.World()
    v, tets = box_tetrahedra(2, 2, 2, 0.2, 0.2, 0.2, origin=(-0.1, -0.1, 0.0))
    solid = w.add_deformable_volume(v, tets)
    h = w.ray_test([0.03, 0.04, 1.0], [0.0, 0.0, -1.0], 10.0)[0]
    assert h.deformable_id == solid.id
    assert h.distance == pytest.approx(0.8, abs=1e-14)
    np.testing.assert_allclose(h.normal, [0, 0, 1], atol=1e-14)
    side = w.ray_test([1.0, 0.02, 0.05], [-1.0, 0.0, 0.0], 10.0)[0]
    assert side.distance == pytest.approx(0.9, abs=1e-14)
    np.testing.assert_allclose(side.normal, [1, 0, 0], atol=1e-14)
    # a ray from inside sees the exit face with its outward normal
    inside = w.ray_test([0.0, 0.0, 0.1], [0.0, 0.0, 1.0], 10.0)[0]
    assert inside.distance == pytest.approx(0.1, abs=1e-14)
    np.testing.assert_allclose(inside.normal, [0, 0, 1], atol=1e-14)
    surface = solid.get_surface_triangles()
    assert 0 <= h.triangle < len(surface)
    assert np.allclose(v[surface[h.triangle]][:, 2], 0.2)


def test_lidar_sees_a_cloth():
    w, cloth, _, _ = flat_cloth_world(z=0.5, size=2.0)
    # a fan of rays looking down from 1 m above the cloth
    pts = w.ray_test_lidar(np.eye(3), [0.0, 0.0, 1.5], 0.0, 0.5, 4, -1.2, 0.1, 3, 0.0, 5.0)
    assert len(pts) == 12
    np.testing.assert_allclose(pts[:, 2], -1.0, atol=1e-13)  # sensor frame: 1 m below


def test_depth_camera_sees_a_cloth_and_names_it():
    w, cloth, _, _ = flat_cloth_world(z=0.0, size=4.0)
    # looking straight down from 1 m: depth along +X is the height
    rot = np.array([[0.0, 0.0, 1.0], [0.0, 1.0, 0.0], [-1.0, 0.0, 0.0]])  # +X down
    props = torsion.DepthCameraProperties(width=16, height=12, hfov=60.0, point_cloud=True)
    f = w.capture_depth_camera([0.1, 0.0, 1.0], rot, props)
    np.testing.assert_allclose(f.depth, 1.0, atol=1e-13)
    assert (f.deformable_id == cloth.id).all()
    assert (f.segmentation == -1).all() and (f.object_id == -1).all() and (f.link == -1).all()
    assert f.triangle.min() >= 0
    np.testing.assert_allclose(f.point_cloud[..., 2], 0.0, atol=1e-13)
    # after a step the camera sees the moved cloth (the scene follows the particles)
    cloth.set_positions(cloth.get_positions() + [0.0, 0.0, 0.25])
    f2 = w.capture_depth_camera([0.1, 0.0, 1.0], rot, props)
    np.testing.assert_allclose(f2.depth, 0.75, atol=1e-13)
    w.remove_deformable(cloth)
    f3 = w.capture_depth_camera([0.1, 0.0, 1.0], rot, props)
    assert (f3.deformable_id == -1).all() and (f3.depth == props.clip_far).all()
