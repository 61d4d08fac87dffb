"""Every bad input raises ValueError (or IndexError / RuntimeError) naming the argument."""

import math

import numpy as np
import pytest

import torsion

NAN, INF = math.nan, math.inf


@pytest.fixture
def world():
    return torsion.World()


@pytest.mark.parametrize("dt", [0.0, -1e-3, NAN, INF])
def test_time_step(world, dt):
    with pytest.raises(ValueError, match="dt must be finite and > 0"):
        world.set_time_step(dt)
    assert world.get_time_step() == 1e-3  # unchanged


@pytest.mark.parametrize(
    "call,arg",
    [
        (lambda w: w.add_sphere(0.0, 1.0), "radius"),
        (lambda w: w.add_sphere(-1.0, 1.0), "radius"),
        (lambda w: w.add_sphere(NAN, 1.0), "radius"),
        (lambda w: w.add_sphere(1.0, 0.0), "mass"),
        (lambda w: w.add_sphere(1.0, -2.0), "mass"),
        (lambda w: w.add_sphere(1.0, INF), "mass"),
        (lambda w: w.add_box(0.0, 1, 1, 1), "x_length"),
        (lambda w: w.add_box(1, -1, 1, 1), "y_length"),
        (lambda w: w.add_box(1, 1, NAN, 1), "z_length"),
        (lambda w: w.add_box(1, 1, 1, NAN), "mass"),
        (lambda w: w.add_cylinder(-0.1, 1, 1), "radius"),
        (lambda w: w.add_cylinder(0.1, 0, 1), "height"),
        (lambda w: w.add_capsule(0.0, 1, 1), "radius"),
        (lambda w: w.add_capsule(0.1, -1, 1), "height"),
        (lambda w: w.add_ground(NAN), "z_height"),
        (lambda w: w.add_sphere(1.0, 1.0, collision_group=2**64), "collision_group"),
        (lambda w: w.add_sphere(1.0, 1.0, collision_mask=-(2**63) - 1), "collision_mask"),
        (lambda w: w.add_sphere(1.0, 1.0, collision_mask=1.5), "collision_mask"),
        (lambda w: w.set_gravity([0, NAN, 0]), "gravity"),
        (lambda w: w.set_gravity([0, 0]), "gravity"),
        (lambda w: w.set_world_time(INF), "time"),
        (lambda w: w.integrate(-1), "steps"),
    ],
)
def test_world_arguments(world, call, arg):
    with pytest.raises(ValueError, match=arg):
        call(world)
    assert world.get_object_count() == 0


@pytest.mark.parametrize(
    "call,arg",
    [
        (lambda b: b.set_position([0, 0, NAN]), "position must be finite"),
        (lambda b: b.set_position([0, 0, INF]), "position must be finite"),
        (lambda b: b.set_position([0, 0]), r"position must have shape \(3,\), got shape \(2,\)"),
        (lambda b: b.set_position([[0, 0, 0]]), r"position must have shape \(3,\), got shape \(1, 3\)"),
        (lambda b: b.set_position("abc"), "position"),
        (lambda b: b.set_position(NAN, 0.0, 0.0), "position must be finite"),
        (lambda b: b.set_orientation([0, 0, 0, 0]), "non-zero norm"),
        (lambda b: b.set_orientation([1, 0, 0]), r"quaternion must have shape \(4,\)"),
        (lambda b: b.set_orientation([1, 0, NAN, 0]), "quaternion must be finite"),
        (lambda b: b.set_orientation_from_matrix(np.ones((3, 3))), "rotation"),
        (lambda b: b.set_orientation_from_matrix(np.diag([1, 1, -1])), "rotation"),
        (lambda b: b.set_velocity([0, 0, NAN], [0, 0, 0]), "linear_velocity"),
        (lambda b: b.set_velocity([0, 0, 0], [0, 0]), "angular_velocity"),
        (lambda b: b.set_angular_velocity([INF, 0, 0]), "angular_velocity"),
        (lambda b: b.set_external_force([NAN, 0, 0]), "force"),
        (lambda b: b.set_external_force([1, 0]), "force"),
        (lambda b: b.set_external_force_at([1, 0, 0], [0, NAN, 0]), "point"),
        (lambda b: b.set_external_torque([0, INF, 0]), "torque"),
        (lambda b: b.set_mass(0.0), "mass"),
        (lambda b: b.set_mass(NAN), "mass"),
        (lambda b: b.set_inertia(np.diag([1.0, -1.0, 1.0])), "positive definite"),
        (lambda b: b.set_inertia([1.0, 1.0, 2.5]), "triangle inequality"),
        (lambda b: b.set_inertia([[1, 1, 0], [0, 1, 0], [0, 0, 1]]), "symmetric"),
        (lambda b: b.set_inertia(np.ones((2, 2))), r"inertia must have shape \(3, 3\)"),
        (lambda b: b.set_inertia([1.0, NAN, 1.0]), "inertia must be finite"),
        (lambda b: b.set_linear_damping(-1.0), "linear_damping"),
        (lambda b: b.set_angular_damping([0, -1, 0]), "angular_damping"),
    ],
)
def test_body_arguments(world, call, arg):
    b = world.add_box(1, 1, 1, 1.0)
    b.set_position([1, 2, 3])
    with pytest.raises(ValueError, match=arg):
        call(b)
    # the body is unchanged
    np.testing.assert_array_equal(b.get_position(), [1, 2, 3])
    np.testing.assert_array_equal(b.get_quaternion(), [1, 0, 0, 0])
    assert b.get_mass() == 1.0


def test_inertias_of_real_bodies_are_accepted(world):
    # a flat plate sits on the triangle inequality's edge (Iz = Ix + Iy): accepted turned, with
    # products, and rounded to single precision; a hair beyond it is not
    ix, iy = 0.2**2 / 12, 0.3**2 / 12
    plate = np.diag([ix, iy, ix + iy])
    c, s = np.cos(0.7), np.sin(0.7)
    turn_y = np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])
    turn = turn_y @ np.array([[1, 0, 0], [0, c, -s], [0, s, c]])
    b = world.add_box(1, 1, 1, 1.0)
    for inertia in (plate, turn @ plate @ turn.T, (turn @ plate @ turn.T).astype(np.float32)):
        b.set_inertia(np.asarray(inertia, dtype=np.float64))
        np.testing.assert_allclose(b.get_inertia_matrix_b(), inertia, rtol=1e-6, atol=1e-12)
    with pytest.raises(ValueError, match="triangle inequality"):
        b.set_inertia(np.diag([ix, iy, 1.001 * (ix + iy)]))


def test_ground_is_fixed(world):
    g = world.add_ground()
    for call in (lambda: g.set_position([0, 0, 1]), lambda: g.set_velocity([0, 0, 1], [0, 0, 0]), lambda: g.set_mass(1.0)):
        with pytest.raises(ValueError, match="ground"):
            call()
    with pytest.raises(ValueError, match="ground"):
        g.set_body_type(torsion.BodyType.DYNAMIC)


def test_wrong_types_are_type_errors(world):
    with pytest.raises(TypeError):
        world.add_sphere("big", 1.0)
    with pytest.raises(TypeError):
        world.remove_object("sphere")


def test_ids_and_counts_out_of_any_range(world):
    # any Python int is an id question, answered: no object has id -1 or 2**70 (pybind11 refused
    # them with a generic TypeError); quiet_steps past the int range is a ValueError naming it
    box = world.add_box(1, 1, 1, 1.0)
    for bad in (-1, -(2**70), 2**64, 2**70):
        assert world.get_object_by_id(bad) is None
        assert not world.is_object_alive(bad)
    assert world.get_object_by_id(box.get_id()) == box
    with pytest.raises(ValueError, match="quiet_steps must be at most"):
        world.set_sleeping_parameters(0.01, 0.01, 2**40)
    world.set_sleeping_parameters(0.01, 0.01, -(2**40))  # < 1 clamps to 1, as documented
    assert world.get_sleeping_parameters()["quiet_steps"] == 1


def test_self_collision_mid_step_is_a_state_error(world):
    robot = world.add_articulated_system(torsion.robots.urdf_path("arm7"))
    world.integrate1()
    with pytest.raises(RuntimeError, match="integrate1"):
        robot.set_self_collision(True)
    world.integrate2()
    robot.set_self_collision(True)
    assert robot.get_self_collision()


# (1, 2, 0, 2) / 3: exact ratios at every scale below, denormals included
UNIT_Q = np.array([1.0, 2.0, 0.0, 2.0]) / 3.0


@pytest.mark.parametrize("scale", [1e200, 1e-160, 1e-310, 5e-324])
def test_quaternions_and_axes_of_any_finite_norm_are_normalised(scale):
    # |q|^2 overflowed to inf past ~1e154 (q / inf: the zero quaternion, then taken as identity)
    # and underflowed below ~1e-154 (refused as "non-zero norm, got norm 1.41e-160"); every
    # boundary that normalises a quaternion or an axis now scales by the largest component first
    q = scale * np.array([1.0, 2.0, 0.0, 2.0])
    w = torsion.World()
    b = w.add_box(0.2, 0.4, 0.6, 1.0)
    b.set_orientation(q)
    np.testing.assert_allclose(b.get_quaternion(), UNIT_Q, rtol=0, atol=1e-15)

    robot = w.add_articulated_system(torsion.robots.urdf_path("humanoid"))
    waist = [j for j in robot.get_joints() if j["type"] == "spherical"][0]["gc_index"]
    gc = robot.get_generalized_coordinate()
    gc[3:7] = q
    gc[waist:waist + 4] = q
    robot.set_generalized_coordinate(gc)
    got = robot.get_generalized_coordinate()
    np.testing.assert_allclose(got[3:7], UNIT_Q, rtol=0, atol=1e-15)
    np.testing.assert_allclose(got[waist:waist + 4], UNIT_Q, rtol=0, atol=1e-15)
    assert np.linalg.det(robot.get_frame_orientation("ROOT")) == pytest.approx(1.0)

    r_ref = torsion.CompoundObjectChild(torsion.ObjectType.BOX, [0.1, 0.2, 0.3], [0, 0, 0],
                                        UNIT_Q).rotation
    child = torsion.CompoundObjectChild(torsion.ObjectType.BOX, [0.1, 0.2, 0.3], [0, 0, 0], q)
    np.testing.assert_allclose(child.rotation, r_ref, rtol=0, atol=1e-15)

    box = torsion.Shape.box(0.2, 0.4, 0.6)
    ref = torsion.collide(box, [0, 0, 0.1], UNIT_Q, torsion.Shape.ground(), [0, 0, 0], [1, 0, 0, 0])
    got = torsion.collide(box, [0, 0, 0.1], q, torsion.Shape.ground(), [0, 0, 0], [1, 0, 0, 0])
    assert len(ref) > 0
    np.testing.assert_allclose(got["depth"], ref["depth"], rtol=0, atol=1e-12)

    from torsion.ik import Environment
    d = Environment().create_dummy("d")
    d.set_transformation([0, 0, 0], q)
    np.testing.assert_allclose(d.get_transformation()[1], UNIT_Q, rtol=0, atol=1e-15)

    inertial = ('<inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" '
                'ixz="0" iyz="0"/></inertial>')
    urdf = (f'<robot name="r"><link name="a">{inertial}</link><link name="b">{inertial}</link>'
            f'<joint name="j" type="revolute"><parent link="a"/><child link="b"/>'
            f'<axis xyz="{scale!r} {2 * scale!r} 0"/></joint></robot>')
    hinge = torsion.World().add_articulated_system(urdf, fixed_base=True)
    np.testing.assert_allclose(hinge.get_joints()[1]["axis"], np.array([1, 2, 0]) / np.sqrt(5),
                               rtol=0, atol=1e-15)
    with pytest.raises(ValueError, match="joint 'j' has a zero axis"):
        torsion.World().add_articulated_system(urdf.replace(f"{scale!r} {2 * scale!r} 0", "0 0 0"))


def test_zero_quaternions_are_refused_naming_the_argument():
    w = torsion.World()
    with pytest.raises(ValueError, match=r"quaternion \(w, x, y, z\) must be finite with a "
                                         r"non-zero norm .*got \[0, -0, 0, 0\]"):
        w.add_box(1, 1, 1, 1.0).set_orientation([0, -0.0, 0, 0])
    with pytest.raises(ValueError, match=r"orientation \(w, x, y, z\) must be finite with a "
                                         "non-zero norm"):
        torsion.CompoundObjectChild(torsion.ObjectType.SPHERE, [1], orientation=[0, 0, 0, 0])
    with pytest.raises(ValueError, match=r"quaternion_a \(w, x, y, z\) must be finite"):
        torsion.collide(torsion.Shape.sphere(1), [0, 0, 0], [0, 0, 0, 0],
                        torsion.Shape.ground(), [0, 0, 0], [1, 0, 0, 0])


def test_names_must_be_utf8():
    # a bytes name is taken as its bytes: one that is not UTF-8 was accepted and then every
    # get_name(), repr() and reloaded export raised UnicodeDecodeError
    w = torsion.World()
    s = w.add_sphere(0.1, 1.0)
    s.set_name("ball")
    with pytest.raises(ValueError, match=r"name must be UTF-8 text, got b'\\xff\\xfe' \(the byte "
                                         r"at position 0 is not valid UTF-8\)"):
        s.set_name(b"\xff\xfe")
    assert s.get_name() == "ball" and "ball" in repr(s)
    s.set_name("b\u00e9".encode())  # UTF-8 bytes are text
    assert s.get_name() == "b\u00e9"
    for bad in (b"\xff", b"a\xc3", b"\xed\xa0\x80", b"\xc0\xaf", b"\xf4\x90\x80\x80"):
        with pytest.raises(ValueError, match="material must be UTF-8 text"):
            w.add_box(0.1, 0.1, 0.1, 1.0, material=bad)
        with pytest.raises(ValueError, match="mat1 must be UTF-8 text"):
            w.set_material_pair_prop(bad, "a", 0.5, 0.0, 0.0)
    assert w.get_object_count() == 1
    from torsion.ik import Environment
    with pytest.raises(ValueError, match="name must be UTF-8 text"):
        Environment().create_dummy(b"\xff")


def test_urdf_text_must_be_utf8_or_declare_its_encoding(tmp_path):
    inertial = (b'<inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" '
                b'ixz="0" iyz="0"/></inertial>')
    body = (b'<robot name="r"><link name="base_\xe9">' + inertial + b'</link><link name="b">' +
            inertial + b'</link><joint name="j_\xe9" type="revolute"><parent link="base_\xe9"/>'
            b'<child link="b"/><axis xyz="0 0 1"/></joint></robot>')
    path = tmp_path / "latin1.urdf"
    path.write_bytes(body)  # Latin-1 bytes and no declaration: read as UTF-8, which they are not
    with pytest.raises(ValueError, match=r"<link> at line 1: attribute 'name' = 'base_\\xe9' is "
                                         r"not UTF-8 text; .*declare its encoding"):
        torsion.World().add_articulated_system(path)
    path.write_bytes(b'<?xml version="1.0" encoding="ISO-8859-1"?>' + body)
    r = torsion.World().add_articulated_system(path)
    assert r.get_body_names() == ["base_\u00e9", "b"]
    assert r.get_movable_joint_names()[-1] == "j_\u00e9"


def test_complex_and_non_number_arrays_are_refused():
    # NumPy's cast to float64 dropped a complex array's imaginary part and made None a NaN (a
    # hole in a height map); the same values as a list were refused
    w = torsion.World()
    s = w.add_sphere(0.1, 1.0)
    with pytest.raises(ValueError, match=r"position must hold real numbers, got an array of "
                                         r"dtype complex128 \(complex"):
        s.set_position(np.array([1 + 5j, 2, 3]))
    with pytest.raises(ValueError, match="linear_velocity must hold real numbers"):
        s.set_velocity(np.array([0, 0, 3j]), np.zeros(3))
    with pytest.raises(ValueError, match="heights must hold real numbers"):
        w.add_height_map(2, 2, 1.0, 1.0, 5, 5, np.array([1j, 1j, 1j, 1j]))
    with pytest.raises(ValueError, match=r"heights must hold real numbers, got None \(a NoneType\) "
                                         r"at flat index 3"):
        w.add_height_map(2, 2, 1.0, 1.0, 9, 9, np.array([0, 0, 0, None]))
    with pytest.raises(ValueError, match="heights must hold real numbers, got None"):
        w.add_height_map(2, 2, 1.0, 1.0, 9, 9, [0.0, 0.0, 0.0, None])
    with pytest.raises(ValueError, match="position must hold real numbers, got an array of dtype <U1"):
        s.set_position(["1", "2", "3"])
    np.testing.assert_array_equal(s.get_position(), [0, 0, 0])
    assert w.get_object_count() == 1
    # real numbers of any kind still are numbers, as arrays or objects
    from fractions import Fraction
    for ok in (np.array([1, 2, 3], dtype=object), [Fraction(1, 2), 2, np.float32(3)],
               np.array([1, 2, 3], dtype=np.int8), np.array([1.0, 2.0, 3.0], dtype=np.float32),
               np.arange(6.0)[::2]):  # a strided view
        s.set_position(ok)
        assert s.get_position()[1] == 2.0


def test_ints_past_64_bits_and_lone_surrogates_are_named():
    # pybind11's casts raised "RuntimeError: Unable to cast Python instance of type <class
    # 'int'> to C++ type '?'" for ints past 64 bits, and the same for a str with a lone surrogate
    w = torsion.World()
    w.add_ground()
    r = w.add_articulated_system(torsion.robots.urdf_path("quadruped"))
    c = w.add_compound([torsion.CompoundObjectChild(torsion.ObjectType.SPHERE, [0.1])], 1.0)
    s = w.add_sphere(0.1, 1.0)
    big = 2**70
    n = w.get_object_count()
    for call, err, msg in [
        (lambda: w.get_object(big), IndexError, rf"object index {big} is out of range \[0, {n}\)"),
        (lambda: w.get_object(-big), IndexError, "object index -"),
        (lambda: w.is_object_sleeping(big), IndexError, f"object index {big} is out of range"),
        (lambda: w.restore_single_body_snapshot(w.capture_single_body_snapshot(s), big),
         ValueError, f"obj_or_id: no object with id {big}"),
        (lambda: w.set_object_collision_filter(r, 1, -1, 2**63), IndexError,
         f"local_idx {2**63} is out of range"),
        (lambda: w.set_object_material(c, "x", 2**64), IndexError,
         f"local_idx {2**64} is out of range"),
        (lambda: r.set_external_force(big, [0, 0, 1]), IndexError, f"body index {big} is out of"),
        (lambda: r.get_frame_position(big), IndexError, f"frame index {big} is out of range"),
        (lambda: r.get_dense_jacobian_at(big, [0, 0, 0]), IndexError, "body index"),
        (lambda: w.add_articulated_system("\ud800"), ValueError,
         r"urdf must be a path the file-system encoding can encode, got '\\ud800'"),
        (lambda: torsion.collide_triangle(torsion.Shape.sphere(0.1), [0, 0, 0.05], [1, 0, 0, 0],
                                          np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0.0]]), None,
                                          "abc"),
         ValueError, "owned must hold 3 booleans"),
    ]:
        with pytest.raises(err, match=msg):
            call()
    assert w.get_object_count() == n


def test_file_names_that_are_not_utf8(tmp_path):
    # os.fsdecode gives a str with surrogate escapes for such a name: add_articulated_system
    # refused it with a generic cast error; a missing one raised UnicodeDecodeError while the
    # message was being built
    import os
    import shutil

    d = os.fsencode(tmp_path)
    urdf = os.path.join(d, b"robot_\xff.urdf")
    shutil.copy(torsion.robots.urdf_path("quadruped"), urdf)
    w = torsion.World()
    ref = w.add_articulated_system(torsion.robots.urdf_path("quadruped")).get_dof()
    for p in (urdf, os.fsdecode(urdf)):
        assert w.add_articulated_system(p).get_dof() == ref
    for call in (lambda p: torsion.World(p), lambda p: w.add_articulated_system(p),
                 lambda p: w.add_mesh(p, 1.0)):
        with pytest.raises(ValueError, match=r"missing_\\xff"):
            call(os.path.join(d, b"missing_\xff.obj"))
