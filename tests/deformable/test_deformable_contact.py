"""Deformables against the world: collision proxies meeting rigid shapes through the filters and
materials, attachments to rigid bodies, checkpoints and the state hash."""

import numpy as np
import pytest

import torsion
from torsion.deformable import box_tetrahedra, grid_cloth

R = 0.01  # proxy radius (m)


def cloth_world(n=16, size=0.8, height=0.6, **material):
    w = torsion.World()
    w.set_time_step(2e-3)
    v, t = grid_cloth(n, n, size, size, center=(0.0, 0.0, height))
    mat = torsion.DeformableMaterial(areal_density=0.2, stretch_compliance=1e-6,
                                     bending_compliance=1e-2, damping=1.0, iterations=10,
                                     proxy_radius=R, **material)
    return w, v, t, mat


def static(body):
    body.set_body_type(torsion.BodyType.STATIC)
    return body


def test_cloth_drapes_over_a_sphere_without_passing_through():
    w, v, t, mat = cloth_world()
    ball = static(w.add_sphere(0.2, 1.0))
    ball.set_position([0.0, 0.0, 0.2])
    cloth = w.add_deformable_cloth(v, t, material=mat)
    closest = np.inf
    for _ in range(60):
        w.integrate(25)
        x = cloth.get_positions()
        d = np.linalg.norm(x - [0.0, 0.0, 0.2], axis=1)
        closest = min(closest, d.min())
    # never inside the sphere (its surface plus the proxy radius, less a small tolerance)
    assert closest > 0.2 + R - 2e-3
    x = cloth.get_positions()
    # it drapes: the corners hang well below the top of the sphere, the centre rests on it
    centre = len(v) // 2
    assert abs(np.linalg.norm(x[centre] - [0, 0, 0.2]) - (0.2 + R)) < 2e-3
    assert x[[0, 16, len(v) - 17, len(v) - 1], 2].max() < 0.25
    assert np.isfinite(x).all()


def test_cloth_rests_on_a_box_and_the_filter_lets_it_through():
    w, v, t, mat = cloth_world(n=10, size=0.4, height=0.3)
    box = static(w.add_box(1.0, 1.0, 0.2, 1.0, collision_group=2))
    box.set_position([0.0, 0.0, 0.1])
    cloth = w.add_deformable_cloth(v, t, material=mat)
    ghost = w.add_deformable_cloth(v + [0.0, 0.0, 0.1], t, material=mat, collision_mask=~2)
    w.integrate(600)
    x = cloth.get_positions()
    assert np.abs(x[:, 2] - (0.2 + R)).max() < 2e-3  # flat on the top face
    assert cloth.get_kinetic_energy() < 1e-8
    # the ghost's mask leaves out the box's group: it fell through
    assert ghost.get_positions()[:, 2].max() < 0.0


def test_friction_from_the_material_pair():
    """A cloth sliding on a tilted box stops with friction and slides without."""
    def slide(mu):
        w, v, t, mat = cloth_world(n=4, size=0.2, height=0.5)
        w.set_material_pair_prop("cloth", "slope", mu, 0.0, 0.0)
        slope = static(w.add_box(2.0, 2.0, 0.2, 1.0, material="slope"))
        c, s = np.cos(0.3), np.sin(0.3)
        slope.set_orientation([np.cos(0.15), 0.0, np.sin(0.15), 0.0])  # 0.3 rad about y
        cloth = w.add_deformable_cloth(v, t, material=mat, contact_material="cloth")
        w.integrate(300)
        p0 = cloth.get_positions().mean(axis=0)
        w.integrate(300)
        return np.linalg.norm(cloth.get_positions().mean(axis=0) - p0)
    assert slide(1.0) < 1e-3  # tan(0.3) = 0.31 < 1: it sticks
    assert slide(0.0) > 0.05


def test_a_solid_falls_on_the_ground_and_rests():
    w = torsion.World()
    w.set_time_step(2e-3)
    w.add_ground()
    v, t = box_tetrahedra(3, 3, 3, 0.1, 0.1, 0.1, origin=(0.0, 0.0, 0.2))
    mat = torsion.DeformableMaterial(density=500.0, youngs_modulus=1e5, poisson_ratio=0.3,
                                     proxy_radius=0.002, damping=2.0, substeps=4)
    s = w.add_deformable_volume(v, t, material=mat)
    w.integrate(1500)
    x = s.get_positions()
    assert x[:, 2].min() == pytest.approx(0.002, abs=1e-4)  # on the ground, by its proxies
    assert s.get_kinetic_energy() < 1e-7
    # it landed where it fell (a jelly cube: it spreads and settles, within 2.5 cm)
    assert np.linalg.norm(x.mean(axis=0)[:2] - v.mean(axis=0)[:2]) < 0.025
    # and stands about its rest height (soft: E = 1e5 Pa sags under its own weight)
    assert 0.08 < np.ptp(x[:, 2]) < 0.1


def test_vertex_attached_to_a_body_follows_it():
    w, v, t, mat = cloth_world(n=4, size=0.2, height=1.0)
    w.set_gravity([0.0, 0.0, 0.0])
    handle = w.add_sphere(0.02, 1.0, collision_group=0, collision_mask=0)
    handle.set_position(v[0])
    cloth = w.add_deformable_cloth(v, t, material=mat)
    cloth.attach_vertex(0, handle)
    handle.set_velocity([0.5, 0.0, 0.0], [0.0, 0.0, 0.0])
    w.integrate(200)
    np.testing.assert_allclose(cloth.get_positions()[0], handle.get_position(), atol=1e-12)
    assert cloth.get_positions()[:, 0].mean() > v[:, 0].mean() + 0.1  # the cloth was dragged
    w.remove_object(handle)
    w.integrate(1)  # the attachment is gone with its body; the vertex is free


def test_checkpoint_and_state_hash_replay_a_cloth_bitwise():
    w, v, t, mat = cloth_world(n=8, size=0.4, height=0.4)
    ball = static(w.add_sphere(0.1, 1.0))
    ball.set_position([0.0, 0.0, 0.1])
    cloth = w.add_deformable_cloth(v, t, material=mat)
    w.integrate(100)
    cp = w.capture_checkpoint()
    h = w.state_hash()
    w.integrate(100)
    x_ref, h_ref = cloth.get_positions(), w.state_hash()
    assert h_ref != h
    w.restore_checkpoint(cp)
    assert w.state_hash() == h
    w.integrate(100)
    np.testing.assert_array_equal(cloth.get_positions(), x_ref)
    assert w.state_hash() == h_ref
    # the bytes reload in a world built the same way
    w2, v2, t2, mat2 = cloth_world(n=8, size=0.4, height=0.4)
    b2 = static(w2.add_sphere(0.1, 1.0))
    b2.set_position([0.0, 0.0, 0.1])
    c2 = w2.add_deformable_cloth(v2, t2, material=mat2)
    w2.restore_checkpoint(torsion.Checkpoint.from_bytes(cp.to_bytes()))
    w2.integrate(100)
    np.testing.assert_array_equal(c2.get_positions(), x_ref)
    # adding a deformable changes the configuration: the old checkpoint is refused
    w.add_deformable_cloth(v, t, material=mat)
    with pytest.raises((RuntimeError, ValueError)):
        w.restore_checkpoint(cp)


def test_same_inputs_same_bits():
    def run():
        w, v, t, mat = cloth_world(n=8, size=0.4, height=0.4, self_collision=True)
        ball = static(w.add_sphere(0.1, 1.0))
        ball.set_position([0.0, 0.0, 0.1])
        cloth = w.add_deformable_cloth(v, t, material=mat)
        w.integrate(300)
        return cloth.get_positions(), w.state_hash()
    (a, ha), (b, hb) = run(), run()
    np.testing.assert_array_equal(a, b)
    assert ha == hb


def test_world_xml_round_trip(tmp_path):
    """A world file holds the deformables: reloaded, the same state hash, and the same future."""
    w, v, t, mat = cloth_world(n=6, size=0.3, height=0.4)
    ball = static(w.add_sphere(0.1, 1.0))
    ball.set_position([0.0, 0.0, 0.1])
    w.add_deformable_cloth(v, t, pinned_vertices=[0], material=mat, contact_material="silk",
                           collision_mask=~4)
    bv, bt = box_tetrahedra(2, 2, 2, 0.1, 0.1, 0.1, origin=(0.5, 0.0, 0.3))
    w.add_deformable_volume(bv, bt, material=torsion.DeformableMaterial(youngs_modulus=1e5))
    path = tmp_path / "cloth.xml"
    w.export_to_xml(str(path))
    w2 = torsion.World(str(path))
    assert w2.state_hash() == w.state_hash()
    d2 = w2.get_deformables()
    assert [d.kind for d in d2] == ["cloth", "volume"]
    assert d2[0].contact_material == "silk" and d2[0].collision_mask == (~4) & (2**64 - 1)
    assert d2[0].get_pinned()[0]
    w.integrate(50)
    w2.integrate(50)
    np.testing.assert_array_equal(d2[0].get_positions(), w.get_deformables()[0].get_positions())
    # mid-simulation: positions and velocities are written and read back exactly
    w.export_to_xml(str(path))
    w3 = torsion.World(str(path))
    for a, b in zip(w.get_deformables(), w3.get_deformables()):
        np.testing.assert_array_equal(a.get_positions(), b.get_positions())
        np.testing.assert_array_equal(a.get_velocities(), b.get_velocities())


def test_world_xml_carries_attachments(tmp_path):
    """Attached vertices are written with their body (by world index) and offset, the body's
    pending reaction with it: the reloaded world has the same future. (Not bit for bit: the XML
    does not hold a spinning body's start-of-step angular velocity, a checkpoint field.)"""
    w, v, t, mat = cloth_world(n=4, size=0.2, height=1.0)
    w.add_ground()
    body = w.add_sphere(0.02, 1.0, collision_group=2, collision_mask=2)
    body.set_position(v[0] + [0.0, 0.0, 0.01])
    cloth = w.add_deformable_cloth(v, t, material=mat, collision_mask=1)
    cloth.attach_vertex(0, body)
    cloth.attach_vertex(4, body, world_point=v[4] + [0.0, 0.0, 0.02])
    w.integrate(20)
    path = tmp_path / "x.xml"
    w.export_to_xml(str(path))
    w2 = torsion.World(str(path))
    c2, b2 = w2.get_deformables()[0], w2.get_object_list()[1]
    np.testing.assert_array_equal(c2.get_positions(), cloth.get_positions())
    w.integrate(100)
    w2.integrate(100)
    np.testing.assert_allclose(c2.get_positions(), cloth.get_positions(), rtol=0, atol=1e-12)
    np.testing.assert_allclose(b2.get_position(), body.get_position(), rtol=0, atol=1e-12)
    # the body fell with the cloth hanging from it: the attachments held
    assert np.linalg.norm(c2.get_positions()[0] - b2.get_position()) == pytest.approx(0.01, abs=1e-12)
    assert body.get_position()[2] < 0.9
    # a bad attachment in the file is refused, naming it
    text = path.read_text().replace('vertex="4"', 'vertex="99"')
    path.write_text(text)
    with pytest.raises(ValueError, match="vertex"):
        torsion.World(str(path))
