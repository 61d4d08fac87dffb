"""Convex hulls against scipy.spatial.ConvexHull (Qhull), and exact polyhedral mass properties
against closed forms and against trimesh's own integrals."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy.spatial import ConvexHull

import torsion


def _canon(points):
    return sorted(map(tuple, np.round(np.asarray(points), 12)))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(4, 200), flat=st.booleans())
def test_hull_of_random_points_matches_qhull(seed, n, flat):
    rng = np.random.default_rng(seed)
    pts = rng.normal(size=(n, 3)) * ([1.0, 0.3, 2.0] if flat else 1.0) + rng.normal(size=3) * 5
    try:
        ref = ConvexHull(pts)
    except Exception:  # Qhull refuses a degenerate set: so must we
        with pytest.raises(ValueError):
            torsion.convex_hull(pts)
        return
    verts, tris, faces = torsion.convex_hull(pts)
    assert _canon(verts) == _canon(pts[ref.vertices])
    vol, com, inertia = torsion.mesh_mass_properties(verts, tris)
    assert vol == pytest.approx(ref.volume, rel=1e-9)
    assert torsion.mesh_is_closed(verts, tris)
    # every face polygon is planar, convex-outward and has every point below it
    for f in faces:
        p = verts[f]
        n_ = np.cross(p[1] - p[0], p[2] - p[0])
        n_ /= np.linalg.norm(n_)
        assert np.all(pts @ n_ <= p[0] @ n_ + 1e-9 * (1 + np.abs(pts).max()))


def test_cube_with_duplicates_and_coplanar_points_has_8_vertices_and_6_quads():
    corners = np.array(list(itertools.product((-1.0, 1.0), repeat=3)))
    face_centres = np.vstack([np.eye(3), -np.eye(3)])
    edge_mids = np.array([p for p in itertools.product((-1.0, 0.0, 1.0), repeat=3) if sorted(np.abs(p)) == [0, 1, 1]])
    inner = np.random.default_rng(1).uniform(-0.9, 0.9, size=(100, 3))
    pts = np.vstack([corners, corners, face_centres, edge_mids, inner, corners[:3]])
    verts, tris, faces = torsion.convex_hull(pts)
    assert _canon(verts) == _canon(corners)
    assert len(faces) == 6 and all(len(f) == 4 for f in faces)
    assert torsion.mesh_mass_properties(verts, tris)[0] == pytest.approx(8.0, rel=1e-12)


def test_hull_is_deterministic():
    pts = np.random.default_rng(3).normal(size=(500, 3))
    a, b = torsion.convex_hull(pts), torsion.convex_hull(pts)
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1]) and a[2] == b[2]


@pytest.mark.parametrize(
    "pts, match",
    [
        (np.zeros((3, 3)), "at least 4 points"),
        (np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0], [2, 3, 0]], float), "coplanar"),
        (np.array([[0, 0, 0], [1, 1, 1], [2, 2, 2], [3, 3, 3]], float), "collinear"),
        (np.ones((5, 3)), "coincide"),
        (np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, np.nan]]), "not finite"),
    ],
)
def test_degenerate_point_sets_raise(pts, match):
    with pytest.raises(ValueError, match=match):
        torsion.convex_hull(pts)
    with pytest.raises(ValueError, match=r"points must have shape \(N, 3\), got shape \(4, 2\)"):
        torsion.convex_hull(np.zeros((4, 2)))


def test_box_mass_properties_closed_form(kit):
    size, centre = np.array([0.4, 1.0, 2.2]), np.array([3.0, -1.0, 0.5])
    v, t = kit.box_mesh(size, centre)
    vol, com, inertia = torsion.mesh_mass_properties(v, t)
    assert vol == pytest.approx(np.prod(size), rel=1e-12)
    np.testing.assert_allclose(com, centre, atol=1e-12)
    l2 = size**2
    expected = np.diag(np.prod(size) / 12 * np.array([l2[1] + l2[2], l2[0] + l2[2], l2[0] + l2[1]]))
    np.testing.assert_allclose(inertia, expected, atol=1e-12)
    # rotated: I' = R I R^T
    from scipy.spatial.transform import Rotation

    r = Rotation.from_rotvec([0.3, -0.2, 0.9]).as_matrix()
    vol2, com2, inertia2 = torsion.mesh_mass_properties((v - centre) @ r.T, t)
    np.testing.assert_allclose(inertia2, r @ expected @ r.T, atol=1e-12)
    np.testing.assert_allclose(com2, 0.0, atol=1e-12)


def test_octahedron_closed_form():
    # |x| + |y| + |z| <= a: volume 4 a^3 / 3, I = m a^2 / 5 about every axis
    a = 0.7
    v, t, _ = torsion.convex_hull(a * np.vstack([np.eye(3), -np.eye(3)]))
    vol, com, inertia = torsion.mesh_mass_properties(v, t)
    assert vol == pytest.approx(4 * a**3 / 3, rel=1e-12)
    np.testing.assert_allclose(inertia, np.eye(3) * vol * a**2 / 5, atol=1e-13)


def test_icosphere_approaches_the_sphere_and_matches_trimesh(kit):
    import trimesh

    r = 0.3
    v, t = kit.icosphere(level=4, radius=r)
    assert torsion.mesh_is_closed(v, t)
    vol, com, inertia = torsion.mesh_mass_properties(v, t)
    assert vol == pytest.approx(4 / 3 * np.pi * r**3, rel=3e-3)
    np.testing.assert_allclose(inertia, np.eye(3) * 0.4 * vol * r**2, rtol=6e-3, atol=1e-15)
    # the polyhedron itself: trimesh's integrals (an independent implementation) agree exactly
    tm = trimesh.Trimesh(v + [1.0, 2.0, 3.0], t, process=False)
    vol2, com2, inertia2 = torsion.mesh_mass_properties(v + [1.0, 2.0, 3.0], t)
    assert vol2 == pytest.approx(tm.volume, rel=1e-12)
    np.testing.assert_allclose(com2, tm.center_mass, atol=1e-12)
    np.testing.assert_allclose(inertia2, tm.moment_inertia, atol=1e-12)


def test_inward_orientation_gives_the_same_properties(kit):
    v, t = kit.box_mesh((1.0, 2.0, 3.0))
    a = torsion.mesh_mass_properties(v, t)
    b = torsion.mesh_mass_properties(v, t[:, ::-1])
    assert a[0] == pytest.approx(b[0])
    np.testing.assert_allclose(a[2], b[2], atol=1e-12)


def test_open_and_flat_meshes_have_no_volume(kit):
    v, t = kit.box_mesh()
    assert not torsion.mesh_is_closed(v, t[:-2])
    flat = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], float)
    with pytest.raises(ValueError, match="encloses no volume"):
        torsion.mesh_mass_properties(flat, [[0, 1, 2], [0, 2, 1]])
