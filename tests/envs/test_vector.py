"""The vector environment on a WorldBatch: bitwise the same as Gymnasium's own SyncVectorEnv of
the single environments (observations, rewards, terminations, truncations and NEXT_STEP
autoresets), whatever the thread count; its autoreset semantics; long random runs."""

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")
import torsion  # noqa: E402
import torsion.envs  # noqa: E402
from gymnasium.vector import AutoresetMode  # noqa: E402

IDS = list(torsion.envs.ENVIRONMENTS)


def _compare(env_id, num_envs, steps, max_steps, num_threads, seed=7):
    vec = gym.make_vec(env_id, num_envs=num_envs, vectorization_mode="vector_entry_point",
                       max_episode_steps=max_steps, num_threads=num_threads)
    ref = gym.vector.SyncVectorEnv([lambda: gym.make(env_id, max_episode_steps=max_steps)
                                    for _ in range(num_envs)])
    assert ref.metadata["autoreset_mode"] == vec.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    o1, _ = vec.reset(seed=seed)
    o2, _ = ref.reset(seed=seed)
    assert o1.dtype == o2.dtype == np.float32
    assert np.array_equal(o1, o2)
    rng = np.random.default_rng(0)
    done = 0
    for _ in range(steps):
        a = rng.uniform(-1, 1, (num_envs,) + vec.single_action_space.shape).astype(np.float32)
        got, want = vec.step(a), ref.step(a)
        for x, y in zip(got[:4], want[:4]):
            assert x.shape == y.shape
            assert np.array_equal(x, y)
        done += int(np.sum(got[2] | got[3]))
    vec.close()
    ref.close()
    return done


@pytest.mark.parametrize("env_id", IDS)
def test_vector_env_equals_sync_vector_env_of_single_envs_bitwise(env_id):
    # episodes of 25 steps over 60 steps: every sub-environment truncates and autoresets twice
    done = _compare(env_id, 4, 60, 25, num_threads=2)
    assert done >= 8


def test_thread_count_does_not_change_results():
    for threads in (1, 2):
        _compare("torsion/QuadrupedRough-v0", 3, 30, 12, num_threads=threads, seed=3)


def test_next_step_autoreset_semantics():
    n = 3
    envs = [torsion.envs.CartPoleVectorEnv(num_envs=n, max_episode_steps=500) for _ in range(2)]
    single = torsion.envs.CartPoleEnv()  # plays sub-environment 0 alone: seed 1, the same pushes
    for e in envs:
        e.reset(seed=1)
    single.reset(seed=1)
    push = np.zeros((n, 1), dtype=np.float32)
    push[0] = 1.0  # env 0 is pushed hard until its pole falls; the others stay near balance
    for k in range(200):
        obs, rew, term, trunc, _ = envs[0].step(push)
        envs[1].step(push)
        s_obs, s_rew, s_term, _, _ = single.step(push[0])
        assert np.all(rew == 1.0) and np.array_equal(obs[0], s_obs)
        if term[0]:
            break
    assert term[0] and s_term and not trunc[0]
    assert abs(obs[0, 0]) > 2.4 or abs(obs[0, 1]) > 12 * 2 * np.pi / 360
    # the next step resets env 0 whatever its action: reward 0, not done, the first observation
    # of its next episode (the single env's reset() without a seed: its generator continues)
    a = np.zeros((n, 1), dtype=np.float32)
    a[0] = 1.0
    obs2, rew2, term2, trunc2, _ = envs[0].step(a)
    a[0] = -1.0
    other, *_ = envs[1].step(a)
    assert rew2[0] == 0.0 and not term2[0] and not trunc2[0]
    assert np.array_equal(obs2[0], other[0])  # the action of a resetting env is ignored
    assert np.array_equal(obs2[0], single.reset()[0])
    assert np.all(np.abs(obs2[0]) <= 0.05)  # all four uniform in [-0.05, 0.05]
    assert np.all(rew2[1:] == 1.0)
    # and it runs on from there
    obs3, rew3, *_ = envs[0].step(np.zeros((n, 1), dtype=np.float32))
    assert rew3[0] == 1.0 and np.array_equal(obs3[0], single.step(np.zeros(1))[0])


def test_truncation_at_max_episode_steps_then_reset():
    env = torsion.envs.ReachVectorEnv(num_envs=2, max_episode_steps=5)
    env.reset(seed=0)
    a = np.zeros((2, 7), dtype=np.float32)
    for k in range(5):
        _, _, term, trunc, _ = env.step(a)
        assert not term.any()
        assert trunc.all() == (k == 4)
    _, rew, term, trunc, _ = env.step(a)
    assert np.all(rew == 0.0) and not term.any() and not trunc.any()


def test_partial_reset_with_reset_mask():
    env = torsion.envs.QuadrupedVectorEnv(num_envs=3)
    obs, _ = env.reset(seed=5)
    a = np.full((3, 12), 0.3, dtype=np.float32)
    for _ in range(5):
        moved, *_ = env.step(a)
    hashes = env.sim.batch.state_hashes()
    obs2, _ = env.reset(seed=5, options={"reset_mask": np.array([False, True, False])})
    assert np.array_equal(obs2[1], obs[1])  # env 1 starts again as seeded
    assert np.array_equal(obs2[[0, 2], :36], moved[[0, 2], :36])  # the others untouched
    after = env.sim.batch.state_hashes()
    assert after[0] == hashes[0] and after[2] == hashes[2] and after[1] != hashes[1]
    with pytest.raises(ValueError, match="reset_mask"):
        env.reset(options={"reset_mask": [True, False]})


@pytest.mark.parametrize("env_id", IDS)
def test_random_policy_10k_steps_without_nan(env_id):
    n = 16
    env = gym.make_vec(env_id, num_envs=n, vectorization_mode="vector_entry_point", num_threads=2)
    obs, _ = env.reset(seed=123)
    env.action_space.seed(123)
    episodes = 0
    for _ in range(10_000 // n + 1):  # 10 016 environment steps
        obs, rew, term, trunc, _ = env.step(env.action_space.sample())
        assert np.all(np.isfinite(obs)) and np.all(np.isfinite(rew))
        episodes += int(np.sum(term | trunc))
    gc = env.unwrapped.sim.gc
    assert np.all(np.isfinite(gc))
    for i in range(n):
        assert env.unwrapped.sim.world(i).get_warnings()["non_finite_state"] == 0
    if env_id == "torsion/CartPole-v0":
        assert episodes > 100  # a random policy drops the pole within ~20-40 steps


def test_render_gives_one_frame_per_env():
    env = torsion.envs.CartPoleVectorEnv(num_envs=2, render_mode="rgb_array", width=64, height=48)
    env.reset(seed=0)
    frames = env.render()
    assert len(frames) == 2 and frames[0].shape == (48, 64, 3) and frames[0].dtype == np.uint8
    assert torsion.envs.CartPoleVectorEnv(num_envs=1).render() is None


def test_bad_arguments():
    with pytest.raises(ValueError, match="num_envs"):
        torsion.envs.CartPoleVectorEnv(num_envs=0)
    with pytest.raises(ValueError, match="max_episode_steps"):
        torsion.envs.CartPoleVectorEnv(num_envs=1, max_episode_steps=0)
    env = torsion.envs.CartPoleVectorEnv(num_envs=2)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(np.zeros((2, 1)))
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"action must have shape \(2, 1\)"):
        env.step(np.zeros((3, 1)))
    with pytest.raises(ValueError, match="finite"):
        env.step(np.array([[0.0], [np.inf]]))
    with pytest.raises(ValueError, match="real numbers"):
        env.step(np.array([[0.0], [1j]]))
    with pytest.raises(ValueError, match="seed"):
        env.reset(seed=[1, 2, 3])
