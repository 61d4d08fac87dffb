"""The one place torsion.envs imports Gymnasium: lazily, with an error naming the extra."""

from __future__ import annotations


def gymnasium():
    """The gymnasium module; ImportError naming the ``gym`` extra when it is not installed."""
    try:
        import gymnasium as gym
    except ImportError as exc:
        raise ImportError(
            'torsion.envs needs Gymnasium (>= 1.0): pip install "torsion[gym]"'
        ) from exc
    major = int(gym.__version__.split(".")[0])
    if major < 1:
        raise ImportError(
            f"torsion.envs needs Gymnasium >= 1.0 (its vector API and autoreset modes), found "
            f'{gym.__version__}: pip install -U "torsion[gym]"'
        )
    return gym
