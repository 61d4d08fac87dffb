"""Scale-out on Ray: a local cluster, two actors each holding a vector environment, 10k
transitions collected with a random policy."""

import os

import numpy as np
import pytest

pytest.importorskip("gymnasium")
ray = pytest.importorskip("ray")

from torsion.envs.rollout import VectorRollout  # noqa: E402


@pytest.fixture
def local_cluster():
    # workers must import this checkout's torsion, as the test process does
    path = os.pathsep.join(p for p in (os.path.dirname(os.path.dirname(__import__("torsion").__file__)),
                                        os.environ.get("PYTHONPATH", "")) if p)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             runtime_env={"env_vars": {"PYTHONPATH": path}})
    try:
        yield
    finally:
        ray.shutdown()


def test_two_actors_collect_10k_transitions(local_cluster):
    Worker = ray.remote(num_cpus=1)(VectorRollout)
    workers = [Worker.remote("torsion/Quadruped-v0", num_envs=32, seed=1000 * k, num_threads=1)
               for k in range(2)]
    # 2 actors x 157 steps x 32 envs = 10 048 transitions
    batches = ray.get([w.collect.remote(157) for w in workers], timeout=300)
    total = sum(b["rewards"].size for b in batches)
    assert total >= 10_000
    for b in batches:
        assert b["obs"].shape == (157, 32, 48) and b["actions"].shape == (157, 32, 12)
        assert np.all(np.isfinite(b["obs"])) and np.all(np.isfinite(b["rewards"]))
        assert np.all(np.abs(b["actions"]) <= 1.0)
        # next_obs of step t is obs of step t + 1
        assert np.array_equal(b["next_obs"][:-1], b["obs"][1:])
        # NEXT_STEP autoreset: a reset step follows every done step and pays nothing
        done = b["terminated"][:-1] | b["truncated"][:-1]
        assert np.array_equal(b["reset_step"][1:], done)
        assert np.all(b["rewards"][b["reset_step"]] == 0.0)
    # the actors were seeded differently, so they sampled different episodes
    assert not np.array_equal(batches[0]["obs"][0], batches[1]["obs"][0])
    # and each actor's data is what the same rollout gives in this process
    local = VectorRollout("torsion/Quadruped-v0", num_envs=32, seed=1000, num_threads=1)
    mine = local.collect(20)
    assert np.array_equal(mine["obs"], batches[1]["obs"][:20])


def test_collect_checks_its_argument():
    r = VectorRollout("torsion/CartPole-v0", num_envs=2, seed=0)
    with pytest.raises(ValueError, match="num_steps"):
        r.collect(0)
    policy_obs = []
    out = r.collect(3, policy=lambda obs: (policy_obs.append(obs.copy()), np.zeros((2, 1), np.float32))[1])
    assert np.array_equal(np.stack(policy_obs), out["obs"])


def test_env_creator_as_rllib_registers_it():
    """RLlib's SingleAgentEnvRunner (ray/rllib/env/single_agent_env_runner.py, Ray 2.x) registers a
    creator from register_env as below and calls gymnasium.make_vec with the configured
    vectorization mode; with VECTOR_ENTRY_POINT it gets the WorldBatch vector env."""
    import gymnasium as gym
    from torsion.envs.rollout import env_creator

    creator = env_creator("torsion/CartPole-v0")
    ctx = {"max_episode_steps": 50}
    gym.register("rllib-like-torsion-v0", entry_point=lambda: creator(ctx),
                 vector_entry_point=lambda num_envs: creator(ctx | {"num_envs": num_envs}))
    try:
        vec = gym.make_vec("rllib-like-torsion-v0", num_envs=8,
                           vectorization_mode=gym.VectorizeMode("vector_entry_point"))
        assert vec.num_envs == 8 and vec.unwrapped.max_episode_steps == 50
        assert type(vec.unwrapped).__name__ == "CartPoleVectorEnv"
        single = gym.make_vec("rllib-like-torsion-v0", num_envs=2, vectorization_mode="sync")
        assert single.num_envs == 2
        obs, _ = vec.reset(seed=0)
        assert obs.shape == (8, 4)
    finally:
        del gym.registry["rllib-like-torsion-v0"]
    # the plain gymnasium id with a module prefix, as config.environment("torsion.envs:...") gives
    vec = gym.make_vec("torsion.envs:torsion/Reach-v0", num_envs=2,
                       vectorization_mode=gym.VectorizeMode.VECTOR_ENTRY_POINT, num_threads=1)
    assert vec.observation_space.shape == (2, 23)
