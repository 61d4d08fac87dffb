"""Object ids, names, world indices and the swap-with-last removal rule (World seed)."""

import numpy as np
import pytest

import torsion


def test_defaults():
    w = torsion.World()
    assert w.get_time_step() == 1e-3
    np.testing.assert_array_equal(w.get_gravity(), [0, 0, -9.81])
    assert w.get_world_time() == 0.0
    assert w.get_object_count() == 0


def test_add_returns_typed_handles():
    w = torsion.World()
    g = w.add_ground(0.25)
    objs = [w.add_sphere(0.1, 1), w.add_box(1, 2, 3, 1), w.add_cylinder(0.1, 0.5, 1), w.add_capsule(0.1, 0.5, 1)]
    assert isinstance(g, torsion.Ground) and g.get_height() == 0.25
    assert [type(o) for o in objs] == [torsion.Sphere, torsion.Box, torsion.Cylinder, torsion.Capsule]
    assert all(isinstance(o, torsion.SingleBodyObject) and isinstance(o, torsion.Object) for o in objs)
    assert [o.get_object_type() for o in objs] == [
        torsion.ObjectType.SPHERE,
        torsion.ObjectType.BOX,
        torsion.ObjectType.CYLINDER,
        torsion.ObjectType.CAPSULE,
    ]
    assert g.get_body_type() == torsion.BodyType.STATIC
    np.testing.assert_array_equal(g.get_position(), [0, 0, 0.25])


def test_collision_group_and_mask_defaults_and_64_bits():
    w = torsion.World()
    s = w.add_sphere(0.1, 1.0)
    assert s.get_collision_group() == 1
    assert s.get_collision_mask() == 2**64 - 1
    g = w.add_ground(collision_mask=0b101)
    assert g.get_collision_group() == 1 << 63  # the static group
    assert g.get_collision_mask() == 0b101
    b = w.add_box(1, 1, 1, 1.0, "steel", collision_group=1 << 63 | 1, collision_mask=2**64 - 2)
    assert b.get_collision_group() == (1 << 63) | 1
    assert b.get_collision_mask() == 2**64 - 2
    assert b.get_material() == "steel"


def test_ids_are_stable_and_never_reused_and_the_last_object_takes_the_removed_index():
    w = torsion.World()
    a, b, c, d = (w.add_sphere(0.1, 1.0) for _ in range(4))
    for i, o in enumerate((a, b, c, d)):
        o.set_name(f"s{i}")
    ids = [o.get_id() for o in (a, b, c, d)]
    assert len(set(ids)) == 4
    assert [o.get_index_in_world() for o in (a, b, c, d)] == [0, 1, 2, 3]
    n0 = w.get_configuration_number()

    w.remove_object(b)
    assert w.get_object_count() == 3
    assert d.get_index_in_world() == 1  # the last object took the removed index
    assert [o.get_name() for o in w.get_object_list()] == ["s0", "s3", "s2"]
    assert w.get_configuration_number() != n0
    assert not w.is_object_alive(ids[1]) and w.is_object_alive(ids[3])
    assert w.get_object_by_id(ids[1]) is None
    assert w.get_object_by_id(ids[3]) == d
    assert not b.is_alive()

    e = w.add_box(1, 1, 1, 1.0)
    assert e.get_id() not in ids  # never reused
    assert e.get_index_in_world() == 3

    w.remove_object(d)  # a middle one again
    assert e.get_index_in_world() == 1
    assert c.get_index_in_world() == 2
    w.remove_object(c)  # the last one: no swap
    assert e.get_index_in_world() == 1
    assert [o.get_id() for o in w.get_object_list()] == [ids[0], e.get_id()]


def test_get_object_by_name_and_index():
    w = torsion.World()
    a = w.add_sphere(0.1, 1.0)
    b = w.add_box(1, 1, 1, 1.0)
    b.set_name("crate")
    assert w.get_object("crate") == b
    assert isinstance(w.get_object("crate"), torsion.Box)
    assert w.get_object("nope") is None
    assert w.get_object(0) == a
    with pytest.raises(IndexError, match="out of range"):
        w.get_object(2)
    with pytest.raises(IndexError):
        w.get_object(-1)
    with pytest.raises(ValueError, match="name_or_index"):
        w.get_object(1.5)


def test_removed_handles_raise_and_never_touch_freed_memory():
    w = torsion.World()
    s = w.add_sphere(0.1, 1.0)
    w.add_box(1, 1, 1, 1.0)
    w.remove_object(s)
    for call in (
        s.get_position,
        s.get_name,
        s.get_id,
        s.get_radius,
        lambda: s.set_position([0, 0, 0]),
        lambda: s.set_external_force([1, 0, 0]),
        lambda: w.remove_object(s),
    ):
        with pytest.raises(torsion.RemovedObjectError, match="removed"):
            call()
    assert issubclass(torsion.RemovedObjectError, RuntimeError)
    assert "removed" in repr(s)


def test_handles_keep_the_world_alive():
    def make():
        w = torsion.World()
        return w.add_sphere(0.2, 1.0)

    s = make()  # the world has no other reference now
    s.set_position([1, 2, 3])
    np.testing.assert_array_equal(s.get_position(), [1, 2, 3])


def test_object_of_another_world_is_refused():
    w1, w2 = torsion.World(), torsion.World()
    s = w1.add_sphere(0.1, 1.0)
    with pytest.raises(ValueError, match="another World"):
        w2.remove_object(s)


def test_handle_equality_and_hash():
    w = torsion.World()
    s = w.add_sphere(0.1, 1.0)
    assert w.get_object(0) == s and hash(w.get_object(0)) == hash(s)
    assert s != w.add_sphere(0.1, 1.0)
    assert s != "sphere"


def test_world_time_and_steps():
    w = torsion.World()
    w.set_time_step(0.01)
    w.integrate(10)
    assert w.get_world_time() == pytest.approx(0.1)
    w.set_world_time(5.0)
    w.integrate()
    assert w.get_world_time() == pytest.approx(5.01)
    w.integrate(0)
    assert w.get_world_time() == pytest.approx(5.01)


def test_split_step_state_rules():
    w = torsion.World()
    s = w.add_sphere(0.1, 1.0)
    with pytest.raises(RuntimeError, match="integrate1"):
        w.integrate2()
    w.integrate1()
    for call in (w.integrate1, w.integrate, lambda: w.integrate(3), lambda: w.remove_object(s), lambda: w.add_sphere(0.1, 1.0)):
        with pytest.raises(RuntimeError, match="integrate"):
            call()
    w.integrate2()
    assert not w.is_mid_step()
    w.remove_object(s)


def test_names_with_a_nul_byte_are_refused():
    # a NUL byte was kept in the name and cut it short in export_to_xml: "a\0b" reloaded as "a"
    w = torsion.World()
    b = w.add_box(0.1, 0.1, 0.1, 1.0, material="m")
    # (a compound child is refused when it is made, with every other check of its material)
    child = lambda: torsion.CompoundObjectChild(torsion.ObjectType.SPHERE, [0.1, 0.0, 0.0],  # noqa: E731
                                                [0.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0], "a\0b")
    mm = torsion._core.MaterialManager()
    count = w.get_object_count()
    for what, call in [
        ("material", lambda: w.add_box(0.1, 0.1, 0.1, 1.0, material="a\0b")),
        ("material", lambda: w.add_sphere(0.1, 1.0, material="a\0b")),
        ("material", lambda: w.add_ground(material="a\0b")),
        ("material", lambda: w.set_object_material(b, "a\0b")),
        ("material", child),
        ("name", lambda: b.set_name("a\0b")),
        ("name", lambda: w.clone_single_body_object(b, "a\0b")),
        ("mat1", lambda: w.set_material_pair_prop("a\0b", "m", 0.5, 0.0, 0.0)),
        ("mat2", lambda: w.set_material_pair_prop("m", "a\0b", 0.5, 0.0, 0.0)),
        ("mat2", lambda: mm.set_material_pair_prop("m", "\0", 0.5, 0.0, 0.0)),
    ]:
        with pytest.raises(ValueError, match=f"^{what} must not contain a NUL byte"):
            call()
    assert w.get_object_count() == count
    assert b.get_name() == "" and b.get_material() == "m"
    assert w.get_material_pair_properties("a", "m").friction == 0.8


def test_pose_mass_and_gravity_setters_are_refused_mid_step():
    # integrate1() built the step's contacts (points, frames, Delassus blocks) and the robots'
    # dynamics terms from the state before; set between integrate1() and integrate2() they
    # were partly applied: a box moved 0.4 m up was held there by the ground's stale contact,
    # and a gravity switched off stopped a box but not a robot in the same step
    w = torsion.World()
    w.add_ground()
    b = w.add_box(0.2, 0.2, 0.2, 1.0)
    b.set_position([0.0, 0.0, 0.1])
    robot = w.add_articulated_system(torsion.robots.urdf_path("arm7"))
    w.integrate(10)
    w.integrate1()
    refused = [
        lambda: b.set_position([0.0, 0.0, 0.5]),
        lambda: b.set_orientation([1.0, 0.0, 0.0, 0.0]),
        lambda: b.set_orientation_from_matrix(np.eye(3)),
        lambda: b.set_mass(2.0),
        lambda: b.set_inertia(np.eye(3)),
        lambda: b.set_body_type(torsion.BodyType.KINEMATIC),
        lambda: w.set_gravity([0.0, 0.0, 0.0]),
        lambda: robot.set_generalized_coordinate(robot.get_generalized_coordinate()),
        lambda: robot.set_state(robot.get_generalized_coordinate(),
                                robot.get_generalized_velocity()),
    ]
    for call in refused:
        with pytest.raises(RuntimeError, match="integrate1"):
            call()
    w.integrate2()
    h = w.state_hash()
    # nothing was changed by the refused calls: the same step without them gives the same state
    w2 = torsion.World()
    w2.add_ground()
    b2 = w2.add_box(0.2, 0.2, 0.2, 1.0)
    b2.set_position([0.0, 0.0, 0.1])
    w2.add_articulated_system(torsion.robots.urdf_path("arm7"))
    w2.integrate(11)
    assert w2.state_hash() == h
    # between steps they are allowed again
    b.set_position([0.0, 0.0, 0.5])
    w.set_gravity([0.0, 0.0, -1.0])

