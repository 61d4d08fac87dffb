"""The ray scene's hierarchy (SAH-built, both children tested at once) against references it does
not share: a brute force over one-body worlds, and MuJoCo's mj_multiRay on the benchmark's scene."""

import numpy as np
import pytest

import torsion
from torsion.bench import bench_query


def grid_scene(n=300, seed=3):
    """Axis-aligned boxes and spheres at dyadic positions: every face lies on a dyadic plane, so a
    ray started on a face plane stays exactly on it (the slab tests see 0 * inf there)."""
    rng = np.random.default_rng(seed)
    specs = []
    for i in range(n):
        pos = rng.integers(-16, 17, 3) * 0.5
        if i % 3 == 0:
            specs.append(("sphere", pos, 0.25))
        else:
            specs.append(("box", pos, tuple(rng.integers(1, 4, 3) * 0.25)))
    return specs


def build(specs, ground=True):
    w = torsion.World()
    if ground:
        w.add_ground(-9.0)
    for kind, pos, size in specs:
        b = w.add_sphere(size, 1.0) if kind == "sphere" else w.add_box(*size, 1.0)
        b.set_position(pos)
    return w


def face_rays(specs, rng, n):
    """Rays along the axes (components exactly 0.0 or -0.0) that start on the face planes and
    edges of the boxes, plus random ones."""
    starts, dirs = [], []
    boxes = [(pos, size) for kind, pos, size in specs if kind == "box"]
    for _ in range(n):
        pos, size = boxes[rng.integers(len(boxes))]
        half = np.asarray(size) / 2
        s = pos + rng.choice([-1.0, 0.0, 1.0], 3) * half
        axis = rng.integers(3)
        d = np.zeros(3)
        d[axis] = rng.choice([-1.0, 1.0])
        for k in range(3):
            if k != axis and rng.random() < 0.5:
                d[k] = -0.0
        s[axis] += rng.choice([-6.0, 6.0])
        starts.append(s)
        dirs.append(d)
    starts = np.array(starts)
    dirs = np.array(dirs)
    r_starts = rng.uniform(-9, 9, (n, 3))
    r_dirs = rng.normal(size=(n, 3))
    return np.r_[starts, r_starts], np.r_[dirs, r_dirs]


def test_hierarchy_matches_brute_force_over_single_bodies():
    specs = grid_scene()
    rng = np.random.default_rng(11)
    starts, dirs = face_rays(specs, rng, 150)
    lengths = np.full(len(starts), 20.0)
    w = build(specs)
    batch = w.ray_test_batch(starts, dirs, lengths, num_threads=1)
    # brute force: the closest of the hits in one-body worlds (the same shape routine, no tree)
    best = np.full(len(starts), np.inf)
    best_obj = np.full(len(starts), -1)
    singles = [build([], ground=True)] + [build([spec], ground=False) for spec in specs]
    for k, ws in enumerate(singles):
        hits = ws.ray_test_batch(starts, dirs, lengths, num_threads=1)
        closer = hits.hit & (hits.distance < best)
        best[closer] = hits.distance[closer]
        best_obj[closer] = k
    assert np.array_equal(batch.distance, best)
    assert np.array_equal(batch.object_index, best_obj)
    # the face rays do meet what they run along: the test above is not about misses only
    assert batch.hit[:150].mean() > 0.5


def test_same_hits_as_mujoco_multiray_on_the_benchmark_scene():
    mujoco = pytest.importorskip("mujoco")
    prims, dirs = bench_query.scene(seed=5)
    n = len(dirs)
    w = bench_query.torsion_world(prims)
    starts = np.tile(bench_query.SENSOR, (n, 1))
    ours = w.ray_test_batch(starts, dirs, np.full(n, 10.0), num_threads=1)
    model, data = bench_query.mujoco_model(mujoco, prims)
    geomid = np.zeros(n, dtype=np.int32)
    dist = np.zeros(n)
    normal = np.zeros(3 * n)
    mujoco.mj_multiRay(model, data, bench_query.SENSOR, np.ascontiguousarray(dirs.ravel()), None, 1, -1,
                       geomid, dist, normal, n, 10.0)
    # the ground is object 0 and geom 0, then the primitives in the same order
    assert np.array_equal(ours.hit, geomid >= 0)
    assert np.array_equal(ours.object_index[ours.hit], geomid[ours.hit])
    np.testing.assert_allclose(ours.distance[ours.hit], dist[ours.hit], rtol=0, atol=1e-9)
    np.testing.assert_allclose(ours.normal[ours.hit], normal.reshape(-1, 3)[ours.hit], rtol=0, atol=1e-9)
    assert 0.1 < np.mean(ours.object_index[ours.hit] > 0) < 0.9  # primitives and ground both seen


def test_benchmark_scene_bitwise_equal_on_any_thread_count():
    prims, dirs = bench_query.scene(seed=2)
    n = len(dirs)
    w = bench_query.torsion_world(prims)
    starts = np.tile(bench_query.SENSOR, (n, 1))
    lengths = np.full(n, 10.0)
    ref = w.ray_test_batch(starts, dirs, lengths, num_threads=1)
    for threads in (2, 3, 0):
        for _ in range(3):
            got = w.ray_test_batch(starts, dirs, lengths, num_threads=threads)
            for field in ("hit", "distance", "position", "normal", "object_index", "local_index"):
                a, b = getattr(ref, field), getattr(got, field)
                assert a.tobytes() == b.tobytes(), (threads, field)
