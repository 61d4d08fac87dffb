"""World.add_deformable_object with DeformableMeshOptions (the seed's addDeformableObject with
MeshBuildOptions; cpp/deformable/mesh_build.cpp): a closed OBJ filled with tetrahedra has the
mesh's volume and mass (exactly for a box the lattice fits, within 1.5 % for a sphere at a
spacing of an eighth of its radius), falls and rests on the ground; a surface shell with struts keeps its
shape; bad input is refused."""

import numpy as np
import pytest

import torsion

from ..meshes import box_mesh, icosphere, write_obj

RHO = 500.0


def tet_volume(x, tets):
    a, b, c, d = (x[tets[:, k]] for k in range(4))
    return np.einsum("ij,ij->i", b - a, np.cross(c - a, d - a)) / 6.0


def mesh_volume(v, f):
    return np.einsum("ij,ij->i", v[f[:, 0]], np.cross(v[f[:, 1]], v[f[:, 2]])).sum() / 6.0


def filled(path, spacing, **mat):
    w = torsion.World()
    m = torsion.DeformableMaterial(density=RHO, **mat)
    d = w.add_deformable_object(path, m, torsion.DeformableMeshOptions("filled", spacing=spacing))
    return w, d


def test_a_filled_box_has_the_mesh_volume_and_mass(tmp_path):
    v, f = box_mesh((0.2, 0.1, 0.15), centre=(0.0, 0.0, 0.3))
    w, d = filled(write_obj(tmp_path / "box.obj", v, f), 0.05)
    assert d.kind == "volume"
    x, tets = d.get_rest_positions(), d.get_tetrahedra()
    assert (tet_volume(x, tets) > 0).all()
    vol = 0.2 * 0.1 * 0.15
    assert tet_volume(x, tets).sum() == pytest.approx(vol, rel=1e-12)
    assert d.get_mass() == pytest.approx(RHO * vol, rel=1e-12)
    # the lattice fills it: 4 x 2 x 3 cells of 6 tetrahedra, every vertex inside the box
    assert len(tets) == 6 * 4 * 2 * 3
    assert (x.min(0) >= v.min(0) - 1e-15).all() and (x.max(0) <= v.max(0) + 1e-15).all()


@pytest.mark.parametrize("level", [2, 3])
def test_a_filled_sphere_has_the_mesh_volume_and_mass(tmp_path, level):
    r = 0.1
    v, f = icosphere(level, r)
    w, d = filled(write_obj(tmp_path / "ball.obj", v, f), r / 8)
    x, tets = d.get_rest_positions(), d.get_tetrahedra()
    vols = tet_volume(x, tets)
    assert vols.min() > 0.0
    vol = mesh_volume(v, f)
    assert vols.sum() == pytest.approx(vol, rel=0.015)
    assert d.get_mass() == pytest.approx(RHO * vol, rel=0.015)
    # its surface particles lie on the mesh's surface (within the chordal gap of its faces)
    surface = np.unique(d.get_surface_triangles())
    rad = np.linalg.norm(x[surface], axis=1)
    assert rad.max() < 1.02 * r  # (a vertex pulled back off the surface may be just outside)
    assert rad.min() > r * 0.8
    # and it is mass-centred on the mesh's centre
    com = (d.get_masses()[:, None] * x).sum(0) / d.get_mass()
    assert np.abs(com).max() < 0.01 * r


def test_a_filled_sphere_falls_and_rests_on_the_ground(tmp_path):
    r = 0.1
    v, f = icosphere(2, r)
    v = v + [0.0, 0.0, 0.3]
    w, d = filled(write_obj(tmp_path / "ball.obj", v, f), r / 3, youngs_modulus=2e5,
                  poisson_ratio=0.3, damping=4.0, substeps=4, proxy_radius=0.003)
    w.set_time_step(2e-3)
    w.add_ground()
    w.integrate(1500)
    x = d.get_positions()
    assert x[:, 2].min() == pytest.approx(0.003, abs=2e-4)  # on the ground, by its proxies
    assert d.get_kinetic_energy() < 1e-5  # 2.1 kg: under 3 mm/s
    assert np.isfinite(x).all()
    # it rests where it fell, about its size (a soft ball flattens a little)
    c = x.mean(0)
    assert np.abs(c[:2]).max() < 0.01
    assert 0.15 < np.ptp(x[:, 2]) <= 0.2 + 1e-9


def test_a_surface_shell_with_struts(tmp_path):
    r = 0.1
    v, f = icosphere(2, r)
    path = write_obj(tmp_path / "ball.obj", v + [0.0, 0.0, 0.3], f)
    w = torsion.World()
    w.set_time_step(2e-3)
    w.add_ground()
    mat = torsion.DeformableMaterial(areal_density=0.5, stretch_compliance=1e-2,
                                     bending_compliance=1.0, damping=2.0, proxy_radius=0.003,
                                     substeps=2)
    shell = w.add_deformable_object(path, mat, torsion.DeformableMeshOptions("surface"))
    ball = w.add_deformable_object(path, mat, torsion.DeformableMeshOptions("surface", struts=True))
    assert shell.kind == ball.kind == "cloth"
    assert len(shell.get_struts()) == 0
    struts = ball.get_struts()
    assert len(struts) >= len(v) // 2
    # each strut crosses the inside: its midpoint is well inside the sphere
    mid = 0.5 * (v[struts[:, 0]] + v[struts[:, 1]])
    assert np.linalg.norm(mid, axis=1).max() < 0.5 * r
    np.testing.assert_array_equal(shell.get_positions(), v + [0.0, 0.0, 0.3])
    assert ball.get_mass() == shell.get_mass()  # struts carry no mass
    w.integrate(800)
    # soft edges: the struts hold the ball's height (98 %); the bare shell slumps (78 %)
    assert np.ptp(ball.get_positions()[:, 2]) > 0.95 * 2 * r
    assert np.ptp(shell.get_positions()[:, 2]) < 0.85 * 2 * r


def test_bad_input_is_refused(tmp_path):
    w = torsion.World()
    v, f = box_mesh((0.1, 0.1, 0.1))
    closed = write_obj(tmp_path / "box.obj", v, f)
    open_ = write_obj(tmp_path / "open.obj", v, f[:-2])
    mat = torsion.DeformableMaterial()
    with pytest.raises(ValueError, match="closed"):
        w.add_deformable_object(open_, mat, torsion.DeformableMeshOptions("filled"))
    with pytest.raises(ValueError, match="mode"):
        torsion.DeformableMeshOptions("solid")
    with pytest.raises(ValueError, match="spacing"):
        torsion.DeformableMeshOptions("filled", spacing=-1.0)
    with pytest.raises(ValueError, match="scale"):
        torsion.DeformableMeshOptions("filled", scale=0.0)
    with pytest.raises(ValueError, match="lattice cells"):
        w.add_deformable_object(closed, mat, torsion.DeformableMeshOptions("filled", spacing=1e-5))
    with pytest.raises(ValueError, match="struts"):
        w.add_deformable_object(closed, mat, torsion.DeformableMeshOptions("filled", struts=True))
    with pytest.raises((ValueError, OSError, RuntimeError)):
        w.add_deformable_object(str(tmp_path / "missing.obj"), mat)
    assert w.get_deformable_count() == 0


def test_struts_are_in_the_world_file(tmp_path):
    v, f = icosphere(1, 0.1)
    path = write_obj(tmp_path / "ball.obj", v + [0.0, 0.0, 0.3], f)
    w = torsion.World()
    w.add_ground()
    ball = w.add_deformable_object(path, torsion.DeformableMaterial(),
                                   torsion.DeformableMeshOptions("surface", struts=True))
    w.integrate(10)
    w.export_to_xml(str(tmp_path / "w.xml"))
    w2 = torsion.World(str(tmp_path / "w.xml"))
    np.testing.assert_array_equal(w2.get_deformables()[0].get_struts(), ball.get_struts())
    assert w2.get_topology_fingerprint() == w.get_topology_fingerprint()
    assert w2.state_hash() == w.state_hash()
