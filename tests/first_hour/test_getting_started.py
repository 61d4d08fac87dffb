"""The Python blocks of docs/getting_started.md run, in order, in one namespace, with warnings as
errors except the one the page announces (the quadruped stepped from its neutral pose would give
a JointLimitWarning; the page stands it up first, so none may appear)."""

import re
import warnings
from pathlib import Path

import pytest

PAGE = Path(__file__).resolve().parents[2] / "docs" / "getting_started.md"


def blocks():
    return re.findall(r"```python\n(.*?)```", PAGE.read_text(), flags=re.S)


def test_the_page_has_its_sections():
    text = PAGE.read_text()
    for heading in ("Install", "robot", "Stand it up", "Inverse kinematics", "camera",
                    "Checkpoints", "control loop"):
        assert heading in text
    assert len(blocks()) >= 8


def test_every_python_block_runs(capsys):
    pytest.importorskip("PIL")
    namespace = {}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for k, code in enumerate(blocks()):
            exec(compile(code, f"{PAGE.name} block {k + 1}", "exec"), namespace)
    out = capsys.readouterr().out
    assert "True" in out
    # the stand-up block's claim: standing at about 0.30 m
    assert 0.25 < namespace["robot"].get_base_position()[2] < 0.36
    # the IK block's claim: the tool reached its target within a few mm
    import numpy as np
    assert np.linalg.norm(namespace["arm"].get_frame_position("tool") - namespace["target"]) < 0.01
