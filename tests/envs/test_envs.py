"""The single Gymnasium environments: registration, Gymnasium's own checker, seeding, rendering,
and the physics and observations they report checked against independent computations."""

import sys

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")
import torsion  # noqa: E402
import torsion.envs  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

IDS = list(torsion.envs.ENVIRONMENTS)


@pytest.mark.parametrize("env_id", IDS)
def test_check_env_passes(env_id):
    env = gym.make(env_id, render_mode="rgb_array")
    check_env(env.unwrapped)  # warnings are errors (pytest config)
    env.close()


def test_registered_ids_and_module_prefix():
    for env_id in IDS:
        assert env_id in gym.registry
        assert gym.registry[env_id].vector_entry_point is not None
    env = gym.make("torsion.envs:torsion/CartPole-v0")
    assert env.spec.max_episode_steps == 500
    assert env.observation_space.shape == (4,)


def test_missing_gymnasium_names_the_extra(monkeypatch):
    from torsion.envs import _gym

    monkeypatch.setitem(sys.modules, "gymnasium", None)
    with pytest.raises(ImportError, match=r'torsion\[gym\]'):
        _gym.gymnasium()


def _rollout(env, seed, steps, action_seed):
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(action_seed)
    out = [obs]
    for _ in range(steps):
        a = rng.uniform(-1, 1, env.action_space.shape).astype(np.float32)
        obs, r, term, trunc, _ = env.step(a)
        out.append(np.append(obs, [r, term]))
        if term or trunc:
            out.append(env.reset()[0])
    return out


@pytest.mark.parametrize("env_id", IDS)
def test_same_seed_same_episode_bitwise(env_id):
    e1, e2 = gym.make(env_id), gym.make(env_id)
    a, b = _rollout(e1, 3, 40, 0), _rollout(e2, 3, 40, 0)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    c = _rollout(e2, 4, 0, 0)
    assert not np.array_equal(a[0], c[0])  # another seed draws another start


@pytest.mark.parametrize("env_id", IDS)
def test_rgb_frames_show_the_robot(env_id):
    env = gym.make(env_id, render_mode="rgb_array", width=96, height=72)
    env.reset(seed=0)
    frame = env.render()
    assert frame.shape == (72, 96, 3) and frame.dtype == np.uint8
    inner = env.unwrapped
    cam = inner._camera
    eye, target = inner.task.camera(inner.sim.gc[0])
    from torsion.envs._math import look_at

    seg = inner.world.capture_depth_camera(eye, look_at(eye, target), cam.properties).segmentation
    robot = inner.world.get_object("robot").get_index_in_world()
    assert (seg == robot).sum() > 20  # the camera frames the robot
    sky = seg < 0
    # robot pixels are orange-ish (red > blue), sky pixels blue-ish (blue > red)
    assert np.all(frame[seg == robot][:, 0] > frame[seg == robot][:, 2])
    assert np.all(frame[sky][:, 2] > frame[sky][:, 0])
    plain = gym.make(env_id)
    plain.reset(seed=0)
    assert plain.render() is None


def test_reach_goal_marker_is_drawn():
    env = gym.make("torsion/Reach-v0", render_mode="rgb_array", width=160, height=120)
    env.reset(seed=5)
    frame = env.render().astype(int)
    green = (frame[..., 1] > 150) & (frame[..., 0] < 80) & (frame[..., 2] < 100)
    assert green.sum() >= 4


def test_bad_inputs_raise_clear_errors():
    env = gym.make("torsion/Quadruped-v0").unwrapped
    env.reset(seed=0)
    with pytest.raises(ValueError, match="action must have shape"):
        env.step(np.zeros(5))
    with pytest.raises(ValueError, match="finite"):
        env.step(np.full(12, np.nan))
    with pytest.raises(ValueError, match="render_mode"):
        torsion.envs.QuadrupedEnv(render_mode="human")
    with pytest.raises(ValueError, match="terrain_seed"):
        torsion.envs.QuadrupedRoughEnv(terrain_seed=-1)
    with pytest.raises(ValueError, match="width and height"):
        torsion.envs.CartPoleEnv(render_mode="rgb_array", width=0)
    # out-of-range actions are clipped to the action space, not rejected
    obs, *_ = env.step(np.full(12, 5.0))
    assert np.array_equal(obs[36:48], np.ones(12, dtype=np.float32))


def test_cartpole_dynamics_match_the_classic_equations():
    """The cart-pole's accelerations against the closed-form equations Gymnasium's CartPole-v1
    integrates (uniform pole: 4/3 factor, half-length 0.5 m, cart 1 kg, pole 0.1 kg)."""
    env = torsion.envs.CartPoleEnv()
    env.reset(seed=0)
    robot = env.world.get_object("robot")
    env.world.set_time_step(1e-6)
    g, mc, mp, half = 9.81, 1.0, 0.1, 0.5
    for x, th, xd, thd, force in [(0.1, 0.15, -0.3, 0.8, 7.0), (0.0, -0.2, 0.5, -1.5, -10.0), (0.3, 0.0, 0.0, 0.0, 3.0)]:
        robot.set_state([x, th], [xd, thd])
        robot.set_generalized_force([force, 0.0])
        env.world.integrate1()
        env.world.integrate2()
        acc = (robot.get_generalized_velocity() - [xd, thd]) / 1e-6
        total = mc + mp
        temp = (force + mp * half * thd ** 2 * np.sin(th)) / total
        th_acc = (g * np.sin(th) - np.cos(th) * temp) / (half * (4.0 / 3.0 - mp * np.cos(th) ** 2 / total))
        x_acc = temp - mp * half * th_acc * np.cos(th) / total
        np.testing.assert_allclose(acc, [x_acc, th_acc], rtol=1e-4, atol=1e-4)


def test_quadruped_observation_against_scipy_rotations():
    from scipy.spatial.transform import Rotation

    env = torsion.envs.QuadrupedEnv()
    env.reset(seed=11)
    rng = np.random.default_rng(2)
    for _ in range(20):
        prev = rng.uniform(-1, 1, 12)
        env.step(prev)
    action = rng.uniform(-1, 1, 12)
    obs, reward, *_ = env.step(action)
    robot = env.world.get_object("robot")
    gc, gv = robot.get_generalized_coordinate(), robot.get_generalized_velocity()
    rot = Rotation.from_quat(gc[3:7], scalar_first=True)
    # the documented reward from the same state, through scipy's rotations
    v, w, g = rot.inv().apply(gv[0:3]), rot.inv().apply(gv[3:6]), rot.inv().apply([0.0, 0.0, -1.0])
    cmd = env.task.command[0]
    expected = (np.exp(-np.sum((cmd[:2] - v[:2]) ** 2) / 0.25) + 0.5 * np.exp(-(cmd[2] - w[2]) ** 2 / 0.25)
                - 2 * v[2] ** 2 - 0.05 * np.sum(w[:2] ** 2) - np.sum(g[:2] ** 2)
                - 0.01 * np.sum((action - prev) ** 2))
    assert reward == pytest.approx(expected, abs=1e-12)
    expected = np.concatenate([rot.inv().apply(gv[0:3]) * 2.0, rot.inv().apply(gv[3:6]) * 0.25,
                               rot.inv().apply([0.0, 0.0, -1.0])])
    np.testing.assert_allclose(obs[0:9], expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(obs[12:24], gc[7:] - torsion.robots.QUADRUPED_STAND, atol=1e-6)
    np.testing.assert_allclose(obs[24:36], gv[6:] * 0.05, rtol=1e-6, atol=1e-7)
    # reset: upright at rest, the command within its documented ranges
    obs, _ = env.reset(seed=12)
    np.testing.assert_allclose(obs[6:9], [0, 0, -1], atol=1e-12)
    cmd = obs[9:12] / np.array([2.0, 2.0, 0.25], dtype=np.float32)
    assert abs(cmd[0]) <= 1 and abs(cmd[1]) <= 0.5 and abs(cmd[2]) <= 1


def test_quadruped_stands_under_zero_action_and_is_rewarded_for_tracking():
    env = torsion.envs.QuadrupedEnv()
    env.reset(seed=1)
    env.task.command[0] = 0.0
    env.task._cmd_obs[0] = 0.0
    for _ in range(100):  # 2 s
        obs, r, term, _, _ = env.step(np.zeros(12))
        assert not term
    gc = env.world.get_object("robot").get_generalized_coordinate()
    assert 0.2 < gc[2] < 0.35
    # at rest with a zero command both tracking terms are ~1 and penalties ~0
    assert r == pytest.approx(1.5, abs=0.02)


def test_rough_height_scan_matches_the_heightmap():
    env = torsion.envs.QuadrupedRoughEnv(terrain_seed=3)
    obs, _ = env.reset(seed=4)
    task = env.task
    hm = env.world.get_object(0)
    gc = env.world.get_object("robot").get_generalized_coordinate()
    heading = np.arctan2(2 * (gc[3] * gc[6] + gc[4] * gc[5]), 1 - 2 * (gc[5] ** 2 + gc[6] ** 2))
    c, s = np.cos(heading), np.sin(heading)
    px = gc[0] + c * task._scan_x[0] - s * task._scan_y[0]
    py = gc[1] + s * task._scan_x[0] + c * task._scan_y[0]
    h = np.array([hm.get_height(x, y) for x, y in zip(px, py)])
    np.testing.assert_allclose(obs[48:], np.clip(gc[2] - 0.3 - h, -1, 1), atol=1e-5)
    # the spawn is above the terrain: every foot clear of the ground under it
    assert gc[2] - h.max() > 0.2


def test_reach_observation_and_reward():
    env = torsion.envs.ReachEnv()
    obs, _ = env.reset(seed=2)
    a = np.full(7, 0.5)
    obs, r, term, trunc, _ = env.step(a)
    tool = env.world.get_object("robot").get_frame_position("tool_joint")
    np.testing.assert_allclose(obs[14:17], tool, atol=1e-6)
    goal = obs[17:20].astype(float)
    assert np.all(goal >= [0.3, -0.4, 0.2]) and np.all(goal <= [0.7, 0.4, 0.8])
    assert r == pytest.approx(-np.linalg.norm(env.task.goal[0] - tool) - 0.01 * 7 * 0.25, abs=1e-12)
    assert not term and not trunc


def test_rough_terminates_off_the_map():
    env = torsion.envs.QuadrupedRoughEnv()
    env.reset(seed=0)
    robot = env.world.get_object("robot")
    gc = robot.get_generalized_coordinate()
    gc[0] = 7.0  # beyond the 12 m terrain's edge at 6 m
    robot.set_state(gc, np.zeros(18))
    obs, _, terminated, _, _ = env.step(np.zeros(12))
    assert terminated and np.all(np.isfinite(obs))


def test_render_before_reset_shows_the_built_scene():
    frame = torsion.envs.ReachEnv(render_mode="rgb_array", width=32, height=24).render()
    assert frame.shape == (24, 32, 3) and frame.dtype == np.uint8
