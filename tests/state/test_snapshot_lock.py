"""Single-body snapshots and clones, the world lock, the lifetime identity."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import torsion

G = 9.81


def world_with(kind):
    w = torsion.World()
    w.add_ground()
    make = {
        "sphere": lambda: w.add_sphere(0.1, 2.0, material="steel", collision_group=2, collision_mask=3),
        "box": lambda: w.add_box(0.1, 0.2, 0.3, 2.0, material="steel", collision_group=2, collision_mask=3),
        "cylinder": lambda: w.add_cylinder(0.1, 0.3, 2.0, material="steel", collision_group=2, collision_mask=3),
        "capsule": lambda: w.add_capsule(0.1, 0.3, 2.0, material="steel", collision_group=2, collision_mask=3),
    }[kind]
    o = make()
    o.set_position([0.0, 0.0, 2.0])
    o.set_orientation([np.cos(0.2), 0.0, np.sin(0.2), 0.0])
    o.set_velocity([1.0, 0.0, 0.5], [0.0, 0.0, 3.0])
    return w, o


@pytest.mark.parametrize("kind", ["sphere", "box", "cylinder", "capsule"])
def test_clone_moves_like_the_source(kind):
    w, o = world_with(kind)
    o.set_inertia(np.diag([0.011, 0.012, 0.013]))
    o.set_linear_damping(0.2)
    c = w.clone_single_body_object(o, "twin")
    assert c.get_name() == "twin" and c.get_id() != o.get_id()
    assert c.get_object_type() == o.get_object_type()
    assert c.get_material() == "steel"
    assert (c.get_collision_group(), c.get_collision_mask()) == (2, 3)
    assert c.get_mass() == o.get_mass()
    assert np.array_equal(c.get_inertia_matrix_b(), o.get_inertia_matrix_b())
    # the clone starts where the source is (they would collide: group 2 & mask 3); moved 5 m
    # away, both fly free and their trajectories are the same up to the offset
    c.set_position(o.get_position() + [5.0, 0.0, 0.0])
    w.integrate(300)
    assert np.allclose(c.get_position() - o.get_position(), [5.0, 0.0, 0.0], atol=1e-12)
    assert np.array_equal(c.get_quaternion(), o.get_quaternion())
    assert np.array_equal(c.get_angular_velocity(), o.get_angular_velocity())


def test_clone_of_ground_and_of_foreign_object():
    w = torsion.World()
    g = w.add_ground()
    with pytest.raises(ValueError, match="sphere, box, cylinder and capsule"):
        w.clone_single_body_object(g)
    other = torsion.World()
    s = other.add_sphere(0.1, 1.0)
    with pytest.raises(ValueError, match="another World"):
        w.clone_single_body_object(s)


@pytest.mark.parametrize("kind", ["sphere", "box"])
def test_snapshot_restores_the_trajectory(kind):
    w, o = world_with(kind)
    o.set_external_force([0.0, 3.0, 0.0])
    snap = w.capture_single_body_snapshot(o)
    assert np.array_equal(snap.position, [0.0, 0.0, 2.0])
    assert snap.material == "steel" and snap.collision_group == 2
    w.integrate(200)
    p_ref, v_ref = o.get_position(), o.get_linear_velocity()
    # free flight (semi-implicit Euler): x = n dt vx; the pending force acts for the first step
    # only, so vy = F/m dt and y = n dt vy; z follows the closed form z0 + n dt vz - g dt^2 n(n+1)/2
    n, dt = 200, 1e-3
    assert p_ref[0] == pytest.approx(1.0 * n * dt, rel=1e-12)
    assert p_ref[1] == pytest.approx(n * dt * 3.0 / 2.0 * dt, rel=1e-9)
    assert p_ref[2] == pytest.approx(2.0 + n * dt * 0.5 - G * dt * dt * n * (n + 1) / 2, rel=1e-12)
    w.set_object_material(o, "rubber")
    w.set_object_collision_filter(o, 4, 4)
    w.set_world_time(0.0)
    w.restore_single_body_snapshot(snap, o.get_id())
    assert o.get_material() == "steel" and o.get_collision_group() == 2
    w.integrate(200)
    assert np.array_equal(o.get_position(), p_ref)
    assert np.array_equal(o.get_linear_velocity(), v_ref)
    # by handle, keeping the collision properties
    w.set_object_material(o, "rubber")
    w.restore_single_body_snapshot(snap, o, restore_collision_properties=False)
    assert o.get_material() == "rubber"


def test_snapshot_rejections():
    w, o = world_with("sphere")
    snap = w.capture_single_body_snapshot(o)
    b = w.add_box(0.1, 0.1, 0.1, 1.0)
    with pytest.raises(ValueError, match="Sphere.*Box"):
        w.restore_single_body_snapshot(snap, b)
    with pytest.raises(ValueError, match="no object with id"):
        w.restore_single_body_snapshot(snap, 12345)
    with pytest.raises(ValueError, match="obj_or_id"):
        w.restore_single_body_snapshot(snap, "sphere")
    w.integrate1()
    with pytest.raises(RuntimeError):
        w.restore_single_body_snapshot(snap, o)
    w.integrate2()


def test_lock_context_manager_and_threads():
    w = torsion.World()
    w.add_sphere(0.1, 1.0)
    assert not w.is_locked()
    with w.lock() as locked:
        assert locked is w and w.is_locked()
        assert not w.try_lock()  # not recursive
        with pytest.raises(RuntimeError, match="already held"):
            w.lock()
    assert not w.is_locked()
    with pytest.raises(RuntimeError, match="not held"):
        w.unlock()
    # another thread waits for the lock, then steps the world
    order = []
    w.lock_mutex()

    def worker():
        with w.lock():
            order.append("worker")
            w.integrate(10)

    t = threading.Thread(target=worker)
    t.start()
    t.join(timeout=0.2)
    assert t.is_alive() and order == []  # blocked while we hold it
    order.append("main")
    w.unlock_mutex()
    t.join(timeout=30)
    assert order == ["main", "worker"]
    assert w.get_world_time() == pytest.approx(0.01)
    # unlocking a lock held by another thread is refused
    assert w.try_lock()
    err = []
    th = threading.Thread(target=lambda: err.append(pytest.raises(RuntimeError, w.unlock)))
    th.start()
    th.join()
    assert err and w.is_locked()
    w.unlock()


def test_lifetime_identity():
    a, b = torsion.World(), torsion.World()
    assert a.get_lifetime_identity() != b.get_lifetime_identity()
    ids = set()
    for _ in range(50):
        ids.add(torsion.World().get_lifetime_identity())  # freed and reallocated worlds
    assert len(ids) == 50 and a.get_lifetime_identity() not in ids
