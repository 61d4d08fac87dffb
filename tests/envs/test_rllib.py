"""RLlib end to end: one PPO training iteration on torsion/Quadruped-v0, the environment made by
torsion.envs.rollout.env_creator and vectorised by torsion itself (one WorldBatch per EnvRunner:
gymnasium's VECTOR_ENTRY_POINT mode). Skipped only when RLlib (the ``ray`` extra) or its torch
backend is not installed."""

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")
pytest.importorskip("torch")
ppo = pytest.importorskip("ray.rllib.algorithms.ppo")
registry = pytest.importorskip("ray.tune.registry")

import torsion.envs  # noqa: E402
from torsion.envs.rollout import env_creator  # noqa: E402

NUM_ENVS, ROLLOUT = 8, 16


def test_ppo_trains_one_iteration_on_the_torsion_vector_env():
    import ray

    registry.register_env("torsion-quadruped-test", env_creator("torsion/Quadruped-v0"))
    config = (ppo.PPOConfig()
              .environment("torsion-quadruped-test", env_config={"num_threads": 1})
              .env_runners(num_env_runners=0, num_envs_per_env_runner=NUM_ENVS,
                           gym_env_vectorize_mode=gym.VectorizeMode.VECTOR_ENTRY_POINT)
              .training(train_batch_size_per_learner=NUM_ENVS * ROLLOUT, minibatch_size=64,
                        num_epochs=1)
              .learners(num_learners=0))
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        algo = config.build_algo()
        try:
            env = algo.env_runner.env.unwrapped
            # RLlib steps torsion's own vector environment (one WorldBatch), not a SyncVectorEnv
            assert isinstance(env, torsion.envs.QuadrupedVectorEnv) and env.num_envs == NUM_ENVS
            result = algo.train()
        finally:
            algo.stop()
    finally:
        ray.shutdown()
    sampled = result["env_runners"]["num_env_steps_sampled_lifetime"]
    assert sampled >= NUM_ENVS * ROLLOUT
    stats = result["learners"]["default_policy"]
    assert np.isfinite(stats["total_loss"]) and np.isfinite(stats["vf_loss"])
