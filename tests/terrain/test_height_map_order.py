"""The sample order of heightmaps, pinned against RaiSim's own reading of a height vector: its
OGRE visualizer (raisimOgre, OgreVis::buildHeightMap, by RaiSim's author) places sample
height[i * xSamples + j] at x = centerX - xSize/2 + j dx, y = centerY - ySize/2 + i dy (x
fastest, row 0 at the LOWEST y) and splits each cell from (j, i) to (j+1, i+1), as torsion does.
The data is RaiSim's documented 5 x 5 example (docs "Height Map Using Raw Values" / "Using a
Text File"), whose one 0.5 sample (index 11) is not symmetric: it must be at (x, y) = (-2.5, 0),
not at (0, -2.5) (y fastest) nor anywhere else. Both the raw overload and the text loader are
checked, through rays (the DDA walk) and through contact (a sphere pressed into the peak)."""

import numpy as np
import pytest

import torsion

EXAMPLE = [1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 1, 0.5, 0, 0, 1, 1, 0, 0, 0, 1, 1, 1, 1, 1, 1]


def maps(tmp_path):
    path = tmp_path / "heightMapExample.txt"
    path.write_text("5 5 10 10\n" + " ".join(str(v) for v in EXAMPLE) + "\n")
    raw, text = torsion.World(), torsion.World()
    raw.add_height_map(5, 5, 10.0, 10.0, 0.0, 0.0, EXAMPLE)
    text.add_height_map(str(path), 0.0, 0.0)
    return {"raw": raw, "text": text}


def surface_by_ray(w, x, y):
    hits = w.ray_test([x, y, 5.0], [0, 0, -1], 20.0)
    assert len(hits) == 1
    return 5.0 - hits[0].distance


@pytest.mark.parametrize("kind", ["raw", "text"])
def test_the_asymmetric_sample_is_at_x_minus_2_5(tmp_path, kind):
    w = maps(tmp_path)[kind]
    assert surface_by_ray(w, -2.5, 0.0) == pytest.approx(0.5, abs=1e-12)
    assert surface_by_ray(w, 0.0, -2.5) == pytest.approx(0.0, abs=1e-12)
    assert surface_by_ray(w, 2.5, 0.0) == pytest.approx(0.0, abs=1e-12)
    assert surface_by_ray(w, 0.0, 2.5) == pytest.approx(0.0, abs=1e-12)
    # every sample where RaiSim's visualizer puts it: x fastest, row 0 at y = -5
    for k, h in enumerate(EXAMPLE):
        i, j = k % 5, k // 5
        assert surface_by_ray(w, -5.0 + 2.5 * i + 1e-9 * (i == 0) - 1e-9 * (i == 4),
                              -5.0 + 2.5 * j + 1e-9 * (j == 0) - 1e-9 * (j == 4)) == pytest.approx(h, abs=1e-9)


@pytest.mark.parametrize("kind", ["raw", "text"])
def test_a_sphere_touches_the_asymmetric_sample(tmp_path, kind):
    # over the peak every face around it slopes by 0.5 / 2.5 = 0.2 (up or down), and the
    # centre, 5 cm above the peak, is 0.05 / sqrt(1 + 0.2^2) from the nearest face plane
    for xy, depth in (((-2.5, 0.0), 0.1 - 0.05 / np.sqrt(1.04)), ((0.0, -2.5), None)):
        w = maps(tmp_path)[kind]
        s = w.add_sphere(0.1, 1.0)
        s.set_position([xy[0], xy[1], 0.55])  # 5 cm into the 0.5 peak, 45 cm above a 0 sample
        w.integrate1()
        c = w.get_contact_problem()
        w.integrate2()
        if depth is None:
            assert len(c) == 0
        else:
            assert len(c) >= 1
            assert c["depth"].max() == pytest.approx(depth, abs=1e-12)
