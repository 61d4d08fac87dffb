"""Granular systems in a World (world.add_granular_particles / add_granular_box): stepped by
world.integrate(), colliding with the world's shapes (boxes, spheres, heightmaps, robot links)
and pushing them back. Checked against closed forms and conservation laws: free fall under the
world's gravity (symplectic Euler's own closed form), a box held up by a bed with the force equal
to its weight, momentum of particles and a free body conserved in zero gravity (action-reaction);
and determinism: bitwise equal on 1 and 2 threads and after a checkpoint restore."""

import numpy as np
import pytest

import torsion

R = 0.01
MAT = torsion.GranularMaterial(youngs_modulus=1e6, restitution=0.3, friction=0.5)


def grid(nx, ny, nz, lower, spacing):
    idx = np.stack(np.meshgrid(np.arange(nx), np.arange(ny), np.arange(nz), indexing="ij"), -1)
    return np.asarray(lower, float) + spacing * idx.reshape(-1, 3)


def bed(world, nx=10, ny=10, nz=3, half=0.1):
    """Particles settled in the system's own box container [-half, half]^2 x [0, 1]."""
    pts = grid(nx, ny, nz, [-half + R, -half + R, R], 2 * R)
    g = world.add_granular_particles(pts, np.full(len(pts), R), MAT)
    g.set_box_container([-half, -half, 0.0], [half, half, 1.0])
    return g


def test_world_owns_steps_and_removes_a_system():
    w = torsion.World()
    w.set_time_step(1e-3)
    g = w.add_granular_particles([[0.0, 0.0, 1.0], [1.0, 0.0, 1.0]], [R, R], MAT)
    assert isinstance(g, torsion.GranularSystem) and len(g) == 2
    assert len(w.get_granular_systems()) == 1
    n = g.substeps_for(1e-3)
    steps = 50
    w.integrate(steps)
    # symplectic Euler in M substeps of h: z = z0 + g h^2 M (M + 1) / 2
    m, h = n * steps, 1e-3 / n
    expect = 1.0 - 9.81 * h * h * m * (m + 1) / 2
    np.testing.assert_allclose(g.get_positions()[:, 2], expect, rtol=0, atol=1e-12)
    with pytest.raises(RuntimeError, match="world.integrate"):
        g.step(1e-3)
    w.remove_object(g)
    with pytest.raises(torsion.RemovedObjectError):
        g.get_positions()
    with pytest.raises(torsion.RemovedObjectError):
        w.remove_object(g)
    assert w.get_granular_systems() == []
    w.integrate()  # a world without systems steps on


def test_add_granular_box_options_and_bad_input():
    w = torsion.World()
    g = w.add_granular_box(box_lower=[0, 0, 0], box_upper=[0.1, 0.06, 0.04], particle_radius=R,
                           spacing=0.025, velocity=[1, 0, 0], angular_velocity=[0, 0, 2],
                           fixed=False, material=MAT)
    p = g.get_positions()
    # centres from lower + r to upper - r, 0.025 apart: 4 x 2 x 1
    assert p.shape == (8, 3)
    assert p.min(0) == pytest.approx([R, R, R])
    assert np.all(p.max(0) <= np.array([0.1, 0.06, 0.04]) - R + 1e-12)
    np.testing.assert_array_equal(g.get_velocities(), np.tile([1.0, 0, 0], (8, 1)))
    np.testing.assert_array_equal(g.get_angular_velocities(), np.tile([0, 0, 2.0], (8, 1)))
    f = w.add_granular_box(box_lower=[0, 0, 0], box_upper=[0.04, 0.04, 0.04], particle_radius=R,
                           fixed=True)
    assert len(f) == 8 and all(f.is_fixed(i) for i in range(8))
    with pytest.raises(ValueError, match="particle_radius"):
        w.add_granular_box(box_lower=[0, 0, 0], box_upper=[1, 1, 1], particle_radius=-1.0)
    with pytest.raises(ValueError, match="box_lower"):
        w.add_granular_box(box_lower=[0, 0, 1], box_upper=[1, 1, 0])
    with pytest.raises(ValueError, match="box_lower"):
        w.add_granular_box(box_lower=[0, np.nan, 0], box_upper=[1, 1, 1])
    with pytest.raises(ValueError, match="material_id"):
        w.add_granular_box(box_lower=[0, 0, 0], box_upper=[1, 1, 1], particle_radius=0.3,
                           material_id=3)
    with pytest.raises(ValueError, match="radii"):
        w.add_granular_particles([[0, 0, 0]], [R, R])
    other = torsion.World()
    with pytest.raises(ValueError, match="another World"):
        other.remove_object(g)
    with pytest.raises(ValueError, match="standalone"):
        w.remove_object(torsion.GranularSystem([[0, 0, 0]], [R]))


def test_a_box_on_a_bed_is_held_up_by_its_weight():
    w = torsion.World()
    w.set_time_step(1e-3)
    g = bed(w)
    mass = 1.0
    box = w.add_box(0.15, 0.15, 0.05, mass)
    box.set_position([0.0, 0.0, 0.09])
    support = []
    for k in range(1500):
        w.integrate()
        if k >= 1000:
            support.append(g.get_stats()["shape_force"][2])
            assert g.get_stats()["shape_contacts"] > 0
    # at rest on the bed (not fallen through it), and the mean push of the particles on the box
    # equals its weight (it does not accelerate)
    assert 0.06 < box.get_position()[2] < 0.09
    assert abs(box.get_linear_velocity()[2]) < 1e-3
    assert np.mean(support) == pytest.approx(mass * 9.81, rel=0.01)
    assert g.get_positions()[:, 2].min() > 0.0


def test_a_sphere_dropped_into_particles_slows_down():
    w = torsion.World()
    w.set_time_step(1e-3)
    bed(w, nz=4)
    ball = w.add_sphere(0.03, 0.2)
    ball.set_position([0.0, 0.0, 0.2])
    ball.set_linear_velocity([0.0, 0.0, -2.0])
    w.integrate(300)
    # free fall would have it at 0.2 - 2 * 0.3 - g 0.3^2 / 2 = -0.84 m, moving at 4.9 m/s
    assert ball.get_position()[2] > 0.03
    assert np.linalg.norm(ball.get_linear_velocity()) < 0.5


def test_particles_poured_on_a_heightmap_stay_above_it():
    w = torsion.World()
    w.set_time_step(1e-3)
    # a plane z = 0.2 x + 0.05 (samples exactly on it, so the bilinear surface is that plane)
    xs = np.linspace(-0.5, 0.5, 11)
    heights = np.array([0.2 * x + 0.05 for _y in xs for x in xs])
    w.add_height_map(11, 11, 1.0, 1.0, 0.0, 0.0, heights)
    pts = grid(6, 6, 3, [-0.06, -0.06, 0.25], 2.2 * R)
    g = w.add_granular_particles(pts, np.full(len(pts), R), MAT)
    g.set_box_container([-0.12, -0.12, -1.0], [0.12, 0.12, 2.0])  # side walls keep them on it
    w.integrate(1000)
    p = g.get_positions()
    surface = 0.2 * p[:, 0] + 0.05
    # the centre stays at least about a radius above the slope (the normal distance is r)
    assert (p[:, 2] - surface).min() > 0.9 * R * np.sqrt(1 + 0.2 ** 2) - 2e-3
    assert g.get_stats()["shape_contacts"] > 0
    assert np.abs(g.get_velocities()).max() < 0.01  # at rest on the slope (friction 0.5 > 0.2)


PLATE = ('<robot name="plate"><link name="world"/>'
         '<link name="plate"><inertial><origin xyz="0 0 0"/><mass value="1"/>'
         '<inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>'
         '<collision><origin xyz="0 0 0"/><geometry><box size="0.3 0.3 0.02"/></geometry>'
         '</collision></link>'
         '<joint name="lift" type="prismatic"><parent link="world"/><child link="plate"/>'
         '<origin xyz="0 0 0.1"/><axis xyz="0 0 1"/>'
         '<limit lower="-1" upper="1" effort="1000" velocity="10"/></joint></robot>')


def test_particles_poured_on_a_robot_link_stay_above_it_and_push_it_down():
    w = torsion.World()
    w.set_time_step(1e-3)
    robot = w.add_articulated_system(PLATE, fixed_base=True)
    robot.set_pd_gains([2000.0], [100.0])
    robot.set_pd_target([0.0], [0.0])
    pts = grid(5, 5, 2, [-0.05, -0.05, 0.15], 2.2 * R)
    g = w.add_granular_particles(pts, np.full(len(pts), R), MAT)
    g.set_box_container([-0.14, -0.14, -1.0], [0.14, 0.14, 2.0])  # side walls keep them on it
    w.integrate(600)
    p = g.get_positions()
    top = 0.1 + robot.get_generalized_coordinate()[0] + 0.01
    assert p[:, 2].min() > top + 0.9 * R
    assert g.get_stats()["shape_contacts"] > 0
    # the particles' weight (N m g) pushes the PD-held plate down: kp dz = -(m + N m_p) g
    weight = (1.0 + g.get_masses().sum()) * 9.81
    assert robot.get_generalized_coordinate()[0] == pytest.approx(-weight / 2000.0, rel=0.05)


def test_momentum_of_particles_and_a_free_body_is_conserved():
    w = torsion.World()
    w.set_time_step(1e-3)
    w.set_gravity([0.0, 0.0, 0.0])
    body = w.add_box(0.1, 0.1, 0.1, 0.3)
    body.set_position([0.0, 0.0, 0.0])
    pts = grid(3, 3, 2, [-0.03, -0.03, 0.08], 2.5 * R)
    g = w.add_granular_particles(pts, np.full(len(pts), R), MAT)
    g.set_velocities(np.tile([0.3, 0.1, -1.5], (len(pts), 1)))
    m = g.get_masses()

    def momentum():
        return (m[:, None] * g.get_velocities()).sum(0) + 0.3 * body.get_linear_velocity()

    p0 = momentum()
    hits = 0
    for _ in range(200):
        w.integrate()
        hits += g.get_stats()["shape_contacts"]
    assert hits > 0
    assert np.linalg.norm(body.get_linear_velocity()) > 0.1  # the body was pushed
    np.testing.assert_allclose(momentum(), p0, rtol=0, atol=1e-13 * np.abs(p0).max() * 100)


def build_scene(threads):
    w = torsion.World()
    w.set_time_step(1e-3)
    g = bed(w, nx=8, ny=8, nz=3)
    g.num_threads = threads
    box = w.add_box(0.1, 0.1, 0.04, 0.5)
    box.set_position([0.01, -0.02, 0.1])
    ball = w.add_sphere(0.02, 0.1)
    ball.set_position([0.05, 0.05, 0.15])
    return w, g


def test_bitwise_equal_on_one_and_two_threads():
    a, ga = build_scene(1)
    b, gb = build_scene(2)
    a.integrate(150)
    b.integrate(150)
    assert a.state_hash() == b.state_hash()
    np.testing.assert_array_equal(ga.get_positions(), gb.get_positions())
    np.testing.assert_array_equal(ga.get_angular_velocities(), gb.get_angular_velocities())


def test_checkpoint_restores_particles_bitwise():
    w, g = build_scene(1)
    w.integrate(100)
    h0 = w.state_hash()
    cp = w.capture_checkpoint()
    blob = cp.to_bytes()
    w.integrate(60)
    after = (w.state_hash(), g.get_positions().copy(), g.get_velocities().copy())
    assert after[0] != h0  # the particles are part of the hash
    w.restore_checkpoint(cp)
    assert w.state_hash() == h0
    w.integrate(60)
    assert w.state_hash() == after[0]
    np.testing.assert_array_equal(g.get_positions(), after[1])
    np.testing.assert_array_equal(g.get_velocities(), after[2])
    # the portable bytes, into a world built the same way
    w2, g2 = build_scene(1)
    w2.restore_checkpoint(torsion.Checkpoint.from_bytes(blob))
    assert w2.state_hash() == h0
    w2.integrate(60)
    np.testing.assert_array_equal(g2.get_positions(), after[1])
    # a world with another set of granular systems refuses it
    w3, _ = build_scene(1)
    w3.add_granular_particles([[0, 0, 5]], [R])
    with pytest.raises((RuntimeError, ValueError)):
        w3.restore_checkpoint(torsion.Checkpoint.from_bytes(blob))


def test_a_checkpoint_just_after_removals_continues_bitwise():
    # removals before the next step keep the moved particles' contact histories: a state saved
    # then holds them, so its restore steps on as the original does
    w, g = build_scene(1)
    w.integrate(100)
    for i in (5, 0, 40):
        g.remove_particle(i)
    blob = w.capture_checkpoint().to_bytes()
    w2, g2 = build_scene(1)
    w2.restore_checkpoint(torsion.Checkpoint.from_bytes(blob))
    assert w2.state_hash() == w.state_hash()
    w.integrate(40)
    w2.integrate(40)
    assert w2.state_hash() == w.state_hash()
    np.testing.assert_array_equal(g2.get_positions(), g.get_positions())
    np.testing.assert_array_equal(g2.get_stable_ids(), g.get_stable_ids())


CUBE_OBJ = "".join(f"v {x} {y} {z}\n" for x in (-0.1, 0.1) for y in (-0.1, 0.1) for z in (-0.1, 0.1)) + (
    "f 2 4 3 1\nf 7 8 6 5\nf 5 6 2 1\nf 4 8 7 3\nf 3 7 5 1\nf 6 8 4 2\n")  # outward


def _static(obj):
    obj.set_body_type(torsion.BodyType.STATIC)
    obj.set_position([0.0, 0.0, 0.0])
    return obj


SHAPES = {
    # name: (make(world, tmp_path) -> object, the height of its top above the origin)
    "sphere": (lambda w, d: w.add_sphere(0.1, 1.0), 0.1),
    "box": (lambda w, d: w.add_box(0.2, 0.2, 0.1, 1.0), 0.05),
    "cylinder": (lambda w, d: w.add_cylinder(0.1, 0.1, 1.0), 0.05),
    "capsule": (lambda w, d: w.add_capsule(0.05, 0.1, 1.0), 0.1),
    "compound": (lambda w, d: w.add_compound(
        [torsion.CompoundObjectChild(torsion.ObjectType.BOX, [0.2, 0.2, 0.04], [0, 0, 0.03]),
         torsion.CompoundObjectChild(torsion.ObjectType.BOX, [0.2, 0.2, 0.04], [0, 0, -0.03]),
         torsion.CompoundObjectChild(torsion.ObjectType.SPHERE, [0.05], [0.3, 0, 0]),
         torsion.CompoundObjectChild(torsion.ObjectType.SPHERE, [0.05], [-0.3, 0, 0])], 1.0),
        0.05),  # symmetric: the centre of mass (the body origin) is the middle
    "triangle mesh": (lambda w, d: w.add_mesh(
        _write(d, CUBE_OBJ), 1.0, collision_mode=torsion.MeshCollisionMode.ORIGINAL_MESH), 0.1),
    "convex mesh": (lambda w, d: w.add_mesh(
        _write(d, CUBE_OBJ), 1.0, collision_mode=torsion.MeshCollisionMode.CONVEX_HULL), 0.1),
}


def _write(directory, text):
    path = directory / "cube.obj"
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize("name", list(SHAPES))
def test_a_particle_comes_to_rest_on_every_kind_of_shape(name, tmp_path):
    make, top = SHAPES[name]
    w = torsion.World()
    w.set_time_step(1e-3)
    body = _static(make(w, tmp_path))
    g = w.add_granular_particles([[0.0, 0.0, top + 0.1]], [R], MAT)
    w.integrate(500)
    # resting on the top, the Hertz overlap under its own weight far below 1 mm
    assert g.get_positions()[0, 2] == pytest.approx(top + R, abs=2e-4)
    assert np.abs(g.get_velocities()).max() < 1e-3
    assert body.get_position()[2] == 0.0


def test_group_and_mask_decide_which_shapes_particles_meet():
    def fall(shape_group, shape_mask, particle_group, particle_mask):
        w = torsion.World()
        w.set_time_step(1e-3)
        _static(w.add_box(0.2, 0.2, 0.1, 1.0, collision_group=shape_group,
                          collision_mask=shape_mask))
        g = w.add_granular_particles([[0.0, 0.0, 0.15]], [R], MAT)
        g.set_collision_filter(particle_group, particle_mask)
        w.integrate(300)
        return g.get_positions()[0, 2]

    assert fall(1, -1, 1, 2**64 - 1) == pytest.approx(0.05 + R, abs=2e-4)
    assert fall(2, -1, 1, 1) < -0.1   # the particles' mask leaves out the shape's group
    assert fall(1, 2, 1, 2**64 - 1) < -0.1  # the shape's mask leaves out the particles' group


def test_particles_wake_a_sleeping_body_and_a_quiet_pile_lets_it_sleep():
    # a box asleep on the ground is hit by falling particles: its island wakes at the next step
    # (the rule for an awake body touching a sleeper); once the particles rest on it (slower
    # than the sleeping threshold) it falls asleep again, holding them up
    w = torsion.World()
    w.set_time_step(1e-3)
    w.add_ground(0.0)
    w.set_sleeping_enabled(True)
    w.set_sleeping_parameters(0.01, 0.02, 20)
    box = w.add_box(0.1, 0.1, 0.1, 0.5)
    box.set_position([0.0, 0.0, 0.05])
    sticky = torsion.GranularMaterial(youngs_modulus=1e6, restitution=0.3, friction=0.5,
                                      rolling_friction=0.3)
    pts = grid(3, 3, 1, [-2.2 * R, -2.2 * R, 0.35], 2.2 * R)
    g = w.add_granular_particles(pts, np.full(len(pts), R), sticky)
    g.set_ground_plane(True, 0.0)
    first = None
    for k in range(400):
        asleep = w.is_object_sleeping(box)
        w.integrate()
        if g.get_stats()["shape_contacts"] > 0:
            first = k
            break
    assert first is not None and first > 100  # the particles fell ~0.25 m first
    assert asleep  # the box slept until they came
    w.integrate()  # the wake request of the hit is served at the start of this step
    assert not w.is_object_sleeping(box)
    for _ in range(1500):
        w.integrate()
    # at rest again: asleep under the particles, which stay on its top
    assert w.is_object_sleeping(box)
    assert g.get_stats()["shape_contacts"] > 0
    z = g.get_positions()[:, 2]
    np.testing.assert_allclose(z, 0.1 + R, atol=2e-4)
    assert np.abs(g.get_velocities()).max() < 0.01


def _settling_scene():
    """A bed with a box falling onto it, mid-settling: contacts, histories and motion."""
    w = torsion.World()
    w.set_time_step(1e-3)
    g = bed(w, nx=6, ny=6, nz=3, half=0.06)
    g.add_material(torsion.GranularMaterial(density=1500, youngs_modulus=2e6, friction=0.3,
                                            rolling_friction=0.05))
    g.set_material_id(5, 1)
    g.set_fixed(0, True)
    g.set_collision_filter(3, 2**64 - 1)
    box = w.add_box(0.05, 0.05, 0.05, 0.3)
    box.set_position([0.0, 0.0, 0.12])
    w.integrate(80)
    return w, g


def test_a_world_batch_copies_a_world_with_particles_bitwise():
    src, g = _settling_scene()
    batch = torsion.WorldBatch.from_world(src, 2, num_threads=2)
    assert set(batch.state_hashes().tolist()) == {src.state_hash()}
    copy = batch.world(1).get_granular_systems()[0]
    np.testing.assert_array_equal(copy.get_positions(), g.get_positions())
    # the copies step as the source does, bit for bit (particles, contact histories, the box)
    src.integrate(40)
    batch.integrate(40)
    assert set(batch.state_hashes().tolist()) == {src.state_hash()}
    np.testing.assert_array_equal(copy.get_positions(), g.get_positions())
    # and are independent of it
    copy.set_velocities(np.zeros_like(g.get_velocities()) + [0.0, 0.0, 0.5])
    batch.integrate(1)
    src.integrate(1)
    assert batch.state_hashes()[0] == src.state_hash() != batch.state_hashes()[1]


def test_a_lean_state_restores_particles_bitwise():
    w, g = _settling_scene()
    state = w.capture_state()
    w.integrate(30)
    after, pos = w.state_hash(), g.get_positions()
    w.integrate(25)  # the particles move on
    w.restore_state(state)
    w.integrate(30)
    assert w.state_hash() == after
    np.testing.assert_array_equal(g.get_positions(), pos)


def test_world_xml_carries_granular_systems(tmp_path):
    src, g = _settling_scene()
    g.set_ground_plane(True, -0.5)
    g.num_threads = 2
    g.substep_factor = 1.5
    path = str(tmp_path / "w.xml")
    src.export_to_xml(path)
    back = torsion.World(path)
    (h,) = back.get_granular_systems()
    # every particle's radius, material, fixed flag and motion; the system's settings
    for get in ("get_positions", "get_velocities", "get_angular_velocities", "get_radii",
                "get_masses", "get_material_ids"):
        np.testing.assert_array_equal(getattr(h, get)(), getattr(g, get)(), err_msg=get)
    assert h.is_fixed(0) and not h.is_fixed(1)
    assert h.num_threads == 2
    assert h.substep_factor == 1.5
    assert len(h.get_materials()) == 2
    assert h.get_materials()[1].friction == 0.3 and h.get_materials()[1].rolling_friction == 0.05
    # the reloaded world steps as the source (the contact springs restart relaxed: close, not
    # bitwise)
    src.integrate(20)
    back.integrate(20)
    np.testing.assert_allclose(h.get_positions(), g.get_positions(), atol=2e-4)
    # written again, the same file
    back2 = torsion.World(path)
    back2.export_to_xml(str(tmp_path / "w2.xml"))
    assert (tmp_path / "w2.xml").read_text() == (tmp_path / "w.xml").read_text()


def test_world_xml_refuses_bad_granular_systems(tmp_path):
    src, _ = _settling_scene()
    path = tmp_path / "w.xml"
    src.export_to_xml(str(path))
    text = path.read_text()

    def load(old, new, match):
        assert old in text
        (tmp_path / "bad.xml").write_text(text.replace(old, new, 1))
        with pytest.raises(ValueError, match=match):
            torsion.World(str(tmp_path / "bad.xml"))

    load('<particles radii="0.01', '<particles radii="-0.01', "radii")
    load('material_ids="', 'material_ids="7 ', "material_ids")
    load('<state positions="', '<state positions="nan ', "positions")
    load('<wall_material density="', '<wall_material density="-', "density")
    load('<system ', '<system num_threads="-2" ', "num_threads")
    load('<system ', '<system substep_factor="0" ', "substep_factor")


CUBE_ROBOT = ('<robot name="cube"><link name="cube"><inertial><origin xyz="0 0 0"/>'
              '<mass value="0.3"/><inertia ixx="5e-4" iyy="5e-4" izz="5e-4" ixy="0" ixz="0" '
              'iyz="0"/></inertial><collision><origin xyz="0 0 0"/><geometry>'
              '<box size="0.1 0.1 0.1"/></geometry></collision></link></robot>')


def test_momentum_of_particles_and_a_free_robot_link_is_conserved():
    # the same as for a rigid body, through ArticulatedSystem::add_external_force: a floating
    # one-link robot (gv[:3] is its centre of mass velocity, world frame)
    w = torsion.World()
    w.set_time_step(1e-3)
    w.set_gravity([0.0, 0.0, 0.0])
    robot = w.add_articulated_system(CUBE_ROBOT, fixed_base=False)
    pts = grid(3, 3, 2, [-0.03, -0.03, 0.08], 2.5 * R)
    g = w.add_granular_particles(pts, np.full(len(pts), R), MAT)
    g.set_velocities(np.tile([0.3, 0.1, -1.5], (len(pts), 1)))
    m = g.get_masses()

    def momentum():
        return (m[:, None] * g.get_velocities()).sum(0) + 0.3 * robot.get_generalized_velocity()[:3]

    p0 = momentum()
    w.integrate(200)
    assert np.linalg.norm(robot.get_generalized_velocity()[:3]) > 0.1  # it was pushed
    np.testing.assert_allclose(momentum(), p0, rtol=0, atol=1e-11 * np.abs(p0).max())


def _fnv(p):  # state_io::fnv1a (cpp/world/state_io.hpp), to reseal patched checkpoint bytes
    m64, h, n, i = (1 << 64) - 1, 0xcbf29ce484222325, len(p), 0
    while i + 8 <= n:
        h ^= int.from_bytes(p[i:i + 8], "little")
        h = (h * 0x100000001b3) & m64
        h ^= h >> 32
        i += 8
    while i < n:
        h ^= p[i]
        h = (h * 0x100000001b3) & m64
        i += 1
    h ^= n
    h = ((h ^ (h >> 30)) * 0xbf58476d1ce4e5b9) & m64
    h = ((h ^ (h >> 27)) * 0x94d049bb133111eb) & m64
    return h ^ (h >> 31)


def test_restore_refuses_bad_particle_data_and_leaves_the_world_unchanged():
    def world(x=0.0, r=R):
        w = torsion.World()
        w.add_granular_particles([[x, 0.0, 1.0], [0.5, 0.0, 1.0]], [r, R], MAT)
        return w

    data = world().capture_checkpoint().to_bytes()

    def offset(other):  # the first payload byte where a world built differently differs (the
        # values below differ in their lowest byte, so that is where the field starts)
        b = other.capture_checkpoint().to_bytes()
        return next(i for i in range(40, len(data)) if data[i] != b[i])

    def patched(at, value):
        d = bytearray(data)
        d[at:at + 8] = np.float64(value).tobytes()
        d[32:40] = _fnv(bytes(d[40:])).to_bytes(8, "little")
        return torsion.Checkpoint.from_bytes(bytes(d))

    w = world()
    w.integrate(3)
    before = w.state_hash()
    x_at, r_at = offset(world(x=5e-324)), offset(world(r=np.nextafter(R, 1.0)))
    for at, value, match in [(x_at, np.nan, "non-finite position"), (r_at, -1.0, "radius"),
                             (r_at, np.inf, "radius")]:
        with pytest.raises(ValueError, match=match):
            w.restore_checkpoint(patched(at, value))
        assert w.state_hash() == before
    w.restore_checkpoint(torsion.Checkpoint.from_bytes(data))  # the intact bytes restore
    assert w.state_hash() != before
