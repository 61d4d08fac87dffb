"""World ray tests: batches, lidar, depth camera, filters, bad input."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import torsion


def random_scene(seed, n=30):
    rng = np.random.default_rng(seed)
    w = torsion.World()
    w.add_ground(-1.0)
    for i in range(n):
        kind = i % 4
        if kind == 0:
            b = w.add_sphere(rng.uniform(0.1, 0.5), 1.0)
        elif kind == 1:
            b = w.add_box(*rng.uniform(0.1, 0.8, 3), 1.0)
        elif kind == 2:
            b = w.add_cylinder(rng.uniform(0.1, 0.4), rng.uniform(0.2, 1.0), 1.0)
        else:
            b = w.add_capsule(rng.uniform(0.1, 0.3), rng.uniform(0.1, 0.8), 1.0)
        b.set_position(rng.uniform(-4, 4, 3))
        b.set_orientation(rng.normal(size=4))
    return w, rng


def random_rays(rng, n):
    starts = rng.uniform(-6, 6, (n, 3))
    dirs = rng.normal(size=(n, 3))
    lengths = rng.uniform(0.5, 15, n)
    return starts, dirs, lengths


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_closest_hit_is_the_minimum_over_bodies(seed):
    """Brute force: cast against a world holding each body alone; the scene's hit is the closest."""
    w, rng = random_scene(seed, n=12)
    singles = []
    for obj in w.get_object_list():
        ws = torsion.World()
        if isinstance(obj, torsion.Ground):
            ws.add_ground(obj.get_height())
        else:
            kind = type(obj)
            if kind is torsion.Sphere:
                b = ws.add_sphere(obj.get_radius(), 1.0)
            elif kind is torsion.Box:
                b = ws.add_box(*obj.get_dim(), 1.0)
            elif kind is torsion.Cylinder:
                b = ws.add_cylinder(obj.get_radius(), obj.get_height(), 1.0)
            else:
                b = ws.add_capsule(obj.get_radius(), obj.get_height(), 1.0)
            b.set_position(obj.get_position())
            b.set_orientation(obj.get_quaternion())
        singles.append(ws)
    starts, dirs, lengths = random_rays(rng, 200)
    batch = w.ray_test_batch(starts, dirs, lengths)
    for i in range(len(starts)):
        best, best_obj = math.inf, -1
        for k, ws in enumerate(singles):
            hits = ws.ray_test(starts[i], dirs[i], lengths[i])
            if hits and hits[0].distance < best:
                best, best_obj = hits[0].distance, k
        # the copies' orientations are re-normalised quaternions: equal to round-off, not bits
        assert batch.distance[i] == pytest.approx(best, rel=1e-12, abs=1e-12)
        assert batch.object_index[i] == best_obj
        assert batch.hit[i] == (best_obj >= 0)


def test_batch_equals_single_calls_bit_for_bit():
    w, rng = random_scene(7)
    starts, dirs, lengths = random_rays(rng, 2000)
    dirs[0] = 0.0  # zero direction: +z
    lengths[1] = -1.0  # no hit
    for threads in (1, 2, 3):
        batch = w.ray_test_batch(starts, dirs, lengths, num_threads=threads)
        for i in range(len(starts)):
            hits = w.ray_test(starts[i], dirs[i], lengths[i])
            if hits:
                h = hits[0]
                assert batch.hit[i]
                assert batch.distance[i] == h.distance
                assert np.array_equal(batch.position[i], h.position)
                assert np.array_equal(batch.normal[i], h.normal)
                assert batch.object_index[i] == h.object_index
                assert batch.local_index[i] == h.local_index
            else:
                assert not batch.hit[i] and batch.distance[i] == math.inf
                assert batch.object_index[i] == -1 and np.isnan(batch.position[i]).all()
    assert not batch.hit[1]


def test_direction_rules():
    w = torsion.World()
    s = w.add_sphere(0.5, 1.0)
    s.set_position([0, 0, 3])
    (h,) = w.ray_test([0, 0, 0], [0, 0, 0], 10)  # zero direction means +z
    assert h.distance == 2.5
    (h,) = w.ray_test([0, 0, 0], [0, 0, 7.0], 10)  # normalised
    assert h.distance == 2.5
    assert w.ray_test([0, 0, 0], [0, 0, 1], 0.0) == []
    assert w.ray_test([0, 0, 0], [0, 0, 1], -3.0) == []
    (h,) = w.ray_test([0, 0, 0], [0, 0, 1], math.inf)
    assert h.distance == 2.5
    # tiny and huge directions are normalised too: the squared norm of 1e-200 underflowed and
    # that of 1e160 overflowed, and those rays went up (+z) past the sphere on +x
    s.set_position([3, 0, 0])
    for scale in (1e-200, 5e-324, 1e-160, 1e160, 1e200):
        (h,) = w.ray_test([0, 0, 0], [scale, 0, 0], 10)
        assert h.distance == 2.5
    assert w.ray_test_batch(np.zeros((2, 3)), np.array([[1e-200, 0, 0], [1e200, 0, 0]]),
                            np.array([10.0, 10.0])).hit.all()


def test_long_rays_over_a_heightmap_do_not_hit_behind_their_start():
    # a ray leaving the plane z = 0.1 x upwards: with length 1e9 or inf the round-off tolerance
    # (relative to the length) took in the triangles behind the start, reported as a hit at 0
    w = torsion.World()
    xs = np.linspace(-5, 5, 11)
    w.add_height_map(11, 11, 10.0, 10.0, 0.0, 0.0, np.tile(0.1 * xs, 11))
    start = [0.5, 0.3, 0.15]  # 0.1 m above the surface
    for d in ([0, 0, 1], [1, 0, 1], [-1, 0.2, 0.5]):
        for length in (10.0, 1e9, math.inf):
            assert w.ray_test(start, d, length) == []
    batch = w.ray_test_batch(np.array([start, start]), np.array([[0, 0, 1.0]] * 2),
                             np.array([1e9, math.inf]))
    assert not batch.hit.any()
    # and a ray going down still finds the surface below
    (h,) = w.ray_test(start, [0, 0, -1], math.inf)
    assert h.distance == pytest.approx(0.1, abs=1e-12)


@pytest.mark.parametrize("floor", ["flat", "step"])
def test_rays_down_onto_terrain_at_its_lowest_height_hit(floor):
    # The ray is clipped to the band of the map's heights; its far end is where it reaches the
    # lowest height, where a flat map (or the floor beside a platform) lies. A hit there that
    # rounded one ulp past the clip was dropped: 506 of 2000 downward rays missed a flat
    # 41 x 41 map (and one straight down from (0.3, 0.2, 1.5)). Reference: the same rays on the
    # ground plane.
    n, size = 41, 8.0
    heights = np.zeros((n, n))
    if floor == "step":
        heights[:, -5:] = 0.5  # a platform along x > 3
    w = torsion.World()
    w.add_height_map(n, n, size, size, 0.0, 0.0, heights.ravel())
    g = torsion.World()
    g.add_ground(0.0)
    rng = np.random.default_rng(0)
    starts = np.c_[rng.uniform(-2.9, 2.9, (2000, 2)), rng.uniform(0.1, 3.0, 2000)]
    dirs = np.c_[rng.normal(0.0, 0.3, (2000, 2)), -np.ones(2000)]
    lengths = np.full(2000, 50.0)
    b = w.ray_test_batch(starts, dirs, lengths)
    ref = g.ray_test_batch(starts, dirs, lengths)
    inside = (np.abs(ref.position[:, :2]) < 3.9).all(axis=1)  # landing on the map
    assert inside.sum() > 1900 and b.hit[inside].all()
    # where a ray lands on the floor (height 0) it does so where the ground ray does
    on_floor = b.hit & (np.abs(b.position[:, 2]) < 1e-9)
    assert on_floor.sum() > (1000 if floor == "step" else inside.sum() - 1)
    np.testing.assert_allclose(b.distance[on_floor], ref.distance[on_floor], rtol=1e-12,
                               atol=1e-12)
    hits = w.ray_test([0.3, 0.2, 1.5], [0.0, 0.0, -1.0], 5.0)
    assert len(hits) == 1 and hits[0].distance == pytest.approx(1.5, abs=1e-12)


def test_collision_mask_and_ignored_body():
    w = torsion.World()
    near = w.add_sphere(0.5, 1.0, collision_group=0b01)
    far = w.add_sphere(0.5, 1.0, collision_group=0b10)
    near.set_position([2, 0, 0])
    far.set_position([5, 0, 0])
    assert w.ray_test([0, 0, 0], [1, 0, 0], 10)[0].object == near
    assert w.ray_test([0, 0, 0], [1, 0, 0], 10, collision_mask=0b10)[0].object == far
    assert w.ray_test([0, 0, 0], [1, 0, 0], 10, collision_mask=0b100) == []
    # the ignored body: world index and local index, both set
    assert w.ray_test([0, 0, 0], [1, 0, 0], 10, object_id=near.get_index_in_world(), local_id=0)[0].object == far
    assert w.ray_test([0, 0, 0], [1, 0, 0], 10, object_id=near.get_index_in_world())[0].object == near
    # a body whose collision mask is 0 is invisible to rays
    w2 = torsion.World()
    w2.add_sphere(0.5, 1.0, collision_mask=0).set_position([2, 0, 0])
    assert w2.ray_test([0, 0, 0], [1, 0, 0], 10) == []
    bodies = w.get_ray_cast_bodies()
    assert [b["object_index"] for b in bodies] == [0, 1]
    assert bodies[0]["shape"] == "sphere" and bodies[1]["collision_group"] == 0b10
    np.testing.assert_array_equal(bodies[1]["position"], [5, 0, 0])


def test_lidar_equals_the_equivalent_single_rays():
    w, rng = random_scene(3)
    rot = np.array([[0, -1, 0], [1, 0, 0], [0, 0, 1.0]])  # yawed 90 deg
    pos = np.array([0.3, -0.2, 0.5])
    args = dict(yaw_start=-1.0, yaw_increment=0.05, yaw_count=40, pitch_start=-0.3, pitch_increment=0.1, pitch_count=7)
    scan = w.ray_test_lidar(rot, pos, *args.values(), 0.2, 6.0)
    expected = []
    for i in range(40):
        yaw = -1.0 + 0.05 * i
        for j in range(7):
            pitch = -0.3 + 0.1 * j
            d = np.array([np.cos(pitch) * np.cos(yaw), np.cos(pitch) * np.sin(yaw), np.sin(pitch)])
            hits = w.ray_test(pos, rot @ d, 6.0)
            if hits and hits[0].distance >= 0.2:
                expected.append(hits[0].distance * d)
    assert scan.shape == (len(expected), 3) and len(expected) > 20
    np.testing.assert_allclose(scan, np.array(expected), rtol=0, atol=1e-12)


def test_lidar_sectors_past_a_turn_or_looking_back():
    # the sector cull took a ray's heading for its yaw (wrong once cos(pitch) < 0) and compared
    # it with the boxes' a turn either way only: a spinning sensor's growing yaw_start (past 3 pi)
    # or a pitch past 90 degrees lost the bodies a single ray sees
    w = torsion.World()
    w.add_sphere(0.5, 1.0).set_position([-5, 0, 0.5])  # behind the sensor
    w.add_sphere(0.5, 1.0).set_position([5 * math.cos(0.3), 5 * math.sin(0.3), 0])
    for yaw, pitch in ((0.0, math.pi - 0.1), (0.3 + 4 * math.pi, 0.0), (0.3 - 6 * math.pi, 0.0)):
        d = np.array([math.cos(pitch) * math.cos(yaw), math.cos(pitch) * math.sin(yaw),
                      math.sin(pitch)])
        (h,) = w.ray_test([0, 0, 0], d, 20.0)
        scan = w.ray_test_lidar(np.eye(3), np.zeros(3), yaw, 0.01, 1, pitch, 0.01, 1, 0.0, 20.0)
        np.testing.assert_allclose(scan, [h.distance * d], rtol=0, atol=1e-12)


def test_full_turn_lidar_sees_a_surrounding_ring():
    w = torsion.World()
    for k in range(12):
        a = 2 * np.pi * k / 12
        b = w.add_box(0.5, 0.5, 2.0, 1.0)
        b.set_position([3 * np.cos(a), 3 * np.sin(a), 0])
        b.set_orientation([np.cos(a / 2), 0, 0, np.sin(a / 2)])  # a face toward the sensor
    scan = w.ray_test_lidar(np.eye(3), [0, 0, 0], 0.0, 2 * np.pi / 12, 12, 0.0, 0.0, 1, 0.0, 10.0)
    np.testing.assert_allclose(np.linalg.norm(scan, axis=1), 2.75, atol=1e-9)


def test_depth_camera_plane_closed_form():
    w = torsion.World()
    w.add_ground(0.0)
    props = torsion.DepthCameraProperties(width=64, height=48, clip_near=0.01, clip_far=100.0, hfov=70.0, point_cloud=True)
    # camera 2 m up, pitched 30 deg down (rotation about its y axis)
    a = np.deg2rad(30)
    rot = np.array([[np.cos(a), 0, np.sin(a)], [0, 1, 0], [-np.sin(a), 0, np.cos(a)]])
    frame = w.capture_depth_camera([0, 0, 2.0], rot, props)
    f = 32 / np.tan(np.deg2rad(35))
    rows, cols = np.mgrid[0:48, 0:64]
    d_cam = np.stack([np.full(rows.shape, f), 32 - (cols + 0.5), 24 - (rows + 0.5)], axis=-1)
    d_world = d_cam @ rot.T
    # the ray s * d_world meets z = 0 at s = 2 / -d_z; depth along +X is s * f
    s = np.where(d_world[..., 2] < 0, 2.0 / -d_world[..., 2], np.inf)
    depth = np.where(np.isfinite(s) & (s * f <= 100.0), s * f, 100.0)
    seg = np.where(depth < 100.0, 0, -1)
    np.testing.assert_allclose(frame.depth, depth, rtol=1e-12)
    np.testing.assert_array_equal(frame.segmentation, seg)
    hit = seg == 0
    np.testing.assert_allclose(frame.point_cloud[hit][:, 2], 0.0, atol=1e-12)
    assert np.isnan(frame.point_cloud[~hit]).all()


@pytest.mark.parametrize("hfov", [1e-100, 1e-200, 1e-310, 5e-324])
def test_depth_camera_of_a_tiny_field_of_view(hfov):
    # a tiny hfov is a camera looking straight ahead: the focal length f = (w/2) / tan(hfov/2)
    # and |(f, y, z)| overflowed (NaN depth at 1e-200) or f was inf (nothing seen at 1e-310)
    w = torsion.World()
    w.add_ground()
    down = np.array([[0, 0, 1], [0, 1, 0], [-1, 0, 0.0]])  # camera +X along world -z
    props = torsion.DepthCameraProperties(4, 3, point_cloud=True, hfov=hfov)
    frame = w.capture_depth_camera([0.3, -0.2, 1.0], down, props)
    np.testing.assert_allclose(frame.depth, 1.0, rtol=0, atol=1e-15)
    np.testing.assert_array_equal(frame.segmentation, 0)
    np.testing.assert_allclose(frame.point_cloud.reshape(-1, 3), [[0.3, -0.2, 0.0]] * 12,
                               rtol=0, atol=1e-15)


def test_depth_camera_sphere_closed_form():
    w = torsion.World()
    ball = w.add_sphere(1.0, 1.0)
    ball.set_position([5.0, 0, 0])
    props = torsion.DepthCameraProperties(width=40, height=40, hfov=40.0)
    frame = w.capture_depth_camera([0, 0, 0], np.eye(3), props)
    f = 20 / np.tan(np.deg2rad(20))
    rows, cols = np.mgrid[0:40, 0:40]
    d = np.stack([np.full(rows.shape, f), 20 - (cols + 0.5), 20 - (rows + 0.5)], axis=-1)
    d /= np.linalg.norm(d, axis=-1, keepdims=True)
    c = np.array([5.0, 0, 0])
    b = d @ c
    disc = b * b - (25.0 - 1.0)
    t = b - np.sqrt(np.where(disc >= 0, disc, 0))
    depth = np.where(disc >= 0, t * d[..., 0], props.clip_far)
    np.testing.assert_allclose(frame.depth, depth, rtol=1e-12)
    np.testing.assert_array_equal(frame.segmentation, np.where(disc >= 0, 0, -1))


def test_depth_noise_is_deterministic_under_the_seed():
    w = torsion.World()
    w.add_ground()
    props = torsion.DepthCameraProperties(width=30, height=20, noise_std=0.01)
    rot = np.array([[0, 0, 1.0], [0, 1, 0], [-1.0, 0, 0]])  # looking straight down
    clean = w.capture_depth_camera([0, 0, 1], rot, torsion.DepthCameraProperties(width=30, height=20))
    w.set_sensor_noise_seed(42)
    a1 = w.capture_depth_camera([0, 0, 1], rot, props).depth
    a2 = w.capture_depth_camera([0, 0, 1], rot, props).depth
    w.set_sensor_noise_seed(42)
    b1 = w.capture_depth_camera([0, 0, 1], rot, props, num_threads=1).depth
    assert np.array_equal(a1, b1)
    assert not np.array_equal(a1, a2)  # the stream moves on between frames
    assert w.get_sensor_noise_seed() == 42
    noise = (a1 - clean.depth).ravel()
    assert abs(noise.std() - 0.01) < 0.002 and abs(noise.mean()) < 0.002


@pytest.mark.parametrize(
    "kwargs,match",
    [
        (dict(width=0), "width"),
        (dict(height=-3), "height"),
        (dict(hfov=0.0), "hfov"),
        (dict(hfov=180.0), "hfov"),
        (dict(hfov=math.nan), "hfov"),
        (dict(clip_near=2.0, clip_far=1.0), "clip_near"),
        (dict(clip_far=-1.0), "clip_far"),
        (dict(noise_std=-0.1), "noise_std"),
    ],
)
def test_bad_camera_properties(kwargs, match):
    with pytest.raises(ValueError, match=match):
        torsion.DepthCameraProperties(**kwargs)
    props = torsion.DepthCameraProperties()
    for k, v in kwargs.items():
        setattr(props, k, v)
    with pytest.raises(ValueError, match=match):
        torsion.World().capture_depth_camera([0, 0, 0], np.eye(3), props)


@pytest.mark.parametrize(
    "call,match",
    [
        (lambda w: w.ray_test([0, math.nan, 0], [1, 0, 0], 1), "start must be finite"),
        (lambda w: w.ray_test([0, 0], [1, 0, 0], 1), r"start must have shape \(3,\)"),
        (lambda w: w.ray_test([0, 0, 0], [1, 0, math.inf], 1), "direction must be finite"),
        (lambda w: w.ray_test([0, 0, 0], [1, 0, 0], math.nan), "length"),
        (lambda w: w.ray_test_batch(np.zeros((4, 3)), np.ones((3, 3)), np.ones(4)), r"directions must have shape \(4, 3\)"),
        (lambda w: w.ray_test_batch(np.zeros((4, 2)), np.ones((4, 3)), np.ones(4)), r"starts must have shape \(N, 3\)"),
        (lambda w: w.ray_test_batch(np.zeros((4, 3)), np.ones((4, 3)), np.ones(5)), r"lengths must have shape \(4,\)"),
        (lambda w: w.ray_test_batch(np.full((2, 3), math.nan), np.ones((2, 3)), np.ones(2)), "starts must be finite"),
        (lambda w: w.ray_test_batch(np.zeros((2, 3)), np.ones((2, 3)), np.ones(2), num_threads=-1), "num_threads"),
        (lambda w: w.ray_test_lidar(np.eye(3), [0, 0, 0], 0, 0.1, 10, 0, 0, 1, 2.0, 1.0), "range_min"),
        (lambda w: w.ray_test_lidar(np.eye(3), [0, 0, 0], 0, 0.1, -1, 0, 0, 1, 0.0, 1.0), "yaw_count"),
        (lambda w: w.ray_test_lidar(2 * np.eye(3), [0, 0, 0], 0, 0.1, 10, 0, 0, 1, 0.0, 1.0), "rot"),
        (lambda w: w.capture_depth_camera([0, 0, math.nan], np.eye(3), torsion.DepthCameraProperties()), "pos"),
    ],
)
def test_bad_input(call, match):
    w = torsion.World()
    w.add_ground()
    with pytest.raises(ValueError, match=match):
        call(w)


def test_pictures(tmp_path):
    pytest.importorskip("PIL")
    from PIL import Image

    w = torsion.World()
    w.add_ground()
    w.add_box(1, 1, 1, 1.0).set_position([3, 0, 0.5])
    a = np.deg2rad(15)
    rot = np.array([[np.cos(a), 0, np.sin(a)], [0, 1, 0], [-np.sin(a), 0, np.cos(a)]])
    frame = w.capture_depth_camera([0, 0, 1.0], rot, torsion.DepthCameraProperties(width=80, height=60))
    p1 = torsion.sensors.save_depth_png(frame.depth, tmp_path / "depth.png")
    p2 = torsion.sensors.save_segmentation_png(frame.segmentation, tmp_path / "seg.png")
    with Image.open(p1) as im:
        assert im.size == (80, 60) and im.mode == "L"
        grey = np.asarray(im)
    with Image.open(p2) as im:
        assert im.mode == "RGB"
        rgb = np.asarray(im)
    # the box (nearer than the floor behind it) is brighter; background is black
    box_px = frame.segmentation == 1
    assert box_px.any() and grey[box_px].mean() > grey[frame.segmentation == 0].mean() * 0.5
    assert (rgb[frame.segmentation == -1] == 0).all()
    assert len({tuple(rgb[frame.segmentation == k][0]) for k in (0, 1)}) == 2


def test_rays_see_every_change_of_the_world():
    """Ray tests reuse a cached scene: it must follow poses, steps, additions and removals."""
    w = torsion.World()
    w.set_gravity([0, 0, 0])
    s = w.add_sphere(0.5, 1.0)
    s.set_position([3, 0, 0])
    assert w.ray_test([0, 0, 0], [1, 0, 0], 10)[0].distance == 2.5
    s.set_position([4, 0, 0])
    assert w.ray_test([0, 0, 0], [1, 0, 0], 10)[0].distance == 3.5
    s.set_velocity([-1.0, 0, 0], [0, 0, 0])
    w.integrate(500)
    assert w.ray_test([0, 0, 0], [1, 0, 0], 10)[0].distance == pytest.approx(3.0)
    b = w.add_box(0.2, 0.2, 0.2, 1.0)
    b.set_position([1, 0, 0])
    assert w.ray_test([0, 0, 0], [1, 0, 0], 10)[0].object == b
    w.remove_object(b)
    assert w.ray_test([0, 0, 0], [1, 0, 0], 10)[0].object == s
    s.set_orientation([0, 1, 0, 0])
    assert w.ray_test([0, 0, 0], [1, 0, 0], 10)[0].object == s
