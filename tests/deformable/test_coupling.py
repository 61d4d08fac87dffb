"""Two-way coupling of deformables and rigid bodies: the proxies' contact reactions and the
attachments' pulls go into the bodies' external forces (world_deformable.cpp). Checked against
conservation laws and statics: a box on a hammock is held up by a force equal to its weight,
the momentum of a cloth and a free body (or a free robot link) is conserved in zero gravity, and
a cloth hanging from a PD-held robot link pushes it down by the cloth's weight."""

import numpy as np
import pytest

import torsion
from torsion.deformable import grid_cloth

R = 0.01
G = 9.81


def material(**kw):
    base = dict(areal_density=0.2, stretch_compliance=1e-6, bending_compliance=1e-2,
                damping=1.0, iterations=10, proxy_radius=R)
    base.update(kw)
    return torsion.DeformableMaterial(**base)


def reaction_force(d, object_id):
    f = np.zeros(3)
    for r in d.get_reactions():
        if r["object_id"] == object_id:
            f += r["force"]
    return f


def test_a_box_on_a_hammock_is_held_up_by_its_weight():
    w = torsion.World()
    w.set_time_step(2e-3)
    w.add_ground()
    n = 16
    v, t = grid_cloth(n, n, 0.8, 0.8, center=(0.0, 0.0, 0.5))
    corners = [0, n, n * (n + 1), (n + 1) ** 2 - 1]
    cloth = w.add_deformable_cloth(v, t, pinned_vertices=corners,
                                   material=material(stretch_compliance=1e-5, damping=2.0))
    box = w.add_box(0.2, 0.2, 0.1, 2.0)
    box.set_position([0.0, 0.0, 0.6])
    # the light cloth barely damps the heavy box's bounce: air drag on the box settles it (a
    # force -c v, nothing at rest)
    box.set_linear_damping(3.0)
    box.set_angular_damping([3.0, 3.0, 3.0])
    w.integrate(2800)
    forces = []
    for _ in range(100):
        w.integrate()
        forces.append(reaction_force(cloth, box.get_id()))
    z = box.get_position()[2]
    # held: it sags below the pins but never reaches the ground, and is at rest
    assert 0.1 < z < 0.5
    assert np.linalg.norm(box.get_linear_velocity()) < 1e-3
    # the cloth holds it up with a force equal to its weight (on average over the last 0.2 s,
    # and at every step within 0.5 %)
    f = np.array(forces)
    assert f[:, 2].mean() == pytest.approx(2.0 * G, rel=1e-3)
    assert np.abs(f[:, 2] - 2.0 * G).max() < 5e-3 * 2.0 * G
    assert np.abs(f[:, :2]).max() < 0.01 * 2.0 * G
    # and no particle is inside the box (its bottom face, less a small tolerance)
    x = cloth.get_positions()
    under = (np.abs(x[:, 0]) < 0.09) & (np.abs(x[:, 1]) < 0.09)
    assert under.any()
    assert (x[under, 2] < z - 0.05 + 1e-3).all()


def test_momentum_of_a_cloth_and_a_free_body_is_conserved():
    w = torsion.World()
    w.set_time_step(1e-3)
    w.set_gravity([0.0, 0.0, 0.0])
    v, t = grid_cloth(9, 9, 0.3, 0.3, center=(0.0, 0.0, 0.2))
    cloth = w.add_deformable_cloth(v, t, material=material(damping=0.0))
    m = cloth.get_masses()
    box = w.add_box(0.1, 0.1, 0.1, 0.3)
    box.set_position([0.02, -0.01, 0.0])
    cloth.set_velocities(np.tile([0.3, 0.1, -1.5], (len(v), 1)))

    def momentum():
        pending = reaction_force(cloth, box.get_id()) * w.get_time_step()  # in the next step's force
        return (m[:, None] * cloth.get_velocities()).sum(0) + 0.3 * box.get_linear_velocity() + pending

    p0 = momentum()
    touched = 0
    for _ in range(200):
        w.integrate()
        touched += bool(cloth.get_reactions())
    assert touched > 10
    assert np.linalg.norm(box.get_linear_velocity()) > 0.05  # the box was pushed (0.09 m/s if it took it all)
    np.testing.assert_allclose(momentum(), p0, rtol=0, atol=1e-12 * np.abs(p0).max())


CUBE_ROBOT = ('<robot name="cube"><link name="cube"><inertial><origin xyz="0 0 0"/>'
              '<mass value="0.3"/><inertia ixx="5e-4" iyy="5e-4" izz="5e-4" ixy="0" ixz="0" '
              'iyz="0"/></inertial><collision><origin xyz="0 0 0"/><geometry>'
              '<box size="0.1 0.1 0.1"/></geometry></collision></link></robot>')


def test_momentum_of_a_cloth_and_a_free_robot_link_is_conserved():
    w = torsion.World()
    w.set_time_step(1e-3)
    w.set_gravity([0.0, 0.0, 0.0])
    robot = w.add_articulated_system(CUBE_ROBOT, fixed_base=False)
    v, t = grid_cloth(9, 9, 0.3, 0.3, center=(0.0, 0.0, 0.2))
    cloth = w.add_deformable_cloth(v, t, material=material(damping=0.0))
    m = cloth.get_masses()
    cloth.set_velocities(np.tile([0.3, 0.1, -1.5], (len(v), 1)))

    def momentum():
        pending = reaction_force(cloth, robot.get_id()) * w.get_time_step()
        return (m[:, None] * cloth.get_velocities()).sum(0) + 0.3 * robot.get_generalized_velocity()[:3] + pending

    p0 = momentum()
    w.integrate(200)
    assert np.linalg.norm(robot.get_generalized_velocity()[:3]) > 0.05  # it was pushed
    np.testing.assert_allclose(momentum(), p0, rtol=0, atol=1e-11 * np.abs(p0).max())


PLATE = ('<robot name="plate"><link name="world"/>'
         '<link name="plate"><inertial><origin xyz="0 0 0"/><mass value="1"/>'
         '<inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>'
         '<collision><origin xyz="0 0 0"/><geometry><box size="0.3 0.3 0.02"/></geometry>'
         '</collision></link>'
         '<joint name="lift" type="prismatic"><parent link="world"/><child link="plate"/>'
         '<origin xyz="0 0 1.0"/><axis xyz="0 0 1"/>'
         '<limit lower="-1" upper="1" effort="1000" velocity="10"/></joint></robot>')


def hanging_cloth(top_z, n=7, size=0.3):
    """A vertical cloth in the x-z plane whose top row is at height top_z."""
    v, t = grid_cloth(n, n, size, size, center=(0.0, 0.0, 0.0))
    v = np.c_[v[:, 0], v[:, 2], v[:, 1] + top_z - size / 2]
    top = np.flatnonzero(np.isclose(v[:, 2], v[:, 2].max()))
    return v, t, top


def test_a_cloth_hanging_from_a_robot_link_pulls_it_down_by_its_weight():
    w = torsion.World()
    w.set_time_step(1e-3)
    robot = w.add_articulated_system(PLATE, fixed_base=True)
    robot.set_pd_gains([2000.0], [100.0])
    robot.set_pd_target([0.0], [0.0])
    link = robot.get_body_names().index("plate")
    v, t, top = hanging_cloth(1.0, n=7)
    cloth = w.add_deformable_cloth(v, t, material=material(areal_density=20.0, damping=5.0),
                                   collision_mask=0)
    for i in top:
        cloth.attach_vertex(int(i), robot, link=link)
    w.integrate(1500)
    weight = cloth.get_mass() * G
    assert reaction_force(cloth, robot.get_id())[2] == pytest.approx(-weight, rel=1e-3)
    # the PD spring holds plate and cloth: kp dz = -(m_plate + m_cloth) g
    dz = robot.get_generalized_coordinate()[0]
    assert dz == pytest.approx(-(1.0 * G + weight) / 2000.0, rel=0.01)
    # the top row moved down with the link
    np.testing.assert_allclose(cloth.get_positions()[top, 2], 1.0 + dz, atol=1e-9)


def test_a_cloth_hanging_from_a_body_pulls_it_down_by_its_weight():
    w = torsion.World()
    w.set_time_step(1e-3)
    w.add_ground()
    box = w.add_box(0.4, 0.4, 0.2, 5.0)
    box.set_position([0.0, 0.0, 0.1])
    v, t, top = hanging_cloth(0.5, n=7)
    cloth = w.add_deformable_cloth(v, t, material=material(areal_density=20.0, damping=5.0),
                                   collision_mask=0)
    for i in top:
        cloth.attach_vertex(int(i), box)
    w.integrate(1000)
    f = reaction_force(cloth, box.get_id())
    assert f[2] == pytest.approx(-cloth.get_mass() * G, rel=1e-3)
    # the ground carries box and cloth: the box is at rest on it
    assert np.linalg.norm(box.get_linear_velocity()) < 1e-6


def test_without_a_dynamic_body_there_is_no_reaction():
    w = torsion.World()
    w.set_time_step(2e-3)
    ball = w.add_sphere(0.2, 1.0)
    ball.set_body_type(torsion.BodyType.STATIC)
    v, t = grid_cloth(8, 8, 0.6, 0.6, center=(0.0, 0.0, 0.3))
    cloth = w.add_deformable_cloth(v, t, material=material())
    w.integrate(200)
    assert cloth.get_reactions() == []
