"""Copies of a world with deformables: WorldBatch.from_world (batch/world_copy.cpp) and the lean
state (World.capture_state / restore_state, batch/lean_state.cpp) carry the particles, so copies
and restored worlds step bitwise as the world itself."""

import numpy as np
import pytest

import torsion
from torsion.deformable import box_tetrahedra, grid_cloth


def scene():
    w = torsion.World()
    w.set_time_step(2e-3)
    w.add_ground()
    ball = w.add_sphere(0.1, 1.0)
    ball.set_body_type(torsion.BodyType.STATIC)
    ball.set_position([0.0, 0.0, 0.1])
    mat = torsion.DeformableMaterial(areal_density=0.2, stretch_compliance=1e-6,
                                     bending_compliance=1e-2, damping=1.0, proxy_radius=0.01)
    v, t = grid_cloth(8, 8, 0.4, 0.4, center=(0.0, 0.0, 0.35))
    cloth = w.add_deformable_cloth(v, t, material=mat)
    # a free box dropped on the cloth (two-way coupling) and a handle the cloth hangs from
    box = w.add_box(0.08, 0.08, 0.08, 0.5)
    box.set_position([0.05, 0.0, 0.45])
    handle = w.add_sphere(0.02, 0.3, collision_group=0, collision_mask=0)
    handle.set_position(v[0])
    cloth.attach_vertex(0, handle)
    bv, bt = box_tetrahedra(2, 2, 2, 0.1, 0.1, 0.1, origin=(0.5, 0.0, 0.2))
    w.add_deformable_volume(bv, bt, material=torsion.DeformableMaterial(
        youngs_modulus=1e5, damping=2.0, substeps=2, proxy_radius=0.005))
    w.integrate(20)
    return w


def test_from_world_copies_deformables_and_steps_bitwise():
    src = scene()
    batch = torsion.WorldBatch.from_world(src, 2, num_threads=2)
    assert set(batch.state_hashes().tolist()) == {src.state_hash()}
    assert batch.world(0).get_topology_fingerprint() == src.get_topology_fingerprint()
    copies = batch.world(1).get_deformables()
    assert [d.id for d in copies] == [d.id for d in src.get_deformables()]
    src.integrate(150)
    batch.integrate(150)
    assert set(batch.state_hashes().tolist()) == {src.state_hash()}
    for a, b in zip(src.get_deformables(), batch.world(0).get_deformables()):
        np.testing.assert_array_equal(a.get_positions(), b.get_positions())
        np.testing.assert_array_equal(a.get_velocities(), b.get_velocities())
    # the copies are independent: moving one's cloth leaves the source and the other alone
    c = batch.world(1).get_deformables()[0]
    c.set_velocities(c.get_velocities() + [0.0, 0.0, 0.5])
    batch.integrate(5)
    src.integrate(5)
    h = batch.state_hashes()
    assert h[0] == src.state_hash() and h[1] != h[0]


def test_lean_state_restores_deformables_bitwise():
    w = scene()
    state = w.capture_state()
    h0 = w.state_hash()
    w.integrate(100)
    x_ref, h_ref = w.get_deformables()[0].get_positions(), w.state_hash()
    assert h_ref != h0
    w.restore_state(state)
    assert w.state_hash() == h0
    w.integrate(100)
    assert w.state_hash() == h_ref
    np.testing.assert_array_equal(w.get_deformables()[0].get_positions(), x_ref)


def test_lean_state_refuses_a_changed_constraint_set():
    w = scene()
    state = w.capture_state()
    solid = w.get_deformables()[1]
    solid.set_material(torsion.DeformableMaterial(youngs_modulus=0.0))  # other constraints
    with pytest.raises((ValueError, RuntimeError), match="constraints"):
        w.restore_state(state)
