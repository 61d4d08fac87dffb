"""Deformable terrain (world.add_deformable_terrain, torsion.DeformableTerrain; docs/soil.md):
soil that sinks under load by the Bekker-Wong pressure-sinkage law. Checked against Bekker's
formula (a plate of known area pressed with a known force, on a body and on a robot link),
plastic and elastic unloading as the material says, rays seeing the dent, bulldozed volume
conserved, checkpoints and the world XML restoring the soil bitwise, and bad input refused."""

import math

import numpy as np
import pytest

import torsion

Material = torsion.DeformableTerrain.Material
DX = 0.01  # node spacing (m)


def flat_terrain(world, size=0.6, soil=None, **kw):
    n = int(round(size / DX)) + 1
    return world.add_deformable_terrain(n, n, size, size, 0.0, 0.0, np.zeros(n * n),
                                        soil=soil if soil is not None else Material(), **kw)


def bekker_sinkage(soil, pressure, b):
    """Bekker's plate sinkage z = (p / (k_c / b + k_phi))^(1/n)."""
    return (pressure / (soil.k_c / b + soil.k_phi)) ** (1.0 / soil.n)


def press_plate(world, force, side=0.2, mass=20.0, ramp=800, hold=600):
    """A square plate (side x side, its edges halfway between nodes: side / DX nodes a side)
    pressed into the soil in zero gravity by a vertical force ramped up over `ramp` steps and then
    held: a quasi-static load."""
    world.set_gravity([0, 0, 0])
    plate = world.add_box(side, side, 0.02, mass)
    plate.set_position([0.5 * DX, 0.5 * DX, 0.01])  # bottom face on the surface (z = 0)
    for k in range(ramp + hold):
        plate.set_external_force([0, 0, -force * min(1.0, (k + 1) / ramp)])
        world.integrate()
    return plate


def test_a_plate_sinks_as_bekker_says():
    # Wong's dry sand (the default material) and a clay-like soil with a real k_c / b term
    for soil, force in [(Material(), 400.0),
                        (Material(k_c=20e3, k_phi=400e3, n=0.8, cohesion=4e3,
                                  friction_angle=math.radians(15)), 300.0)]:
        w = torsion.World()
        t = flat_terrain(w, soil=soil)
        plate = press_plate(w, force)
        side, area = 0.2, 0.04
        sinkage = -(plate.get_position()[2] - 0.01)
        expected = bekker_sinkage(soil, force / area, side)
        assert sinkage == pytest.approx(expected, rel=0.02)
        (c,) = t.get_contacts()
        assert c["nodes"] == 400 and c["area"] == pytest.approx(area)
        assert c["b"] == pytest.approx(side)  # a square's smaller dimension
        assert c["force"][2] == pytest.approx(force, rel=0.01)
        assert c["object_id"] == plate.get_id()
        # the surface under the plate is the plate's bottom; outside it is untouched
        assert t.get_height(0.005, 0.005) == pytest.approx(-sinkage, abs=1e-9)
        assert t.get_height(0.25, 0.25) == 0.0
        assert t.get_pressure_map().max() == pytest.approx(force / area, rel=0.02)


def test_unloading_is_plastic_or_elastic_as_the_material_says():
    force, area = 400.0, 0.04
    for rebound in (False, True):
        soil = Material(elastic_rebound=rebound, elastic_stiffness=5e7)
        w = torsion.World()
        t = flat_terrain(w, soil=soil)
        plate = press_plate(w, force)
        loaded = -(plate.get_position()[2] - 0.01)
        w.remove_object(plate)
        w.integrate(5)
        dent = t.get_sinkage_map()[30, 30]  # node (0, 0) at the plate's centre
        # (the plate came to rest 1e-6 m above the deepest it reached: abs=2e-6)
        if rebound:
            # springs back by the pressure over the unloading stiffness (2e-4 m here)
            assert dent == pytest.approx(loaded - force / area / soil.elastic_stiffness, abs=2e-6)
        else:
            assert dent == pytest.approx(loaded, abs=2e-6)  # no rebound at all
            assert dent >= loaded
        assert t.get_plastic_sinkage_map()[30, 30] == pytest.approx(dent, rel=1e-9)
        assert not t.get_contact_map().any()


PLATE_ROBOT = ('<robot name="plate"><link name="world"/>'
               '<link name="plate"><inertial><origin xyz="0 0 0"/><mass value="30"/>'
               '<inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial>'
               '<collision><origin xyz="0 0 0"/><geometry><box size="0.2 0.2 0.02"/></geometry>'
               '</collision></link>'
               '<joint name="sink" type="prismatic"><parent link="world"/><child link="plate"/>'
               '<origin xyz="0.005 0.005 0.01"/><axis xyz="0 0 1"/>'
               '<limit lower="-1" upper="1" effort="1000" velocity="10"/></joint></robot>')


def test_a_robot_link_sinks_by_its_weight():
    w = torsion.World()
    t = flat_terrain(w)
    robot = w.add_articulated_system(PLATE_ROBOT, fixed_base=True)
    for k in range(1400):  # its weight applied slowly: gravity ramped up over 0.8 s
        w.set_gravity([0, 0, -9.81 * min(1.0, (k + 1) / 800)])
        w.integrate()
    sinkage = -robot.get_generalized_coordinate()[0]
    weight = 30 * 9.81
    assert sinkage == pytest.approx(bekker_sinkage(Material(), weight / 0.04, 0.2), rel=0.02)
    (c,) = t.get_contacts()
    assert c["object_id"] == robot.get_id() and c["force"][2] == pytest.approx(weight, rel=0.01)


def test_rays_and_the_depth_camera_see_the_dent():
    w = torsion.World()
    t = flat_terrain(w)
    plate = press_plate(w, 400.0)
    sinkage = -(plate.get_position()[2] - 0.01)
    w.remove_object(plate)
    w.integrate()
    depth = t.get_sinkage_map()[30, 30]
    assert depth > 0.9 * sinkage
    (h,) = w.ray_test([0.005, 0.005, 1.0], [0, 0, -1], 2.0)
    assert h.position[2] == pytest.approx(-depth, abs=1e-12)
    assert h.object == t
    (h,) = w.ray_test([0.25, 0.25, 1.0], [0, 0, -1], 2.0)  # beside the dent: the flat soil
    assert h.position[2] == pytest.approx(0.0, abs=1e-12)
    # a depth camera looking straight down over the dent's centre and over flat soil
    down = np.array([[0, 0, 1], [0, 1, 0], [-1, 0, 0.0]])  # camera +X along world -z
    props = torsion.DepthCameraProperties(3, 3, point_cloud=True, hfov=1e-6)
    frame = w.capture_depth_camera([0.005, 0.005, 1.0], down, props)
    np.testing.assert_allclose(frame.depth, 1.0 + depth, rtol=0, atol=1e-9)
    assert np.all(frame.segmentation == t.get_index_in_world())
    frame = w.capture_depth_camera([0.25, 0.25, 1.0], down, props)
    np.testing.assert_allclose(frame.depth, 1.0, rtol=0, atol=1e-9)


def test_a_sphere_leaves_a_round_dent_and_the_wheel_like_shapes_are_met():
    # every kind of shape presses it through the collision-shape list: a sphere, a cylinder
    # lying on its side, a capsule
    w = torsion.World()
    t = flat_terrain(w, size=1.0)
    s = w.add_sphere(0.05, 5.0)
    s.set_position([-0.3, 0.0, 0.06])
    c = w.add_cylinder(0.05, 0.1, 5.0)
    c.set_position([0.0, 0.0, 0.06])
    c.set_orientation([math.cos(math.pi / 4), math.sin(math.pi / 4), 0, 0])  # axis along y
    cap = w.add_capsule(0.04, 0.1, 5.0)
    cap.set_position([0.3, 0.0, 0.05])
    w.integrate(1500)
    contacts = {c["object_id"]: c for c in t.get_contacts()}
    for body in (s, c, cap):
        assert body.get_id() in contacts
        # each is held up by the soil: the vertical force is its weight
        assert contacts[body.get_id()]["force"][2] == pytest.approx(5.0 * 9.81, rel=0.05)
        assert abs(body.get_linear_velocity()[2]) < 1e-3
    # the sphere's dent is deepest under its centre, round, and as deep as the sphere sank
    sink = t.get_sinkage_map()
    j0, i0 = 50, 20  # node at (-0.3, 0)
    around = sink[j0 - 6:j0 + 7, i0 - 6:i0 + 7]
    assert sink[j0, i0] == around.max() > 0.0
    assert sink[j0, i0] == pytest.approx(0.05 - s.get_position()[2], abs=1e-9)
    for d in (1, 2, 3):
        ring = [sink[j0 + d, i0], sink[j0 - d, i0], sink[j0, i0 + d], sink[j0, i0 - d]]
        assert max(ring) - min(ring) < 1e-9


def test_bulldozing_moves_the_pressed_volume_to_the_rim():
    soil = Material(bulldozing=True, bulldozing_flow=1.0, elastic_rebound=False)
    w = torsion.World()
    t = flat_terrain(w, soil=soil)
    plate = press_plate(w, 400.0)
    h = t.get_height_map()
    cell = DX * DX
    plastic = t.get_plastic_sinkage_map()
    # soil piled around the plate: the rim is above the initial level
    assert h.max() > 0.0
    assert h[30, 19] > 0.0  # just outside the plate's edge
    # what rose is what the plate pushed down plastically (volume kept)
    rose = h[h > 0].sum() * cell
    inside = t.get_contact_map()
    pushed = plastic[inside].sum() * cell
    assert rose == pytest.approx(pushed, rel=1e-9)
    assert plate.get_position()[2] < 0.01


def test_checkpoint_restores_the_soil_bitwise():
    def build():
        w = torsion.World()
        t = flat_terrain(w, soil=Material(bulldozing=True))
        b = w.add_box(0.2, 0.2, 0.02, 20.0)
        b.set_position([0.005, 0.005, 0.05])
        b.set_velocity([0.1, 0.0, 0.0], [0.0, 0.0, 0.5])
        return w, t, b

    w, t, b = build()
    w.integrate(200)
    h0 = w.state_hash()
    cp = w.capture_checkpoint()
    blob = cp.to_bytes()
    w.integrate(200)
    after = (w.state_hash(), t.get_height_map(), b.get_position())
    w.restore_checkpoint(cp)
    assert w.state_hash() == h0
    w.integrate(200)
    assert w.state_hash() == after[0]
    assert np.array_equal(t.get_height_map(), after[1])
    assert np.array_equal(b.get_position(), after[2])
    # into another world built the same way
    w2, t2, b2 = build()
    w2.restore_checkpoint(torsion.Checkpoint.from_bytes(blob))
    assert w2.state_hash() == h0
    w2.integrate(200)
    assert w2.state_hash() == after[0] and np.array_equal(t2.get_height_map(), after[1])
    # reset: the soil undisturbed again
    t.reset()
    assert np.array_equal(t.get_height_map(), t.get_initial_height_map())


def test_world_xml_round_trip_keeps_the_soil(tmp_path):
    w = torsion.World()
    t = flat_terrain(w, soil=Material(bulldozing=True, k_c=5e3), material="sand")
    t.set_name("soil")
    b = w.add_box(0.2, 0.2, 0.02, 20.0)
    b.set_position([0.005, 0.005, 0.05])
    w.integrate(300)
    w.remove_object(b)  # (a stepped body's XML reload is not bitwise: test_world_xml.py)
    w.integrate(3)
    path = tmp_path / "soil.xml"
    w.export_to_xml(str(path))
    w2 = torsion.World(str(path))
    t2 = w2.get_object("soil")
    assert isinstance(t2, torsion.DeformableTerrain)
    assert t2.get_material().k_c == 5e3 and t2.get_material().bulldozing
    assert np.array_equal(t2.get_height_map(), t.get_height_map())
    assert np.array_equal(t2.get_plastic_sinkage_map(), t.get_plastic_sinkage_map())
    assert w2.state_hash() == w.state_hash()
    boxes = []
    for world in (w, w2):  # the same box pressed into both (its id differs: no hash)
        box = world.add_box(0.1, 0.1, 0.02, 5.0)
        box.set_position([0.105, 0.005, 0.05])
        world.integrate(100)
        boxes.append(box.get_position())
    assert np.array_equal(boxes[0], boxes[1])
    assert np.array_equal(t2.get_height_map(), t.get_height_map())
    assert np.array_equal(t2.get_plastic_sinkage_map(), t.get_plastic_sinkage_map())


def test_removal_and_a_body_falls_through():
    w = torsion.World()
    t = flat_terrain(w)
    b = w.add_box(0.1, 0.1, 0.1, 1.0)
    b.set_position([0.005, 0.005, 0.05])
    w.integrate(500)
    assert b.get_position()[2] > 0.0
    w.remove_object(t)
    with pytest.raises(torsion.RemovedObjectError):
        t.get_height_map()
    w.integrate(200)
    assert b.get_position()[2] < -0.1  # nothing holds it any more


def test_collision_filter_decides_what_presses_it():
    w = torsion.World()
    t = flat_terrain(w, collision_mask=1)
    b = w.add_box(0.1, 0.1, 0.1, 1.0, collision_group=2)  # not in the terrain's mask
    b.set_position([0.005, 0.005, 0.05])
    w.integrate(200)
    assert b.get_position()[2] < -0.1 and t.get_contacts() == []
    assert not t.get_sinkage_map().any()


def test_the_terrain_never_makes_solver_contacts():
    w = torsion.World()
    flat_terrain(w)
    b = w.add_box(0.1, 0.1, 0.1, 1.0)
    b.set_position([0.005, 0.005, 0.05])
    w.integrate(100)
    assert len(b.get_contacts()) == 0  # held by the soil law alone
    assert abs(b.get_linear_velocity()[2]) < 0.05


def test_granular_particles_rest_on_its_surface():
    w = torsion.World()
    t = flat_terrain(w)
    mat = torsion.GranularMaterial(youngs_modulus=1e6, restitution=0.3, friction=0.5)
    pts = np.array([[0.0, 0.0, 0.05], [0.1, 0.05, 0.08]])
    g = w.add_granular_particles(pts, np.full(2, 0.01), mat)
    w.integrate(1500)
    # each rests on the surface, within the Hertz overlap, in the dent it pressed (their landing
    # and weight sink the soil: tests/terrain/test_soil_particles.py)
    for p in g.get_positions():
        under = t.get_height(p[0], p[1])
        assert abs(p[2] - 0.01 - under) < 1e-4
        assert -3e-3 < under < 0.0


def test_bad_input_is_refused():
    w = torsion.World()
    with pytest.raises(ValueError, match="heights must be finite"):
        w.add_deformable_terrain(2, 2, 1.0, 1.0, 0.0, 0.0, [0, 0, float("nan"), 0])
    with pytest.raises(ValueError, match="heights"):
        w.add_deformable_terrain(3, 3, 1.0, 1.0, 0.0, 0.0, [0, 0, 0, 0])
    with pytest.raises(ValueError, match="x_size"):
        w.add_deformable_terrain(2, 2, -1.0, 1.0, 0.0, 0.0, [0, 0, 0, 0])
    with pytest.raises(ValueError, match="center_x"):
        w.add_deformable_terrain(2, 2, 1.0, 1.0, float("inf"), 0.0, [0, 0, 0, 0])
    for field, value in [("n", 0.0), ("k_phi", -1.0), ("janosi_shear", 0.0),
                         ("friction_angle", 2.0), ("elastic_stiffness", float("nan")),
                         ("bulldozing_flow", 1.5), ("damping", -1.0), ("cohesion", -1.0)]:
        with pytest.raises(ValueError, match=field):
            Material(**{field: value})
        m = Material()
        setattr(m, field, value)
        with pytest.raises(ValueError, match=field):
            w.add_deformable_terrain(2, 2, 1.0, 1.0, 0.0, 0.0, [0, 0, 0, 0], soil=m)
        t = w.add_deformable_terrain(2, 2, 1.0, 1.0, 0.0, 0.0, [0, 0, 0, 0])
        with pytest.raises(ValueError, match=field):
            t.set_material(m)
        w.remove_object(t)
    with pytest.raises(TypeError):
        w.add_deformable_terrain(2, 2, 1.0, 1.0, 0.0, 0.0, [0, 0, 0, 0], soil="sand")
    w.add_box(0.1, 0.1, 0.1, 1.0)
    w.integrate1()
    with pytest.raises(RuntimeError):
        w.add_deformable_terrain(2, 2, 1.0, 1.0, 0.0, 0.0, [0, 0, 0, 0])
    w.integrate2()


def _soil_scene():
    """A box sinking into bulldozed soil and particles pressing it beside the box, mid-way."""
    w = torsion.World()
    t = flat_terrain(w, size=0.4, soil=Material(bulldozing=True, k_phi=400e3))
    box = w.add_box(0.1, 0.1, 0.05, 4.0)
    box.set_position([0.1, 0.0, 0.03])
    box.set_angular_velocity([0.0, 0.5, 0.2])
    rng = np.random.default_rng(3)
    pts = np.c_[rng.uniform(-0.15, -0.02, (40, 2)), rng.uniform(0.01, 0.1, 40)]
    g = w.add_granular_particles(pts, np.full(40, 0.01),
                                 torsion.GranularMaterial(density=7800, youngs_modulus=1e7))
    w.integrate(60)
    assert t.get_particle_load()["nodes"] > 0 and len(t.get_contacts()) == 1
    return w, t, g


def test_a_world_batch_copies_a_world_with_soil_bitwise():
    src, t, g = _soil_scene()
    batch = torsion.WorldBatch.from_world(src, 2, num_threads=2)
    assert set(batch.state_hashes().tolist()) == {src.state_hash()}
    ct = batch.world(1).get_object(0)  # the terrain (world index 0)
    assert isinstance(ct, torsion.DeformableTerrain)
    np.testing.assert_array_equal(ct.get_height_map(), t.get_height_map())
    np.testing.assert_array_equal(ct.get_plastic_sinkage_map(), t.get_plastic_sinkage_map())
    # the copies step as the source does, bit for bit (soil, box, particles)
    src.integrate(50)
    batch.integrate(50)
    assert set(batch.state_hashes().tolist()) == {src.state_hash()}
    np.testing.assert_array_equal(ct.get_height_map(), t.get_height_map())
    np.testing.assert_array_equal(ct.get_pressure_map(), t.get_pressure_map())
    # and each copy's soil is its own: pressing one leaves the source's and the other's alone
    before = t.get_height_map()
    heavy = batch.world(1).get_object(1)  # the box
    heavy.set_external_force([0.0, 0.0, -300.0])
    batch.integrate(5)
    src.integrate(5)
    assert batch.state_hashes()[0] == src.state_hash() != batch.state_hashes()[1]
    assert not np.array_equal(ct.get_height_map(), t.get_height_map())
    assert not np.array_equal(before, t.get_height_map())  # the source moved on by itself


def test_a_lean_state_restores_the_soil_bitwise():
    w, t, g = _soil_scene()
    state = w.capture_state()
    w.integrate(40)
    after, heights = w.state_hash(), t.get_height_map()
    w.integrate(30)  # the soil sinks on
    assert not np.array_equal(t.get_height_map(), heights)
    w.restore_state(state)
    w.integrate(40)
    assert w.state_hash() == after
    np.testing.assert_array_equal(t.get_height_map(), heights)
    # a batch reset from a lean state undoes the dents as well
    batch = torsion.WorldBatch.from_world(w, 2)
    start = batch.world(0).capture_state()
    hashes = batch.state_hashes()
    batch.integrate(20)
    batch.restore([0, 1], start)
    np.testing.assert_array_equal(batch.state_hashes(), hashes)


def test_snapshots_of_the_surface_keep_what_they_saw():
    # the surface is updated in place only when nothing else holds its samples: a heightmap
    # cloned from it, and the rays of each step, see the surface of their time
    w = torsion.World()
    t = flat_terrain(w)
    b = w.add_box(0.2, 0.2, 0.02, 20.0)
    b.set_position([0.005, 0.005, 0.011])
    w.integrate(50)
    clone = w.add_height_map(t, collision_group=0, collision_mask=0)  # touches nothing
    seen = clone.get_height_map()
    assert np.array_equal(seen, t.get_height_map())
    depths = []
    for _ in range(20):
        w.integrate(5)
        (h,) = w.ray_test([0.005, 0.005, 1.0], [0, 0, -1], 2.0, collision_mask=1 << 63)
        depths.append(h.position[2])
        assert h.position[2] == pytest.approx(t.get_height(0.005, 0.005), abs=1e-12)
    assert depths[-1] < depths[0] < 0.0  # still sinking, and every ray saw the current dent
    assert np.array_equal(clone.get_height_map(), seen)
    assert not np.array_equal(t.get_height_map(), seen)


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


def test_restore_refuses_bad_soil_data_and_leaves_the_world_unchanged():
    def world(n=1.1, h0=0.0):
        w = torsion.World()
        w.add_deformable_terrain(3, 3, 1.0, 1.0, 0.0, 0.0, [h0] + [0.0] * 8, soil=Material(n=n))
        return w

    data = world().capture_checkpoint().to_bytes()

    def offset(other):  # the first payload byte where a world built differently differs
        b = other.capture_checkpoint().to_bytes()
        return next(i for i in range(40, len(data)) if data[i] != b[i])

    def patched(at, value):
        d = bytearray(data)
        d[at:at + 8] = np.float64(value).tobytes()
        d[32:40] = _fnv(bytes(d[40:])).to_bytes(8, "little")
        return torsion.Checkpoint.from_bytes(bytes(d))

    w = world()
    before = w.state_hash()
    n_at = offset(world(n=np.nextafter(1.1, 2.0)))
    level_at = offset(world(h0=5e-324))  # node 0: level, reference, plastic, pressure, ...
    for at, value, match in [(n_at, -1.0, "n must be"), (level_at, np.nan, "levels"),
                             (level_at + 16, np.inf, "plastic"), (level_at + 24, -5.0, "pressure")]:
        with pytest.raises(ValueError, match=match):
            w.restore_checkpoint(patched(at, value))
        assert w.state_hash() == before
    w.restore_checkpoint(torsion.Checkpoint.from_bytes(data))  # the intact bytes restore
    assert w.state_hash() == before


def test_the_bundled_quadruped_stands_on_soil():
    # robot feet (spheres on its links) press the soil; the soil carries its weight
    feet = ("FR_foot_fixed", "FL_foot_fixed", "RR_foot_fixed", "RL_foot_fixed")
    w = torsion.World()
    n = 121
    t = w.add_deformable_terrain(n, n, 1.2, 1.2, 0.0, 0.0, np.zeros(n * n))
    robot = w.add_articulated_system(torsion.robots.urdf_path("quadruped"))
    gc = robot.get_generalized_coordinate()
    gc[7:] = torsion.robots.QUADRUPED_STAND
    robot.set_generalized_coordinate(gc)
    gc[2] += 0.01 - min(robot.get_frame_position(f)[2] - 0.02 for f in feet)  # feet 1 cm up
    robot.set_generalized_coordinate(gc)
    robot.set_pd_gains(np.full(18, 150.0), np.full(18, 3.0))
    robot.set_pd_target(gc.copy(), np.zeros(18))
    w.integrate(1000)
    z0 = robot.get_generalized_coordinate()[2]
    w.integrate(500)
    assert abs(robot.get_generalized_coordinate()[2] - z0) < 1e-3  # standing still
    contacts = t.get_contacts()
    assert len(contacts) == 4 and all(c["object_id"] == robot.get_id() for c in contacts)
    weight = sum(robot.get_masses()) * 9.81
    assert sum(c["force"][2] for c in contacts) == pytest.approx(weight, rel=0.01)
    for f in feet:  # every foot sank into the soil
        x, y, z = robot.get_frame_position(f)
        assert t.get_sinkage_map()[int(round((y + 0.6) / DX)), int(round((x + 0.6) / DX))] > 0.005


def test_a_bad_deformable_terrain_element_is_refused(tmp_path):
    w = torsion.World()
    t = w.add_deformable_terrain(3, 3, 1.0, 1.0, 0.0, 0.0, np.zeros(9))
    t.set_name("soil")
    path = tmp_path / "soil.xml"
    w.export_to_xml(str(path))
    text = path.read_text()
    assert "<deformable_terrain" in text and "<soil_state" in text
    assert torsion.World(str(path)).get_object("soil").get_material().n == 1.1
    for old, new, match in [('erosion_iterations="3"', 'erosion_iterations="-1"', "erosion_iterations"),
                            ('n="1.1000000000000001"', 'n="0"', "n must be"),
                            ('level="0 ', 'level="', "level must hold 9 nodes"),
                            ('in_contact="0 ', 'in_contact="2 ', "in_contact")]:
        assert old in text, old
        bad = tmp_path / "bad.xml"
        bad.write_text(text.replace(old, new, 1))
        with pytest.raises(ValueError, match=match):
            torsion.World(str(bad))
