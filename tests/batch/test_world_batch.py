"""WorldBatch against N separate worlds stepped from Python: the same states (state hashes, gc,
gv) and observations, bit for bit, on 1 and 2 threads; from_world copies against their source;
ArticulatedView calls against the per-world ArticulatedSystem calls; resets; batched rays."""

import numpy as np
import pytest

import torsion
from ..meshes import box_mesh, write_obj

N = 6
STAND = torsion.robots.QUADRUPED_STAND


def build_quadruped(world, index):
    """Ground, a quadruped named 'robot' under PD (its start height depends on the index) and a
    box and a sphere that it may kick."""
    world.set_time_step(1e-3)
    world.add_ground()
    q = world.add_articulated_system(torsion.robots.urdf_path("quadruped"))
    q.set_name("robot")
    gc = q.get_generalized_coordinate()
    gc[2] = 0.32 + 0.004 * index
    gc[7:] = STAND + 0.02 * np.sin(np.arange(12) + index)
    q.set_generalized_coordinate(gc)
    q.set_pd_gains(np.full(18, 50.0), np.full(18, 1.0))
    q.set_pd_target(gc, np.zeros(18))
    box = world.add_box(0.1, 0.1, 0.1, 0.5)
    box.set_position([0.6, 0.0, 0.05 + 0.01 * index])
    ball = world.add_sphere(0.05, 0.2)
    ball.set_position([0.0, 0.5, 0.3])


def targets(step, n):
    """PD targets that differ per world and per step (gc layout, floating base ignored)."""
    t = np.zeros((n, 19))
    t[:, 3] = 1.0
    t[:, 7:] = STAND + 0.2 * np.sin(0.01 * step + np.arange(n)[:, None] + np.arange(12))
    return t


def run_separate(n, steps):
    worlds, robots = [], []
    for i in range(n):
        w = torsion.World()
        build_quadruped(w, i)
        worlds.append(w)
        robots.append(w.get_object("robot"))
    for s in range(steps):
        t = targets(s, n)
        for i in range(n):
            robots[i].set_pd_target(t[i], np.zeros(18))
            worlds[i].integrate()
    return worlds, robots


def run_batch(n, steps, threads):
    batch = torsion.WorldBatch(build_quadruped, n, num_threads=threads)
    view = batch.articulated("robot")
    for s in range(steps):
        view.set_pd_targets(targets(s, n))
        batch.integrate()
    return batch, view


@pytest.fixture(scope="module")
def separate():
    return run_separate(N, 150)


@pytest.mark.parametrize("threads", [1, 2])
def test_batch_matches_separate_worlds(separate, threads):
    worlds, robots = separate
    batch, view = run_batch(N, 150, threads)
    assert len(batch) == N and batch.num_threads == threads
    hashes = batch.state_hashes()
    assert hashes.dtype == np.uint64 and hashes.shape == (N,)
    assert list(hashes) == [w.state_hash() for w in worlds]
    # the worlds moved apart: the test would notice a batch stepping one world N times
    assert len(set(hashes.tolist())) == N
    gc = view.get_generalized_coordinates()
    gv = view.get_generalized_velocities()
    assert np.array_equal(gc, np.stack([r.get_generalized_coordinate() for r in robots]))
    assert np.array_equal(gv, np.stack([r.get_generalized_velocity() for r in robots]))
    assert np.array_equal(batch.get_world_times(), [w.get_world_time() for w in worlds])


def test_thread_counts_agree_over_many_calls():
    # the pool is reused call after call; 1, 2 and 3 threads (more threads than cores) agree
    results = []
    for threads in (1, 2, 3):
        batch = torsion.WorldBatch(build_quadruped, 5, num_threads=threads)
        for _ in range(20):
            batch.integrate(3)
        results.append(batch.state_hashes().tolist())
    assert results[0] == results[1] == results[2]


def test_integrate_steps_equals_repeated_calls():
    a = torsion.WorldBatch(build_quadruped, 3, num_threads=2)
    b = torsion.WorldBatch(build_quadruped, 3, num_threads=2)
    a.integrate(40)
    for _ in range(40):
        b.integrate()
    assert np.array_equal(a.state_hashes(), b.state_hashes())
    a.integrate(0)
    assert np.array_equal(a.state_hashes(), b.state_hashes())


def test_world_access_and_build_indices():
    seen = []

    def build(world, index):
        seen.append(index)
        build_quadruped(world, index)

    batch = torsion.WorldBatch(build, 4, num_threads=2)
    assert seen == [0, 1, 2, 3]
    w = batch.world(2)
    assert isinstance(w, torsion.World)
    assert batch.world(-1).get_object("robot").get_generalized_coordinate()[2] == pytest.approx(0.332)
    # a world of the batch is a World: changing it through its handle changes the batch
    w.get_object("robot").set_generalized_velocity(np.ones(18))
    assert np.array_equal(batch.articulated("robot").get_generalized_velocities()[2], np.ones(18))
    with pytest.raises(IndexError, match="out of range"):
        batch.world(4)
    with pytest.raises(IndexError, match="out of range"):
        batch.world(-5)


def rich_world(tmp_path):
    """Every kind of object, a removed one (a hole in the ids) and non-default settings."""
    w = torsion.World()
    w.set_time_step(2e-3)
    w.set_gravity([0.1, 0.0, -9.0])
    w.add_ground(material="floor")
    w.set_material_pair_prop("floor", "rubber", 0.9, 0.1, 0.0)
    path = tmp_path / "cube.obj"
    write_obj(path, *box_mesh((0.2, 0.2, 0.2)))
    mesh = w.add_mesh(str(path), 1.0, material="rubber")
    mesh.set_position([0.5, 0.5, 0.4])
    doomed = w.add_sphere(0.1, 1.0)
    child = torsion.CompoundObjectChild(torsion.ObjectType.BOX, [0.1, 0.2, 0.1], [0.1, 0, 0])
    comp = w.add_compound([child, torsion.CompoundObjectChild(torsion.ObjectType.SPHERE, [0.05, 0, 0], [-0.1, 0, 0])], 2.0)
    comp.set_position([-0.5, 0.3, 0.5])
    heights = 0.05 * np.sin(np.arange(100.0)).reshape(10, 10)
    w.add_height_map(10, 10, 4.0, 4.0, 3.0, 3.0, heights.ravel())
    q = w.add_articulated_system(torsion.robots.urdf_path("quadruped"))
    q.set_name("robot")
    gc = q.get_generalized_coordinate()
    gc[2] = 0.4
    gc[7:] = STAND
    q.set_generalized_coordinate(gc)
    q.set_pd_gains(np.full(18, 40.0), np.full(18, 2.0))
    q.set_pd_target(gc, np.zeros(18))
    cap = w.add_capsule(0.05, 0.2, 0.3)
    cap.set_position([0.0, -0.6, 0.6])
    w.remove_object(doomed)  # the capsule takes its world index; its id stays
    w.set_sensor_noise_seed(1234)
    w.integrate(25)
    return w


def test_from_world_copies_match_source(tmp_path):
    src = rich_world(tmp_path)
    batch = torsion.WorldBatch.from_world(src, 3, num_threads=2)
    assert len(batch) == 3
    assert set(batch.state_hashes().tolist()) == {src.state_hash()}
    assert batch.world(0).get_topology_fingerprint() == src.get_topology_fingerprint()
    names = [o.get_name() for o in src.get_object_list()]
    assert [o.get_name() for o in batch.world(1).get_object_list()] == names
    assert [o.get_id() for o in batch.world(1).get_object_list()] == [o.get_id() for o in src.get_object_list()]
    # the copies step as the source does, bit for bit, and are independent of it and each other
    src.integrate(60)
    batch.integrate(60)
    assert set(batch.state_hashes().tolist()) == {src.state_hash()}
    batch.world(1).get_object("robot").set_generalized_velocity(np.full(18, 0.1))
    batch.integrate(5)
    src.integrate(5)
    h = batch.state_hashes()
    assert h[0] == h[2] == src.state_hash() and h[1] != h[0]


def test_from_world_leaves_the_source_alone(tmp_path):
    src = rich_world(tmp_path)
    before = src.state_hash()
    torsion.WorldBatch.from_world(src, 2).integrate(10)
    assert src.state_hash() == before


def test_view_observations_equal_per_world_calls(separate):
    worlds, robots = separate
    batch, view = run_batch(N, 150, 2)
    frames = robots[0].get_frame_names()
    pick = [frames[0], 3, frames[-1]]
    pos = view.get_frame_positions(pick)
    rot = view.get_frame_orientations(pick)
    assert pos.shape == (N, 3, 3) and rot.shape == (N, 3, 3, 3)
    vel = view.get_frame_velocities(pick)
    ang = view.get_frame_angular_velocities(pick)
    assert vel.shape == ang.shape == (N, 3, 3)
    for i, r in enumerate(robots):
        for j, f in enumerate(pick):
            assert np.array_equal(pos[i, j], r.get_frame_position(f))
            assert np.array_equal(rot[i, j], r.get_frame_orientation(f))
            assert np.array_equal(vel[i, j], r.get_frame_velocity(f))
            assert np.array_equal(ang[i, j], r.get_frame_angular_velocity(f))
    assert np.any(vel != 0) and np.any(ang != 0)  # moving robots
    bodies = list(range(len(robots[0].get_body_names())))
    forces = view.get_contact_forces(bodies)
    assert forces.shape == (N, len(bodies), 3)
    feet_in_contact = 0
    for i, r in enumerate(robots):
        rec = r.get_contacts()
        for j, b in enumerate(bodies):
            expect = np.zeros(3)
            for row in rec[rec["local_body_index"] == b]:
                expect = expect + row["force"]
            assert np.array_equal(forces[i, j], expect)
            feet_in_contact += bool(np.any(expect != 0))
    assert feet_in_contact >= N  # standing robots: the forces checked are not all zero
    # the ground pushes the feet up
    assert np.all(forces[:, :, 2].sum(axis=1) > 0.0)


def test_out_arrays_are_filled_and_returned():
    batch = torsion.WorldBatch(build_quadruped, 3, num_threads=1)
    view = batch.articulated("robot")
    out = np.empty((3, 19))
    assert view.get_generalized_coordinates(out=out) is out
    assert np.array_equal(out, view.get_generalized_coordinates())
    out_v = np.empty((3, 18))
    assert view.get_generalized_velocities(out=out_v) is out_v
    out_p = np.empty((3, 2, 3))
    assert view.get_frame_positions([0, 1], out=out_p) is out_p
    out_r = np.empty((3, 1, 3, 3))
    assert view.get_frame_orientations([0], out=out_r) is out_r
    out_f = np.empty((3, 1, 3))
    assert view.get_contact_forces([0], out=out_f) is out_f
    assert view.dof == 18 and view.gc_dim == 19 and len(view) == 3 and view.name == "robot"


def test_view_setters_equal_per_world_setters():
    n = 4
    rng = np.random.default_rng(3)
    kp = rng.uniform(20, 60, (n, 18))
    kd = rng.uniform(0.5, 2.0, (n, 18))
    tau = rng.normal(0, 0.5, (n, 18))
    tgt = targets(7, n)
    vel = rng.normal(0, 0.1, (n, 18))
    batch = torsion.WorldBatch(build_quadruped, n, num_threads=2)
    view = batch.articulated("robot")
    view.set_pd_gains(kp, kd)
    view.set_generalized_forces(tau)
    view.set_pd_targets(tgt, vel)
    batch.integrate(30)
    for i in range(n):
        w = torsion.World()
        build_quadruped(w, i)
        r = w.get_object("robot")
        r.set_pd_gains(kp[i], kd[i])
        r.set_generalized_force(tau[i])
        r.set_pd_target(tgt[i], vel[i])
        w.integrate(30)
        assert w.state_hash() == batch.state_hashes()[i]
    # one row for every world
    view.set_pd_gains(np.full(18, 10.0), np.full(18, 0.5))
    for i in range(n):
        kp_i, kd_i = batch.world(i).get_object("robot").get_pd_gains()
        assert np.array_equal(kp_i[6:], np.full(12, 10.0)) and np.array_equal(kd_i[6:], np.full(12, 0.5))


def test_set_states_and_restore_reset_worlds():
    batch = torsion.WorldBatch(build_quadruped, 4, num_threads=2)
    view = batch.articulated("robot")
    start = batch.world(1).capture_checkpoint()
    start_hash = batch.world(1).state_hash()
    gc0 = view.get_generalized_coordinates()
    batch.integrate(50)
    moved = batch.state_hashes()
    # restore world 1's start into worlds 1 and 3: a checkpoint of another world of the same
    # topology is accepted
    batch.restore([1, 3], start)
    h = batch.state_hashes()
    assert h[1] == h[3] == start_hash
    assert h[0] == moved[0] and h[2] == moved[2]
    # restore then step equals the original run
    batch.integrate(50)
    assert batch.state_hashes()[1] == moved[1] == batch.state_hashes()[3]
    # portable bytes; None = every world
    batch.restore(None, torsion.Checkpoint.from_bytes(start.to_bytes()))
    assert set(batch.state_hashes().tolist()) == {start_hash}
    # set_states: gc/gv of some worlds
    gc = gc0[[0, 2]]
    gv = np.zeros((2, 18))
    gc[:, 2] += 0.05
    view.set_states([0, 2], gc, gv)
    got = view.get_generalized_coordinates()
    assert np.array_equal(got[[0, 2]], gc) and np.array_equal(got[1], gc0[1])
    view.set_states(np.array([-1]), gc[:1], gv[:1])  # negative indices count from the end
    assert np.array_equal(view.get_generalized_coordinates()[3], gc[0])


def test_seeds():
    batch = torsion.WorldBatch(build_quadruped, 4, num_threads=1)
    batch.set_seeds(7)
    seeds = batch.get_seeds()
    assert seeds.dtype == np.uint64 and len(set(seeds.tolist())) == 4
    assert [batch.world(i).get_sensor_noise_seed() for i in range(4)] == seeds.tolist()
    batch.set_seeds(7)
    assert np.array_equal(batch.get_seeds(), seeds)
    batch.set_seeds(np.array([1, 2, 3, 2**64 - 1], dtype=np.uint64))
    assert batch.get_seeds().tolist() == [1, 2, 3, 2**64 - 1]
    # sensor noise follows the seed: the same seed, the same noisy depth image
    props = torsion.DepthCameraProperties(width=8, height=6, noise_std=0.01)
    rot = np.array([[0.0, 0, 1], [0, 1, 0], [-1, 0, 0]])  # looking down
    batch.set_seeds([5, 5, 6, 6])
    imgs = [batch.world(i).capture_depth_camera([0, 0, 2], rot, props).depth for i in range(4)]
    assert np.array_equal(imgs[0], imgs[1]) and not np.array_equal(imgs[0], imgs[2])


def test_ray_test_batch_matches_per_world():
    batch = torsion.WorldBatch(build_quadruped, 3, num_threads=2)
    batch.integrate(20)
    rng = np.random.default_rng(0)
    starts = rng.uniform(-1, 1, (3, 50, 3)) + [0, 0, 1.5]
    dirs = rng.normal(size=(3, 50, 3))
    dirs[:, :, 2] = -np.abs(dirs[:, :, 2])
    lengths = np.full((3, 50), 1e3)
    d = batch.ray_test_batch(starts, dirs, lengths)
    assert d.shape == (3, 50)
    for i in range(3):
        ref = batch.world(i).ray_test_batch(starts[i], dirs[i], lengths[i]).distance
        assert np.array_equal(d[i], ref)
    assert np.isfinite(d).all()  # every ray points down at the ground
    # a height scan in the robot's base frame, yaw only: a grid under the base
    grid = np.stack(np.meshgrid(np.linspace(-0.5, 0.5, 5), np.linspace(-0.5, 0.5, 5)), -1).reshape(-1, 2)
    s_local = np.column_stack([grid, np.full(len(grid), 1.0)])
    down = np.tile([0.0, 0.0, -1.0], (len(grid), 1))
    scan = batch.ray_test_batch(s_local, down, np.full(len(grid), 5.0), articulated="robot", yaw_only=True)
    assert scan.shape == (3, len(grid))
    for i in range(3):
        r = batch.world(i).get_object("robot")
        rot = r.get_frame_orientation(0)
        yaw = np.arctan2(rot[1, 0], rot[0, 0])
        c, s = np.cos(yaw), np.sin(yaw)
        rz = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1.0]])
        base = batch.world(i).get_object("robot").get_generalized_coordinate()[:3]
        ref = batch.world(i).ray_test_batch(base + s_local @ rz.T, down, np.full(len(grid), 5.0)).distance
        assert np.allclose(scan[i], ref, rtol=0, atol=1e-12)
    # corner rays miss the robot and reach the ground: 1 m above the base height
    assert scan[:, 0] == pytest.approx(1.0 + view_base_height(batch), abs=1e-9)


def view_base_height(batch):
    return batch.articulated("robot").get_generalized_coordinates()[:, 2]


# --- bad input ---------------------------------------------------------------------------------


def test_bad_construction():
    with pytest.raises(ValueError, match="num_worlds"):
        torsion.WorldBatch(build_quadruped, 0)
    with pytest.raises(ValueError, match="num_threads"):
        torsion.WorldBatch(build_quadruped, 2, num_threads=-1)
    with pytest.raises(TypeError, match="build"):
        torsion.WorldBatch(42, 2)

    def uneven(world, index):
        world.add_ground()
        if index == 2:
            world.add_sphere(0.1, 1.0)

    with pytest.raises(ValueError, match="world 2 has another topology"):
        torsion.WorldBatch(uneven, 3)

    def failing(world, index):
        raise KeyError("from build")

    with pytest.raises(KeyError, match="from build"):
        torsion.WorldBatch(failing, 2)
    with pytest.raises(ValueError, match="num_worlds"):
        torsion.WorldBatch.from_world(torsion.World(), -3)
    with pytest.raises(TypeError):
        torsion.WorldBatch.from_world(None, 2)
    split = torsion.World()
    split.integrate1()
    with pytest.raises(RuntimeError, match="integrate1"):
        torsion.WorldBatch.from_world(split, 2)


def test_bad_view_input():
    batch = torsion.WorldBatch(build_quadruped, 3, num_threads=1)
    with pytest.raises(ValueError, match="no object named 'nope'"):
        batch.articulated("nope")
    for i in range(3):
        batch.world(i).get_object_list()[2].set_name("box")
    with pytest.raises(ValueError, match="not an articulated system"):
        batch.articulated("box")
    view = batch.articulated("robot")
    before = batch.state_hashes()
    with pytest.raises(ValueError, match=r"positions must have shape \(3, 19\)"):
        view.set_pd_targets(np.zeros((3, 18)))
    with pytest.raises(ValueError, match="velocities must have shape"):
        view.set_pd_targets(targets(0, 3), np.zeros((2, 18)))
    bad = targets(0, 3)
    bad[2, 9] = np.nan
    with pytest.raises(ValueError, match="positions must be finite; row 2"):
        view.set_pd_targets(bad)
    with pytest.raises(ValueError, match="positions must hold real numbers"):
        view.set_pd_targets("hello")
    with pytest.raises(ValueError, match="kp must be >= 0"):
        view.set_pd_gains(-np.ones(18), np.ones(18))
    with pytest.raises(ValueError, match="kd must be finite"):
        view.set_pd_gains(np.ones(18), np.full(18, np.inf))
    with pytest.raises(ValueError, match="tau must have shape"):
        view.set_generalized_forces(np.zeros((3, 17)))
    with pytest.raises(IndexError, match=r"indices\[1\] = 7"):
        view.set_states([0, 7], np.zeros((2, 19)), np.zeros((2, 18)))
    with pytest.raises(ValueError, match="indices must be a 1-D"):
        view.set_states([[0]], np.zeros((1, 19)), np.zeros((1, 18)))
    with pytest.raises(ValueError, match="gc must have shape"):
        view.set_states([0], np.zeros((2, 19)), np.zeros((1, 18)))
    zero_quat = view.get_generalized_coordinates()[:1]
    zero_quat[0, 3:7] = 0.0
    with pytest.raises(ValueError, match="gc"):
        view.set_states([0], zero_quat, np.zeros((1, 18)))
    with pytest.raises(ValueError, match="out must be"):
        view.get_generalized_coordinates(out=np.zeros((3, 18)))
    with pytest.raises(ValueError, match="out must be"):
        view.get_generalized_coordinates(out=np.zeros((3, 19), dtype=np.float32))
    ro = np.zeros((3, 19))
    ro.setflags(write=False)
    with pytest.raises(ValueError, match="read-only"):
        view.get_generalized_coordinates(out=ro)
    with pytest.raises(ValueError, match="out must be"):
        view.get_generalized_coordinates(out=np.zeros((19, 3)).T)
    with pytest.raises(ValueError, match="out must be"):
        view.get_generalized_coordinates(out=[[0.0] * 19] * 3)
    with pytest.raises(ValueError, match="unknown frame name"):
        view.get_frame_positions(["nope"])
    with pytest.raises(ValueError, match="frames must be a sequence"):
        view.get_frame_positions("base")
    with pytest.raises(IndexError):
        view.get_frame_orientations([10_000])
    with pytest.raises(ValueError, match="unknown body name"):
        view.get_contact_forces(["nope"])
    # nothing above changed any world
    assert np.array_equal(batch.state_hashes(), before)
    # a removed robot: the view says so
    batch.world(1).remove_object(batch.world(1).get_object("robot"))
    with pytest.raises(torsion.RemovedObjectError, match="world 1"):
        view.get_generalized_coordinates()


def test_bad_batch_calls():
    batch = torsion.WorldBatch(build_quadruped, 3, num_threads=2)
    with pytest.raises(ValueError, match="steps"):
        batch.integrate(-1)
    with pytest.raises(TypeError):
        batch.integrate(1.5)
    cp = batch.world(0).capture_checkpoint()
    with pytest.raises(IndexError, match="indices"):
        batch.restore([3], cp)
    with pytest.raises(ValueError, match="empty"):
        batch.restore([0], torsion.Checkpoint())
    other = torsion.World()
    other.add_ground()
    with pytest.raises(RuntimeError, match="another topology"):
        batch.restore([0], other.capture_checkpoint())
    batch.world(2).integrate1()
    with pytest.raises(RuntimeError, match="world 2 is between integrate1"):
        batch.integrate()
    with pytest.raises(RuntimeError, match="world 2 is between integrate1"):
        batch.state_hashes()
    with pytest.raises(RuntimeError, match="world 2 is between integrate1"):
        batch.restore([0, 2], cp)
    batch.world(2).integrate2()
    with pytest.raises(ValueError, match="seeds"):
        batch.set_seeds([1, 2])
    with pytest.raises(ValueError, match="num_threads"):
        batch.num_threads = -2
    with pytest.raises(ValueError, match="starts must have shape"):
        batch.ray_test_batch(np.zeros(3), np.zeros(3), np.zeros(1))
    with pytest.raises(ValueError, match="directions must have shape"):
        batch.ray_test_batch(np.zeros((3, 4, 3)), np.zeros((2, 4, 3)), np.zeros((3, 4)))
    with pytest.raises(ValueError, match="lengths must not be NaN"):
        batch.ray_test_batch(np.zeros((4, 3)), np.ones((4, 3)), np.full(4, np.nan))
    with pytest.raises(ValueError, match="starts must be finite"):
        batch.ray_test_batch(np.full((4, 3), np.inf), np.ones((4, 3)), np.ones(4))
    with pytest.raises(ValueError, match="frame needs articulated"):
        batch.ray_test_batch(np.zeros((4, 3)), np.ones((4, 3)), np.ones(4), frame=0)
    with pytest.raises(ValueError, match="no object named"):
        batch.ray_test_batch(np.zeros((4, 3)), np.ones((4, 3)), np.ones(4), articulated="x")
