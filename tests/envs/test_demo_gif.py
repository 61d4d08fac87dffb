"""`python -m torsion demo` films the quadruped trotting and writes an animated GIF."""

import io
import re
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("gymnasium")
PIL = pytest.importorskip("PIL.Image")

from torsion import demo  # noqa: E402


def test_walking_gif_is_written_and_the_robot_walks():
    out = io.StringIO()
    assert demo._walking_gif(out)
    text = out.getvalue()
    moved = float(re.search(r"moved it ([+-][0-9.]+) m forward", text).group(1))
    assert moved > 0.1 and "upright" in text
    path = Path(re.search(r"animation: (\S+)", text).group(1))
    with PIL.open(path) as gif:
        assert gif.n_frames == 50 and gif.size == (200, 150)
        first = np.asarray(gif.convert("RGB")).copy()
        gif.seek(49)
        last = np.asarray(gif.convert("RGB"))
    assert not np.array_equal(first, last)  # it is an animation


def test_without_pillow_the_gif_is_skipped_with_a_note(monkeypatch):
    monkeypatch.setitem(sys.modules, "PIL", None)
    out = io.StringIO()
    assert demo._walking_gif(out)
    assert 'pip install "torsion[images]"' in out.getvalue()
    assert "animation:" not in out.getvalue()
