"""Box-box contacts whose SAT axis is an edge-edge one while the touching faces are nearly
parallel (cpp/collision/pair_box.cpp, edge_face_manifold): a box lying across a corner of another,
its face tilted 1.6 degrees and overhanging on every side. One closest point would be its only
support, jumping between the two edge pairs as it tips (a box in a settled 100-cube pile rocked
like that for seconds); the manifold must hold the overlap of the two faces instead, with the
edge crossing as its deepest point and the rest speculative."""

import numpy as np

import torsion
from torsion._core import ContactSettings, Shape

H = 0.05  # half extent of both boxes (m)
MARGIN = 0.005
# box A relative to box B (at the origin), taken from that pile
POS_A = np.array([0.10125784, 0.00806298, 0.00901572])
QUAT_A = np.array([0.31345292, 0.94948551, 0.01423445, 0.00468164])


def rotation(q):
    w, x, y, z = q / np.linalg.norm(q)
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def box_sdf(p, center, rot):
    d = np.abs(rot.T @ (p - center)) - H
    return np.linalg.norm(np.maximum(d, 0.0)) + min(d.max(), 0.0)


def contacts():
    s = ContactSettings()
    s.margin = MARGIN
    box = Shape.box(2 * H, 2 * H, 2 * H)
    return torsion.collide(box, POS_A, QUAT_A, box, (0, 0, 0), (1, 0, 0, 0), s)


def test_the_pose_is_the_overhanging_edge_crossing():
    ra = rotation(QUAT_A)
    corners = [POS_A + ra @ (H * np.array(s)) for s in
               [(a, b, c) for a in (-1, 1) for b in (-1, 1) for c in (-1, 1)]]
    # A's four lowest corners (along B's x, the face they rest on) are all beyond B's face
    # (|y| or |z| > H): a face-axis test counts a whole millimetre of penetration there
    low = sorted(corners, key=lambda c: c[0])[:4]
    assert all(max(abs(c[1]), abs(c[2])) > H for c in low)
    assert min(c[0] for c in low) < H - 5e-4


def test_an_edge_crossing_between_nearly_parallel_faces_gets_the_faces_overlap():
    cs = contacts()
    ra = rotation(QUAT_A)
    assert len(cs) >= 3
    n = cs["normal"][0]
    assert np.allclose(cs["normal"], n, atol=0, rtol=0)
    deepest = cs["depth"].max()
    assert 0.0 < deepest < 1e-4  # the crossing: a few hundredths of a millimetre
    assert (cs["depth"] >= -MARGIN - 1e-12).all()
    # support on both sides of the crossing: points spread over several centimetres
    p = cs["position"]
    spread = np.linalg.norm(p[:, None, :] - p[None, :, :], axis=2).max()
    assert spread > 0.03
    # every point: A's and B's surface points (half the depth either way along n) on the boxes
    for c in cs:
        on_a = c["position"] - 0.5 * c["depth"] * c["normal"]
        on_b = c["position"] + 0.5 * c["depth"] * c["normal"]
        assert abs(box_sdf(on_a, POS_A, ra)) < 1e-9
        assert abs(box_sdf(on_b, np.zeros(3), np.eye(3))) < 1e-9
    # and the deepest point's depth is the boxes' penetration along n (separating-axis test)
    verts_a = [POS_A + ra @ (H * np.array(s)) for s in
               [(a, b, c) for a in (-1, 1) for b in (-1, 1) for c in (-1, 1)]]
    verts_b = [H * np.array(s) for s in
               [(a, b, c) for a in (-1, 1) for b in (-1, 1) for c in (-1, 1)]]
    overlap = max(v @ n for v in verts_b) - min(v @ n for v in verts_a)
    assert abs(overlap - deepest) < 1e-12
