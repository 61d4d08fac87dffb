"""Collision detection inside a World: the stage in integrate1(), contacts stored and cleared,
filters, materials, settings, counters, determinism, and the broad phase against brute force."""

import itertools
import math

import numpy as np
import pytest

import torsion
from torsion import Shape

I = (1.0, 0.0, 0.0, 0.0)
ALL = -1
STATIC = 1 << 63


def resting_box_world():
    w = torsion.World()
    g = w.add_ground()
    b = w.add_box(1, 1, 1, 1.0)
    b.set_position([0, 0, 0.499])
    return w, g, b


def test_integrate1_finds_contacts_and_integrate2_keeps_them():
    w, g, b = resting_box_world()
    assert len(w.get_contact_problem()) == 0
    w.integrate1()
    cp = w.get_contact_problem()
    assert len(cp) == 4
    assert set(cp["object_a_index"]) == {0} and set(cp["object_b_index"]) == {1}
    assert set(cp["object_a_id"]) == {g.get_id()} and set(cp["object_b_id"]) == {b.get_id()}
    # A is the ground (lower index), so the normal from B (box) to A (ground) points down
    np.testing.assert_allclose(cp["normal"], np.tile([0, 0, -1.0], (4, 1)))
    np.testing.assert_allclose(cp["depth"], 0.001, atol=1e-12)
    np.testing.assert_array_equal(cp["impulse"], 0.0)
    w.integrate2()
    assert len(w.get_contact_problem()) == 4  # readable until the next step


def test_object_get_contacts():
    w, g, b = resting_box_world()
    w.integrate()
    cb = b.get_contacts()
    cg = g.get_contacts()
    assert len(cb) == 4 and len(cg) == 4
    assert not cb["is_object_a"].any() and cg["is_object_a"].all()
    assert set(cb["pair_object_id"]) == {g.get_id()}
    assert set(cb["pair_object_index"]) == {0}
    assert set(cg["pair_object_index"]) == {1}
    np.testing.assert_array_equal(cb["local_body_index"], 0)
    np.testing.assert_array_equal(cb["contact_index"], np.arange(4))
    corners = sorted(map(tuple, np.round(cb["position"][:, :2], 12)))
    assert corners == [(-0.5, -0.5), (-0.5, 0.5), (0.5, -0.5), (0.5, 0.5)]
    # the contact solver stopped the box: the ground's forces on it add up to its weight, and the
    # ground feels the opposite
    np.testing.assert_allclose(cb["force"].sum(axis=0), [0.0, 0.0, 9.81], atol=1e-6)
    np.testing.assert_array_equal(cg["contact_index"], cb["contact_index"])
    np.testing.assert_allclose(cg["force"], -cb["force"], atol=1e-12)


def test_contacts_cleared_by_remove_and_next_step():
    w, g, b = resting_box_world()
    s = w.add_sphere(0.1, 1.0)
    s.set_position([5, 5, 0.05])
    w.integrate()
    assert len(w.get_contact_problem()) == 5
    w.remove_object(s)
    assert len(w.get_contact_problem()) == 0
    assert len(b.get_contacts()) == 0
    b.set_position([0, 0, 3])
    w.integrate()
    assert len(w.get_contact_problem()) == 0


def test_integrate_no_contact_detection():
    w, g, b = resting_box_world()
    w.integrate()
    assert len(w.get_contact_problem()) == 4
    w.integrate_no_contact_detection()
    assert w.is_mid_step()
    assert len(w.get_contact_problem()) == 0
    with pytest.raises(RuntimeError):
        w.integrate_no_contact_detection()
    w.integrate2()
    w.integrate1()
    assert len(w.get_contact_problem()) == 4
    w.integrate2()


FILTER_TABLE = [
    # group_a, mask_a, group_b, mask_b, collide?
    (1, ALL, 1, ALL, True),
    (1, 1, 1, 1, True),
    (1, 2, 1, ALL, False),  # A's mask rejects B's group
    (1, ALL, 2, 2, False),  # B's mask rejects A's group
    (2, 1, 1, 2, True),
    (2, 1, 1, 1, False),
    (1 << 40, 1 << 41, 1 << 41, 1 << 40, True),
    (1 << 40, 1 << 41, 1 << 41, 1 << 41, False),
    (0, ALL, 1, ALL, False),  # group 0 never collides
    (STATIC, ALL, 1, ALL, True),  # the static bit is an ordinary bit for dynamic bodies
    (3, 6, 6, 3, True),
    (4, 3, 6, 3, False),
]


@pytest.mark.parametrize("ga,ma,gb,mb,expected", FILTER_TABLE)
def test_filter_table(ga, ma, gb, mb, expected):
    w = torsion.World()
    w.set_gravity([0, 0, 0])
    a = w.add_sphere(0.5, 1.0, collision_group=ga, collision_mask=ma)
    b = w.add_sphere(0.5, 1.0)
    b.set_position([0, 0, 0.9])
    assert w.set_object_collision_filter(b, gb, mb) is True
    w.integrate()
    assert (len(w.get_contact_problem()) > 0) == expected
    # swapping the roles (the filter rule is symmetric)
    w.set_object_collision_filter(a, gb, mb, local_idx=0)
    w.set_object_collision_filter(b, ga, ma)
    w.integrate()
    assert (len(w.get_contact_problem()) > 0) == expected
    c = w.get_last_collision_counters()
    # a body whose group or mask is zero can touch nothing: it never enters the broad phase
    assert c["broadphase_pairs"] == (0 if 0 in (ga, ma, gb, mb) else 1)
    assert c["narrowphase_pairs"] == (1 if expected else 0)


def test_static_never_collides_with_static():
    w = torsion.World()
    w.add_ground()
    b = w.add_box(1, 1, 1, 1.0)
    b.set_position([0, 0, 0.4])
    b.set_body_type(torsion.BodyType.STATIC)
    w.integrate()
    assert len(w.get_contact_problem()) == 0
    b.set_body_type(torsion.BodyType.DYNAMIC)
    w.integrate1()
    assert len(w.get_contact_problem()) == 4
    w.integrate2()


def test_ground_mask_filters():
    w = torsion.World()
    w.add_ground(collision_mask=2)
    b = w.add_box(1, 1, 1, 1.0)  # group 1
    b.set_position([0, 0, 0.45])
    w.integrate1()
    assert len(w.get_contact_problem()) == 0
    w.integrate2()
    assert b.get_collision_group() == 1
    w.set_object_collision_filter(b, 2, ALL)
    w.integrate1()
    assert len(w.get_contact_problem()) == 4
    w.integrate2()


def test_bad_filter_and_material_input():
    w, g, b = resting_box_world()
    with pytest.raises(IndexError, match="local_idx 1"):
        w.set_object_collision_filter(b, 1, 1, local_idx=1)
    with pytest.raises(IndexError):
        w.set_object_material(b, "rubber", local_idx=7)
    with pytest.raises(ValueError, match="collision_group"):
        w.set_object_collision_filter(b, 1.5, 1)
    with pytest.raises(ValueError, match="collision_mask"):
        w.set_object_collision_filter(b, 1, 1 << 64)
    with pytest.raises(ValueError, match="material"):
        w.set_object_material(b, "")
    other = torsion.World()
    with pytest.raises(ValueError, match="another World"):
        other.set_object_material(b, "rubber")
    assert w.set_object_material(b, "rubber") is True
    assert b.get_material() == "rubber"
    w.integrate1()
    with pytest.raises(RuntimeError):
        w.set_object_collision_filter(b, 1, 1)
    w.integrate2()
    w.remove_object(b)
    with pytest.raises(torsion.RemovedObjectError):
        w.set_object_material(b, "steel")
    with pytest.raises(torsion.RemovedObjectError):
        b.get_contacts()


def test_settings_roundtrip_and_validation():
    w = torsion.World()
    s = w.get_contact_settings()
    assert s.margin == 1e-4 and s.max_points_per_pair == 4
    w.set_contact_settings(torsion.ContactSettings(margin=0.002, max_points_per_pair=2))
    assert w.get_contact_settings().margin == 0.002
    assert w.get_contact_settings().max_points_per_pair == 2
    for bad in [dict(margin=-1.0), dict(margin=math.nan), dict(max_points_per_pair=0),
                dict(max_points_per_pair=9), dict(flat_tolerance=2.0), dict(epa_tolerance=0.0)]:
        with pytest.raises(ValueError):
            torsion.ContactSettings(**bad)
    s = torsion.ContactSettings()
    s.margin = -0.5  # fields are plain; the world validates on set
    with pytest.raises(ValueError, match="margin"):
        w.set_contact_settings(s)
    with pytest.raises(ValueError, match="margin"):
        torsion.collide(Shape.sphere(1), (0, 0, 0), I, Shape.sphere(1), (0, 0, 1), I, s)
    w.set_broadphase_settings(torsion.BroadphaseSettings(aabb_margin=0.01, sweep_axis=2))
    assert w.get_broadphase_settings().sweep_axis == 2
    with pytest.raises(ValueError, match="sweep_axis"):
        torsion.BroadphaseSettings(sweep_axis=3)
    with pytest.raises(ValueError, match="aabb_margin"):
        torsion.BroadphaseSettings(aabb_margin=-1)


def test_margin_in_world_and_max_points():
    w, g, b = resting_box_world()
    b.set_position([0, 0, 0.505])  # 5 mm above the ground
    w.integrate1()
    assert len(w.get_contact_problem()) == 0
    w.integrate2()
    w.set_contact_settings(torsion.ContactSettings(margin=0.01, max_points_per_pair=2))
    b.set_position([0, 0, 0.505])
    w.integrate1()
    cp = w.get_contact_problem()
    assert len(cp) == 2
    np.testing.assert_allclose(cp["depth"], -0.005, atol=1e-9)
    # the two kept corners are diagonal (the farthest from the first)
    d = cp["position"][0] - cp["position"][1]
    assert np.hypot(d[0], d[1]) == pytest.approx(math.sqrt(2))
    w.integrate2()


def test_counters():
    w, g, b = resting_box_world()
    far = w.add_sphere(0.1, 1.0)
    far.set_position([10, 0, 5])
    assert w.get_collision_counters_enabled() is False
    w.integrate()
    c = w.get_last_collision_counters()
    assert c["collision_bodies"] == 3
    assert c["broadphase_pairs"] == 2  # ground-box, ground-sphere (box and sphere are far apart)
    assert c["narrowphase_pairs"] == 2
    assert c["colliding_pairs"] == 1
    assert c["contacts"] == 4
    assert c["time_total"] == 0.0
    w.set_collision_counters_enabled(True)
    assert w.get_collision_counters_enabled() is True
    w.integrate()
    c = w.get_last_collision_counters()
    assert c["time_total"] > 0.0
    assert c["time_total"] >= c["time_narrowphase"]


def random_scene(seed, n):
    rng = np.random.default_rng(seed)
    w = torsion.World()
    w.add_ground()
    shapes = []
    for i in range(n):
        kind = i % 4
        if kind == 0:
            o = w.add_sphere(rng.uniform(0.05, 0.3), 1.0)
            s = Shape.sphere(o.get_radius())
        elif kind == 1:
            dims = rng.uniform(0.1, 0.6, 3)
            o = w.add_box(*dims, 1.0)
            s = Shape.box(*dims)
        elif kind == 2:
            r, h = rng.uniform(0.05, 0.3), rng.uniform(0.1, 0.6)
            o = w.add_capsule(r, h, 1.0)
            s = Shape.capsule(r, h)
        else:
            r, h = rng.uniform(0.05, 0.3), rng.uniform(0.1, 0.6)
            o = w.add_cylinder(r, h, 1.0)
            s = Shape.cylinder(r, h)
        o.set_position(rng.uniform([-3, -3, -0.2], [3, 3, 2.5]))
        o.set_orientation(rng.normal(size=4))
        shapes.append((o, s))
    return w, shapes


def brute_force_contacts(w, shapes):
    """Every pair tested with torsion.collide, in (index, index) order, as the world should."""
    objs = [(w.get_object(0), Shape.ground())] + shapes
    rows = []
    for i, j in itertools.combinations(range(len(objs)), 2):
        (oa, sa), (ob, sb) = objs[i], objs[j]
        pa = oa.get_position() if i else np.zeros(3)
        qa = oa.get_quaternion() if i else np.array(I)
        c = torsion.collide(sa, pa, qa, sb, ob.get_position(), ob.get_quaternion())
        for rec in c:
            rows.append((i, j, rec["depth"], *rec["normal"]))
    return rows


@pytest.mark.parametrize("axis", [-1, 0, 1, 2])
def test_broad_phase_misses_nothing(axis):
    # the SAP broad phase plus narrow phase find exactly the contacts of testing every pair
    w, shapes = random_scene(7, 160)
    w.set_gravity([0, 0, 0])
    w.set_broadphase_settings(torsion.BroadphaseSettings(sweep_axis=axis))
    w.integrate1()
    cp = w.get_contact_problem()
    got = [(int(r["object_a_index"]), int(r["object_b_index"]), r["depth"], *r["normal"]) for r in cp]
    expected = brute_force_contacts(w, shapes)
    assert len(expected) > 50
    assert len(got) == len(expected)
    got, expected = np.array(got, float), np.array(expected, float)
    np.testing.assert_array_equal(got[:, :2], expected[:, :2])  # the same pairs, in order
    # the world builds rotation matrices its own way (round-off differs from collide()'s); the
    # normal of a cylinder's curved contact is ill-conditioned to that, the depth is not
    np.testing.assert_allclose(got[:, 2], expected[:, 2], atol=1e-7)
    np.testing.assert_allclose(got[:, 3:], expected[:, 3:], atol=2e-3)
    w.integrate2()


@pytest.mark.parametrize("axis", [-1, 2])
def test_broad_phase_grid_with_long_bodies_misses_nothing(axis):
    # a dense lattice of touching cubes (the grid's cells hold many bodies) crossed by long
    # beams that cover many cells (they are kept out of the grid and tested against every body):
    # exactly the contacts of testing every pair. Sweeping along z puts the grid on x and y, where
    # the 12 m beams cover far more cells than the grid admits per body
    rng = np.random.default_rng(5)
    w = torsion.World()
    w.add_ground()
    w.set_gravity([0, 0, 0])
    w.set_broadphase_settings(torsion.BroadphaseSettings(sweep_axis=axis))
    shapes = []
    for i, j, k in itertools.product(range(9), range(9), range(2)):
        o = w.add_box(0.2, 0.2, 0.2, 1.0)
        o.set_position([0.19 * i + rng.uniform(-0.005, 0.005), 0.19 * j, 0.15 + 0.19 * k])
        o.set_orientation(rng.normal(size=4) * [20, 1, 1, 1])
        shapes.append((o, Shape.box(0.2, 0.2, 0.2)))
    for k, (x, y, yaw) in enumerate([(0.8, 0.5, 0.0), (0.3, 0.8, 1.2), (0.9, 0.9, 2.0)]):
        o = w.add_box(12.0, 0.15, 0.15, 5.0)
        o.set_position([x, y, 0.25 + 0.12 * k])
        o.set_orientation([math.cos(yaw / 2), 0, 0, math.sin(yaw / 2)])
        shapes.append((o, Shape.box(12.0, 0.15, 0.15)))
    w.integrate1()
    cp = w.get_contact_problem()
    got = np.array([(int(r["object_a_index"]), int(r["object_b_index"]), r["depth"]) for r in cp], float)
    expected = np.array([row[:3] for row in brute_force_contacts(w, shapes)], float)
    assert len({(a, b) for a, b, _ in expected if a > 0 and b > 163}) > 20  # beams touch cubes
    assert got.shape == expected.shape
    np.testing.assert_array_equal(got[:, :2], expected[:, :2])
    np.testing.assert_allclose(got[:, 2], expected[:, 2], atol=1e-7)
    w.integrate2()


def assert_pairs_equal_brute_force(seed, n, spread):
    # n random bodies packed by `spread` so that some touch: the broad phase's contacts equal
    # those of testing every pair with collide(), in the same order
    w, shapes = random_scene(seed, n)
    w.set_gravity([0, 0, 0])
    for o, _ in shapes:
        o.set_position(spread * o.get_position() + np.array([0, 0, 0.3]))
    w.integrate1()
    assert w.get_last_collision_counters()["collision_bodies"] == n + 1
    cp = w.get_contact_problem()
    got = np.array([(int(r["object_a_index"]), int(r["object_b_index"]), r["depth"]) for r in cp], float)
    expected = np.array([row[:3] for row in brute_force_contacts(w, shapes)], float)
    assert len({(a, b) for a, b, _ in expected if a > 0}) > 5  # body-body pairs, not only ground
    assert got.shape == expected.shape
    np.testing.assert_array_equal(got[:, :2], expected[:, :2])
    np.testing.assert_allclose(got[:, 2], expected[:, 2], atol=1e-7)
    w.integrate2()


@pytest.mark.parametrize("seed", [21, 22, 23])
def test_small_scene_pairs_equal_brute_force(seed):
    # up to 32 collision bodies the broad phase tests every pair instead of sweeping
    assert_pairs_equal_brute_force(seed, 30, 0.4)


@pytest.mark.parametrize("seed", [31, 32])
def test_plain_sweep_pairs_equal_brute_force(seed):
    # 33 to 63 bounded bodies: the sweep over every body at once (no grid), its pairs put in order
    # by the broad phase's counting sort
    assert_pairs_equal_brute_force(seed, 50, 0.5)


def test_deterministic_and_coherent_order():
    # two identical worlds stepped identically give bitwise identical contact lists, also after
    # the bodies moved (the insertion-sort repair path of the broad phase)
    lists = []
    for _ in range(2):
        w, shapes = random_scene(3, 120)
        out = []
        for step in range(5):
            for k, (o, _) in enumerate(shapes):
                o.set_position(o.get_position() + 0.01 * np.array([math.sin(k + step), 0, 0]))
            w.integrate1()
            out.append(w.get_contact_problem().tobytes())
            w.integrate2()
        lists.append(out)
    assert lists[0] == lists[1]


def test_collide_bad_input():
    s = Shape.sphere(1)
    with pytest.raises(ValueError, match="position_a"):
        torsion.collide(s, (0, 0, math.nan), I, s, (0, 0, 0), I)
    with pytest.raises(ValueError, match="quaternion_b"):
        torsion.collide(s, (0, 0, 0), I, s, (0, 0, 0), (0, 0, 0, 0))
    with pytest.raises(ValueError, match="quaternion_b"):
        torsion.collide(s, (0, 0, 0), I, s, (0, 0, 0), (1, 0, 0))
    with pytest.raises(ValueError, match="position_a"):
        torsion.collide(s, (0, 0), I, s, (0, 0, 0), I)
    with pytest.raises(TypeError):
        torsion.collide("sphere", (0, 0, 0), I, s, (0, 0, 0), I)
    for make in [lambda: Shape.box(1, 0, 1), lambda: Shape.sphere(-1), lambda: Shape.cylinder(1, 0),
                 lambda: Shape.capsule(0, 1), lambda: Shape.sphere(math.inf),
                 lambda: Shape.ground(math.nan)]:
        with pytest.raises(ValueError):
            make()
    with pytest.raises(ValueError):
        torsion.World().add_box(1, 0, 1, 1.0)
    # ground against ground is never tested
    g = Shape.ground()
    assert len(torsion.collide(g, (0, 0, 0), I, g, (0, 0, 0), I)) == 0


def test_nan_pose_refused_on_objects():
    w, g, b = resting_box_world()
    with pytest.raises(ValueError, match="position"):
        b.set_position([0, math.nan, 0])
    with pytest.raises(ValueError, match="quaternion"):
        b.set_orientation([math.nan, 0, 0, 0])


@pytest.mark.parametrize("dt", [1e-3, 0.02])
def test_bodies_placed_exactly_on_each_other_touch_from_the_first_step(dt):
    # 0.1 + 0.2 * 1 is 0.30000000000000004: the top box's face lies a few ulp above the lower
    # box's. collide() reports the pair (its round-off margin); the broad phase's boxes used to
    # stop short of that margin, so the world found no contact in the first step, the box fell
    # g dt^2 into the one below and, ERP being off by default, stayed there.
    w = torsion.World()
    w.set_time_step(dt)
    w.add_ground()
    boxes = []
    for i in range(5):
        b = w.add_box(0.2, 0.2, 0.2, 1.0)
        b.set_position([0.0, 0.0, 0.1 + 0.2 * i])
        boxes.append(b)
    assert boxes[1].get_position()[2] - boxes[0].get_position()[2] > 0.2  # the ulp gap is there
    w.integrate1()
    for i in range(1, 5):  # every box rests on the one below from step 1: four contacts each
        below = [c for c in boxes[i].get_contacts()
                 if int(c["pair_object_id"]) == boxes[i - 1].get_id()]
        assert len(below) == 4, i
    w.integrate2()
    for b in boxes:  # no free fall (g dt); what is left is the first, cold solve's error
        assert abs(b.get_linear_velocity()[2]) < 1e-3 * 9.81 * dt
    w.integrate(int(round(2.0 / dt)))
    for i, b in enumerate(boxes):  # nothing fell into anything (free fall: g dt^2 = 3.9 mm)
        assert b.get_position()[2] == pytest.approx(0.1 + 0.2 * i, abs=1e-4)


@pytest.mark.parametrize("dt", [0.005, 0.01, 0.02])
def test_a_stack_rests_at_rl_time_steps(dt):
    # The first, cold solve of a 5-box stack does not converge in 150 sweeps (Gauss-Seidel on a
    # stack), and a contact whose solve ended separating at 1e-3 m/s opened a gap of 2e-5 m: with
    # a contact margin of 0 the pair had no contact the next step and the box fell g dt^2 (3.9 mm
    # at dt = 0.02) into the one below, for good (ERP is off by default). The default margin
    # (0.1 mm) keeps such a pair in contact, approaching at gap / dt. Before: the top box sank
    # 4.6 mm and drifted 7 mm sideways in 3 s at dt = 0.02; 0.24 mm at dt = 0.005.
    assert torsion.ContactSettings().margin == 1e-4
    w = torsion.World()
    assert w.get_contact_settings().margin == 1e-4
    boxes = stack_for_3_s(w, dt, [lambda: w.add_box(0.2, 0.2, 0.2, 1.0)] * 5)
    for i, b in enumerate(boxes):
        p = b.get_position()
        assert p[2] == pytest.approx(0.1 + 0.2 * i, abs=1e-4)
        assert np.hypot(p[0], p[1]) < 1e-4
        assert np.abs(b.get_linear_velocity()).max() < 1e-3


def stack_for_3_s(w, dt, makers):
    """Bodies 0.2 m tall from makers() stacked touching on the ground, after 3 s at dt."""
    w.set_time_step(dt)
    w.add_ground()
    bodies = [make() for make in makers]
    for i, b in enumerate(bodies):
        b.set_position([0.0, 0.0, 0.1 + 0.2 * i])
    w.integrate(int(round(3.0 / dt)))
    return bodies


@pytest.mark.parametrize("dt", [0.01, 0.02])
def test_a_stack_of_cylinders_rests_at_rl_time_steps(dt):
    # A cylinder's cap is its rim sampled at 8 points. Once the first, unconverged solves left a
    # cap tilted by as little as 1e-4 rad to its neighbour, the rim's true deepest point lay
    # between two samples, the sampled manifold fell short of the GJK/EPA depth and was dropped,
    # and the pair rested on that single point, which hopped around the rim from step to step.
    # The stack of 1, 1 and 3 kg cylinders sank 133 and 227 mm in 3 s at dt = 0.01 (200 and 319
    # mm at 0.02); the same boxes stay put.
    w = torsion.World()
    makers = [lambda m=m: w.add_cylinder(0.1, 0.2, m) for m in (1.0, 1.0, 3.0)]
    for i, c in enumerate(stack_for_3_s(w, dt, makers)):
        p = c.get_position()
        assert p[2] == pytest.approx(0.1 + 0.2 * i, abs=2e-4)
        assert np.hypot(p[0], p[1]) < 5e-4  # (0.16 mm of drift at dt = 0.02)


def test_a_tilted_cap_rests_on_a_cap_with_several_points():
    # a 3 kg cylinder tilted 0.005 rad (inside the 0.02 rad flat tolerance) on a static one, 2 cm
    # off its axis: it rests on a manifold that reaches the exact depth, where it sank 11.5 mm in
    # 60 steps of 0.02 s on a single hopping point
    w = torsion.World()
    w.set_time_step(0.02)
    base = w.add_cylinder(0.1, 0.2, 1.0)
    base.set_body_type(torsion.BodyType.STATIC)
    base.set_position([0.0, 0.0, 0.1])
    top = w.add_cylinder(0.1, 0.2, 3.0)
    half = 0.0025
    top.set_orientation([np.cos(half), np.sin(half), 0.0, 0.0])
    top.set_position([0.02, 0.0, 0.3])
    w.integrate(60)
    assert top.get_position()[2] > 0.3 - 0.2e-3
    contacts = w.get_contact_problem()
    assert len(contacts) >= 3
    # the deepest point is the exact one: the cap's rim meets the top face at its own depth
    assert contacts["depth"].max() < 1e-3
