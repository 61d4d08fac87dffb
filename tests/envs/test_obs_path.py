"""The lean observation path against the one it replaced, bit for bit, on 1 and 2 threads.

- ArticulatedView.get_frame_orientations / get_frame_positions of frames on a floating base are
  computed from gc alone (no forward kinematics of the tree): they must equal, bit for bit, the
  per-world ArticulatedSystem calls, which run the full kinematics (also for a frame rotated and
  offset in the base, and whether or not the kinematics are already up to date).
- The quadruped task's evaluate() (preallocated scratch, fewer NumPy calls) against its previous
  code, kept here verbatim, fed by the previous read path (the tree's kinematics on the pool):
  observations, rewards, terminations and truncations over episodes with autoresets.
- The action check (finite values, clipping into a preallocated buffer with two ufuncs).
- ArticulatedView.set_pd_targets still refuses a zero ball-joint quaternion (naming the world,
  before any world changes) now that it skips the check for a floating base alone.
"""

import numpy as np
import pytest

import torsion

gym = pytest.importorskip("gymnasium")
import torsion.envs  # noqa: E402
from torsion.envs.quadruped import QuadrupedTask  # noqa: E402

# a floating base with an IMU mounted turned and offset (a fixed joint: a frame on the base body)
# and one swinging leg (its frames are on another body)
URDF = """<robot name="imu_bot">
  <link name="base"><inertial><mass value="3"/><inertia ixx="0.05" iyy="0.08" izz="0.1" ixy="0"
    ixz="0" iyz="0"/></inertial><collision><geometry><box size="0.4 0.2 0.1"/></geometry></collision></link>
  <link name="imu"/>
  <joint name="imu_mount" type="fixed"><parent link="base"/><child link="imu"/>
    <origin xyz="0.1 -0.03 0.05" rpy="0.3 -0.2 0.9"/></joint>
  <link name="leg"><inertial><origin xyz="0 0 -0.1"/><mass value="0.5"/><inertia ixx="0.002"
    iyy="0.002" izz="0.0005" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><origin xyz="0 0 -0.1"/><geometry><sphere radius="0.03"/></geometry></collision></link>
  <joint name="hip" type="revolute"><parent link="base"/><child link="leg"/>
    <origin xyz="0.15 0 -0.05" rpy="0 0.1 0"/><axis xyz="0 1 0"/>
    <limit lower="-2" upper="2" effort="50" velocity="20"/></joint>
</robot>
"""


@pytest.fixture(scope="module")
def urdf(tmp_path_factory):
    p = tmp_path_factory.mktemp("imu_bot") / "imu_bot.urdf"
    p.write_text(URDF)
    return str(p)


def _build(urdf):
    def build(world, index):
        world.set_time_step(2e-3)
        world.add_ground()
        r = world.add_articulated_system(urdf)
        r.set_name("bot")
        rng = np.random.default_rng(index)
        gc = r.get_generalized_coordinate()
        gc[0:3] = [0.1 * index, 0.0, 0.4]
        q = rng.normal(size=4)
        gc[3:7] = q / np.linalg.norm(q)
        gc[7] = 0.3
        gv = rng.normal(0.0, 1.0, 7)
        r.set_state(gc, gv)
    return build


@pytest.mark.parametrize("threads", [1, 2])
def test_base_frames_from_gc_equal_the_kinematics(urdf, threads):
    n = 5
    build = _build(urdf)
    batch = torsion.WorldBatch(build, n, num_threads=threads)
    view = batch.articulated("bot")
    worlds = []
    for i in range(n):
        w = torsion.World()
        build(w, i)
        worlds.append(w)
    names = worlds[0].get_object("bot").get_frame_names()
    on_base = [f for f in names if worlds[0].get_object("bot").get_frame_placement(f)[0] == 0]
    assert "ROOT" in on_base and "imu_mount" in on_base and "hip" not in on_base
    rotated = worlds[0].get_object("bot").get_frame_placement("imu_mount")[2]
    assert not np.allclose(rotated, np.eye(3))  # the mounted frame is turned in the base
    checked = 0
    for step in range(40):
        batch.integrate()
        for w in worlds:
            w.integrate()
        # after a step the kinematics are stale: the base frames come from gc
        rot = view.get_frame_orientations(on_base)
        pos = view.get_frame_positions(on_base)
        if step % 10 == 9:
            # the kinematics brought up to date first (another frame read): the same values
            view.get_frame_positions(["hip"])
            assert view.get_frame_orientations(on_base).tobytes() == rot.tobytes()
            assert view.get_frame_positions(on_base).tobytes() == pos.tobytes()
        for i, w in enumerate(worlds):
            r = w.get_object("bot")
            for j, f in enumerate(on_base):
                assert rot[i, j].tobytes() == r.get_frame_orientation(f).tobytes()
                assert pos[i, j].tobytes() == r.get_frame_position(f).tobytes()
                checked += 1
        assert batch.state_hashes().tolist() == [w.state_hash() for w in worlds]
    assert checked == 40 * n * len(on_base)
    # the robots tumbled: the rotations checked are not all alike
    assert np.ptp(rot[:, 0].reshape(n, 9), axis=0).max() > 0.5
    # mixed with a frame of another body (the kinematics path): the base frames unchanged
    mixed = view.get_frame_orientations(on_base + ["hip"])
    assert mixed[:, :len(on_base)].tobytes() == view.get_frame_orientations(on_base).tobytes()


class _PreviousQuadrupedTask(QuadrupedTask):
    """QuadrupedTask with the evaluate() it had before, reading the base rotation through the
    tree's kinematics (a leg frame in the list sends the view down that path)."""

    orientation_frames = ("ROOT", "FR_calf_joint")

    def evaluate(self, sim, prev_action, obs, reward, terminated):
        gc, gv = sim.gc, sim.gv
        n = gc.shape[0]
        self._world_vecs[:, 0:2, :] = gv[:, 0:6].reshape(n, 2, 3)
        # row vectors times R (frame to world): each row becomes R^T v, in the base frame
        b = np.matmul(self._world_vecs, sim.frame_rot[:, 0], out=self._body_vecs)
        np.multiply(b.reshape(n, 9), self._obs_scale, out=obs[:, 0:9])
        obs[:, 9:12] = self._cmd_obs
        np.subtract(gc[:, 7:], self.stand, out=obs[:, 12:24])
        np.multiply(gv[:, 6:], 0.05, out=obs[:, 24:36])
        obs[:, 36:48] = self.last_action
        sq = b * b  # b[:, k, c]: component c of base velocity (k = 0), angular velocity, gravity
        ex = self.command[:, 0] - b[:, 0, 0]
        ey = self.command[:, 1] - b[:, 0, 1]
        ez = self.command[:, 2] - b[:, 1, 2]
        da = self.last_action - prev_action
        reward[:] = (np.exp((ex * ex + ey * ey) * -4.0) + 0.5 * np.exp(ez * ez * -4.0)
                     - 2.0 * sq[:, 0, 2] - 0.05 * (sq[:, 1, 0] + sq[:, 1, 1]) - (sq[:, 2, 0] + sq[:, 2, 1])
                     - 0.01 * (da * da).sum(axis=1))
        np.logical_or(b[:, 2, 2] > -0.5, self._height(sim) < 0.15, out=terminated)


class _PreviousQuadrupedVectorEnv(torsion.envs.QuadrupedVectorEnv):
    task_class = _PreviousQuadrupedTask


@pytest.mark.parametrize("threads", [1, 2])
def test_quadruped_observations_equal_the_previous_path(threads):
    n, steps = 6, 90
    new = torsion.envs.QuadrupedVectorEnv(n, max_episode_steps=40, num_threads=threads)
    old = _PreviousQuadrupedVectorEnv(n, max_episode_steps=40, num_threads=threads)
    o1, _ = new.reset(seed=11)
    o2, _ = old.reset(seed=11)
    assert o1.tobytes() == o2.tobytes()
    rng = np.random.default_rng(5)
    done = 0
    for _ in range(steps):
        # large actions: some robots fall (terminations) besides the truncations at 40 steps
        a = rng.uniform(-3.0, 3.0, (n, 12)).astype(np.float32)
        got, want = new.step(a), old.step(a)
        for x, y in zip(got[:4], want[:4]):
            assert x.dtype == y.dtype and x.tobytes() == y.tobytes()
        done += int(np.sum(got[2] | got[3]))
    assert done >= 2 * n
    assert np.all(np.isfinite(got[0])) and np.ptp(got[0][:, 0:9]) > 0.1  # moving robots
    assert new.batch.state_hashes().tolist() == old.batch.state_hashes().tolist()


def test_action_check_refuses_non_finite_and_clips():
    from torsion.envs.core import _check_actions

    shape = (3, 4)
    for bad in (np.inf, -np.inf, np.nan):
        a = np.zeros(shape, dtype=np.float32)
        a[1, 2] = bad
        with pytest.raises(ValueError, match="finite"):
            _check_actions(a, shape)
    pair = np.zeros(shape)
    pair[0, 0], pair[2, 3] = np.inf, -np.inf  # their sum is NaN: still refused
    with pytest.raises(ValueError, match="finite"):
        _check_actions(pair, shape)
    # huge finite values are accepted (and clipped)
    huge = np.full(shape, 1.7e308)
    huge[0, 0] = -1.7e308
    out = _check_actions(huge, shape)
    assert out.dtype == np.float64 and out[0, 0] == -1.0 and np.all(out.reshape(-1)[1:] == 1.0)
    mixed = np.array([[0.5, -2, 3, -0.25]] * 3, dtype=np.float32)
    assert np.array_equal(_check_actions(mixed, shape), np.clip(mixed.astype(np.float64), -1, 1))
    into = np.empty(shape)
    assert _check_actions(np.ones(shape, dtype=np.int64) * 4, shape, into) is into
    assert np.all(into == 1.0)
    assert np.array_equal(_check_actions(np.eye(3, 4, dtype=bool), shape), np.eye(3, 4))
    with pytest.raises(ValueError, match="real numbers"):
        _check_actions(np.full(shape, "x"), shape)


@pytest.mark.parametrize("threads", [1, 2])
def test_read_state_equals_the_separate_getters(urdf, threads):
    n = 4
    batch = torsion.WorldBatch(_build(urdf), n, num_threads=threads)
    view = batch.articulated("bot")
    base = ["ROOT", "imu_mount"]
    for frames in (base, ["imu_mount", "hip"], ()):  # base frames, a leg frame too, none
        batch.integrate(7)
        gc, gv = np.empty((n, view.gc_dim)), np.empty((n, view.dof))
        rot = np.empty((n, len(frames), 3, 3))
        out = view.read_state(gc, gv, frames, rot)
        assert out[0] is gc and out[1] is gv and out[2] is rot
        assert gc.tobytes() == view.get_generalized_coordinates().tobytes()
        assert gv.tobytes() == view.get_generalized_velocities().tobytes()
        assert rot.tobytes() == view.get_frame_orientations(list(frames)).tobytes()
    fresh = view.read_state(frames=base)
    assert [a.shape for a in fresh] == [(n, view.gc_dim), (n, view.dof), (n, 2, 3, 3)]
    assert fresh[2].tobytes() == view.get_frame_orientations(base).tobytes()
    with pytest.raises(ValueError, match="gc_out"):
        view.read_state(np.empty((n, view.gc_dim + 1)), gv)
    with pytest.raises(ValueError, match="orientations_out"):
        view.read_state(gc, gv, base, np.empty((n, 1, 3, 3)))
    with pytest.raises(ValueError, match="frame"):
        view.read_state(gc, gv, ["no_such_frame"], rot)


def _ball_joint_tree():
    arm = torsion.Child("arm", joint_type="spherical", joint_name="ball", origin_xyz=(0.0, 0.0, -0.1),
                        mass=0.5, com=(0.0, 0.0, -0.2), inertia=(0.01, 0.01, 0.002))
    return torsion.Child("base", joint_type="floating", mass=2.0, inertia=(0.02, 0.02, 0.02),
                         children=[arm])


def test_set_pd_targets_checks_only_the_quaternions_it_uses():
    n = 3

    def build(world, index):
        world.add_articulated_system_from_tree(_ball_joint_tree()).set_name("r")

    batch = torsion.WorldBatch(build, n, num_threads=1)
    view = batch.articulated("r")
    assert view.gc_dim == 11  # floating base 7 + ball 4
    targets = np.zeros((n, 11))
    targets[:, 3] = 1.0
    targets[:, 7] = 1.0
    view.set_pd_targets(targets)  # accepted
    # a zero ball-joint quaternion in world 1 is refused before any world changes
    bad = targets.copy()
    bad[1, 7:11] = 0.0
    before = batch.state_hashes().tolist()
    with pytest.raises(ValueError, match=r"positions \(world 1\)"):
        view.set_pd_targets(bad)
    assert batch.state_hashes().tolist() == before
    # the floating base's target quaternion is never used: zero is accepted, as set_pd_target does
    base_zero = targets.copy()
    base_zero[:, 3:7] = 0.0
    view.set_pd_targets(base_zero)
    quad = torsion.WorldBatch(lambda w, i: w.add_articulated_system(
        torsion.robots.urdf_path("quadruped")).set_name("q"), 2, num_threads=1).articulated("q")
    t = np.zeros((2, 19))  # the quadruped's only quaternion is its base's: no per-world check
    t[:, 7:] = torsion.robots.QUADRUPED_STAND
    quad.set_pd_targets(t)
