"""ray_test_batch's outputs: recycled memory (bindings/array_pool) never leaks between results,
and rays may come in any order (the batch is cast in a coherent order, returned in the caller's)."""

import gc

import numpy as np

import torsion

FIELDS = ("hit", "distance", "position", "normal", "object_index", "local_index", "deformable_id", "triangle")


def scene():
    w = torsion.World()
    w.add_ground()
    rng = np.random.default_rng(3)
    for i in range(40):
        b = w.add_box(*rng.uniform(0.2, 0.6, 3), 1.0) if i % 2 else w.add_sphere(rng.uniform(0.1, 0.4), 1.0)
        b.set_position(np.r_[rng.uniform(-4, 4, 2), rng.uniform(0.3, 1.5)])
        b.set_orientation(rng.normal(size=4))
    return w, rng


def copies(batch):
    return {k: getattr(batch, k).copy() for k in FIELDS}


def same(a, b):
    for k in FIELDS:
        x, y = a[k], b[k]
        assert x.dtype == y.dtype and x.shape == y.shape, k
        assert np.array_equal(x, y, equal_nan=x.dtype.kind == "f"), k


def test_results_are_independent_and_fully_written():
    w, rng = scene()
    n = 3000
    starts = np.tile([0.0, 0.0, 3.0], (n, 1))
    down = np.c_[rng.uniform(-1, 1, (n, 2)), -np.ones(n)]
    hits = w.ray_test_batch(starts, down, np.full(n, 20.0))
    assert hits.hit.all()
    kept = copies(hits)
    # a second result while the first is alive: its own arrays
    misses = w.ray_test_batch(starts, -down, np.full(n, 20.0))
    assert not misses.hit.any()
    assert not np.shares_memory(hits.distance, misses.distance)
    same(copies(hits), kept)
    # writing into one result leaves the other alone, and arrays are ordinary writable ones
    misses.distance[:] = 1.0
    same(copies(hits), kept)
    # the first result freed: its memory is reused by the next call of the same size, every
    # element of which is overwritten (misses there, where the old arrays held hits)
    del hits
    gc.collect()
    again = w.ray_test_batch(starts, -down, np.full(n, 20.0))
    assert not again.hit.any()
    assert np.isinf(again.distance).all() and np.isnan(again.position).all() and np.isnan(again.normal).all()
    assert (again.object_index == -1).all() and (again.local_index == -1).all()
    assert (again.deformable_id == -1).all() and (again.triangle == -1).all()
    # and hits after misses
    del misses, again
    gc.collect()
    same(copies(w.ray_test_batch(starts, down, np.full(n, 20.0))), kept)


def test_any_ray_order_gives_the_same_rows():
    """Shuffled input, shuffled output: each row depends on its ray alone, on 1 and 2 threads."""
    w, rng = scene()
    n = 5000
    starts = np.c_[rng.uniform(-5, 5, (n, 2)), rng.uniform(0.0, 4.0, n)]
    dirs = rng.normal(size=(n, 3))
    lengths = rng.uniform(0.5, 12.0, n)
    ref = copies(w.ray_test_batch(starts, dirs, lengths, num_threads=1))
    assert 0 < ref["hit"].sum() < n
    perm = rng.permutation(n)
    for threads in (1, 2):
        shuffled = copies(w.ray_test_batch(starts[perm], dirs[perm], lengths[perm], num_threads=threads))
        same(shuffled, {k: v[perm] for k, v in ref.items()})


def test_equal_distances_go_to_the_lowest_index():
    """Bodies whose surfaces coincide are hit at the same distance: the hit is the body of the
    lowest world index, whatever order the hierarchy (4-wide, nearest child first) visits them in."""
    w = torsion.World()
    w.add_ground()
    rng = np.random.default_rng(5)
    twins = []
    for i in range(60):
        if i % 6 == 0:  # five identical boxes at one pose, then a sphere
            pos = np.r_[rng.uniform(-3, 3, 2), 1.0]
            twins.append([])
        b = w.add_box(0.4, 0.4, 0.4, 1.0) if i % 6 < 5 else w.add_sphere(0.2, 1.0)
        b.set_position(pos if i % 6 < 5 else np.r_[rng.uniform(-3, 3, 2), 2.0])
        if i % 6 < 5:
            twins[-1].append(len(w.get_object_list()) - 1)  # its world index
    starts, dirs = [], []
    for group in twins:
        c = w.get_object_list()[group[0]].get_position()
        for _ in range(20):
            s = np.r_[rng.uniform(-5, 5, 2), 4.0]
            starts.append(s)
            dirs.append(c + rng.uniform(-0.15, 0.15, 3) - s)
    starts, dirs = np.array(starts), np.array(dirs)
    lengths = np.full(len(starts), 30.0)
    expected = np.repeat([min(g) for g in twins], 20)
    for threads in (1, 2):
        batch = w.ray_test_batch(starts, dirs, lengths, num_threads=threads)
        # a ray may meet another body first; those that reach a group see its lowest index
        at_group = np.isin(batch.object_index, np.concatenate(twins))
        assert at_group.mean() > 0.8
        assert np.array_equal(batch.object_index[at_group], expected[at_group])
    for i in range(len(starts)):
        hits = w.ray_test(starts[i], dirs[i], 30.0)
        assert hits[0].object_index == w.ray_test_batch(starts[i:i + 1], dirs[i:i + 1], lengths[:1]).object_index[0]


def test_small_scenes_match_brute_force():
    """1 to 9 bodies (the 4-wide root with empty slots, leaves beside inner nodes) against the
    closest hit over one-body worlds."""
    rng = np.random.default_rng(8)
    for n in range(1, 10):
        specs = [(np.r_[rng.uniform(-2, 2, 2), rng.uniform(0, 2)], rng.uniform(0.2, 0.8, 3)) for _ in range(n)]
        w = torsion.World()
        singles = []
        for pos, size in specs:
            w.add_box(*size, 1.0).set_position(pos)
            ws = torsion.World()
            ws.add_box(*size, 1.0).set_position(pos)
            singles.append(ws)
        starts = rng.uniform(-4, 4, (400, 3))
        dirs = rng.uniform(-2, 2, (400, 2 + 1)) - starts * 0.5
        lengths = np.full(400, 12.0)
        batch = w.ray_test_batch(starts, dirs, lengths)
        best = np.full(400, np.inf)
        best_obj = np.full(400, -1)
        for k, ws in enumerate(singles):
            h = ws.ray_test_batch(starts, dirs, lengths)
            closer = h.hit & (h.distance < best)
            best[closer], best_obj[closer] = h.distance[closer], k
        assert np.array_equal(batch.distance, best), n
        assert np.array_equal(batch.object_index, best_obj), n
        assert batch.hit.any()


def test_ground_fast_path_edges():
    """The ground, tested inline by every ray: a crossing beyond the doubles (t = inf) is no hit,
    a ray along the surface or away from it none either, one down hits at (height - z) / d_z."""
    w = torsion.World()
    w.add_ground(0.5)
    starts = np.array([[0.0, 0.0, 1e10], [0.0, 0.0, 0.5], [0.0, 0.0, 2.0], [1.0, 2.0, 2.0], [0.0, 0.0, 0.0]])
    dirs = np.array([[1.0, 0.0, -1e-300], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 0.6, -0.8], [0.0, 0.0, 1.0]])
    lengths = np.array([np.inf, np.inf, np.inf, np.inf, 0.25])
    # 5 rays cast as given, 100 (20 copies of each) in the coherent order
    many = copies(w.ray_test_batch(np.repeat(starts, 20, 0), np.repeat(dirs, 20, 0), np.repeat(lengths, 20)))
    for r in (copies(w.ray_test_batch(starts, dirs, lengths)), {k: v[::20] for k, v in many.items()}):
        assert list(r["hit"]) == [False, False, False, True, False]
        assert r["distance"][3] == (0.5 - 2.0) / -0.8
        assert np.array_equal(r["normal"][3], [0.0, 0.0, 1.0]) and r["object_index"][3] == 0
    # the start below the surface, looking up: the surface it sees from inside
    r = w.ray_test_batch(starts[4:], dirs[4:], np.array([1.0]))
    assert r.hit[0] and r.distance[0] == 0.5


def test_pairs_cast_together_equal_single_casts_bitwise():
    """ray_test_batch casts neighbours of its order two at a time (RayScene::cast2); each row must
    be what ray_test gives for that ray alone: rays from one point (pairs walk together), rays
    along the axes with +0.0 / -0.0 components (pairs whose signs differ fall back), and a
    deformable in the scene (every pair falls back)."""
    from torsion.bench import bench_query

    prims, dirs = bench_query.scene(seed=4)
    w = bench_query.torsion_world(prims)
    rng = np.random.default_rng(9)
    n = 1500
    starts = np.tile(bench_query.SENSOR, (n, 1))
    d = dirs[:n].copy()
    d[::7, :2] = 0.0
    d[1::7, :2] = -0.0
    d[2::7, 0] = rng.choice([0.0, -0.0], len(d[2::7]))
    lengths = rng.uniform(2.0, 12.0, n)
    lengths[5::50] = -1.0
    for with_cloth in (False, True):
        world = w
        if with_cloth:  # a cloth over part of the scene
            from torsion.deformable import grid_cloth

            v, t = grid_cloth(8, 8, 3.0, 3.0, center=(1.0, 0.5, 1.8))
            world.add_deformable_cloth(v, t, pinned_vertices=[0, 8])
        batch = world.ray_test_batch(starts, d, lengths, num_threads=1)
        assert batch.hit.mean() > 0.5
        for i in range(n):
            hits = world.ray_test(starts[i], d[i], lengths[i])
            assert batch.hit[i] == bool(hits)
            if hits:
                h = hits[0]
                assert batch.distance[i] == h.distance and batch.object_index[i] == h.object_index
                assert np.array_equal(batch.normal[i], h.normal) and np.array_equal(batch.position[i], h.position)
                assert batch.deformable_id[i] == h.deformable_id
        if with_cloth:
            assert (batch.deformable_id >= 0).sum() > 20


def test_sensor_rays_on_any_thread_count_equal_single_casts():
    """Rays from one point (sorted by direction cell alone, in one counting pass), some with
    directions of extreme length (normalised by the scaled path, the rest inline), cast in blocks
    handed out to 1, 2 and 3 threads: every row is ray_test's result for that ray, bit for bit."""
    from torsion.bench import bench_query

    prims, dirs = bench_query.scene(seed=6)
    w = bench_query.torsion_world(prims)
    rng = np.random.default_rng(11)
    n = 2311  # not a whole number of blocks or pairs
    starts = np.tile(bench_query.SENSOR, (n, 1))
    d = dirs[:n] * rng.uniform(0.1, 10.0, (n, 1))
    d[3::97] *= 1e-160  # |d|^2 underflows
    d[5::89] *= 1e150  # |d|^2 overflows
    d[7] = 0.0  # +z
    lengths = rng.uniform(1.0, 12.0, n)
    lengths[11::61] = 0.0
    results = [copies(w.ray_test_batch(starts, d, lengths, num_threads=t)) for t in (1, 2, 3)]
    for r in results[1:]:
        same(r, results[0])
    r = results[0]
    assert 0.5 < r["hit"].mean() < 1.0
    for i in range(n):
        hits = w.ray_test(starts[i], d[i], lengths[i])
        assert r["hit"][i] == bool(hits), i
        if hits:
            h = hits[0]
            assert r["distance"][i] == h.distance and r["object_index"][i] == h.object_index
            assert np.array_equal(r["normal"][i], h.normal) and np.array_equal(r["position"][i], h.position)
        else:
            assert np.isinf(r["distance"][i]) and r["object_index"][i] == -1
