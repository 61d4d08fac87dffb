"""torsion.sensors.look_at and segmentation by (object id, link)."""

import numpy as np
import pytest

import torsion
from torsion.sensors import look_at, segmentation_color_map, segmentation_to_image


def test_look_at_against_hand_built_matrices():
    # looking along +x with z up: the camera frame is the world frame
    pos, rot = look_at([0, 0, 1], [5, 0, 1])
    np.testing.assert_array_equal(pos, [0, 0, 1])
    np.testing.assert_allclose(rot, np.eye(3), atol=1e-15)
    # looking along +y: forward +y, left -x, up +z
    _, rot = look_at([0, 0, 0], [0, 2, 0])
    np.testing.assert_allclose(rot, [[0, -1, 0], [1, 0, 0], [0, 0, 1]], atol=1e-15)
    # straight down with +x as up: forward -z, left = x cross (-z) = +y, up = (-z) x y = +x
    _, rot = look_at([0, 0, 3], [0, 0, 0], up=[1, 0, 0])
    np.testing.assert_allclose(rot, [[0, 0, 1], [0, 1, 0], [-1, 0, 0]], atol=1e-15)
    # 45 degrees down toward +x
    _, rot = look_at([0, 0, 1], [1, 0, 0])
    s = np.sqrt(0.5)
    np.testing.assert_allclose(rot, [[s, 0, s], [0, 1, 0], [-s, 0, s]], atol=1e-15)


def test_look_at_errors():
    with pytest.raises(ValueError, match="target"):
        look_at([1, 2, 3], [1, 2, 3])
    with pytest.raises(ValueError, match="parallel"):
        look_at([0, 0, 3], [0, 0, 0])
    with pytest.raises(ValueError, match="eye"):
        look_at([0, np.nan, 0], [1, 0, 0])
    with pytest.raises(ValueError, match="up"):
        look_at([0, 0, 0], [1, 0, 0], up=[0, 0])


def test_camera_from_look_at_sees_the_target_in_the_middle():
    w = torsion.World()
    box = w.add_box(0.2, 0.2, 0.2, 1.0)
    box.set_position([2.0, 1.0, 0.5])
    box.set_body_type(torsion.BodyType.STATIC)
    pos, rot = look_at([0.0, -1.0, 2.0], [2.0, 1.0, 0.5])
    props = torsion.DepthCameraProperties(width=41, height=31, hfov=30.0)
    frame = w.capture_depth_camera(pos, rot, props)
    assert frame.object_id[15, 20] == box.get_id()
    expected = np.linalg.norm(np.array([2.0, 1.0, 0.5]) - pos) - 0.1  # about, to the near face
    assert abs(frame.depth[15, 20] - expected) < 0.1
    assert frame.object_id[0, 0] == -1 and frame.link[0, 0] == -1


def test_segmentation_ids_survive_removal_and_name_robot_links():
    w = torsion.World()
    spheres = [w.add_sphere(0.1, 1.0) for _ in range(3)]
    for k, s in enumerate(spheres):
        s.set_position([2.0, -0.6 + 0.6 * k, 0.5])
        s.set_body_type(torsion.BodyType.STATIC)
    robot = w.add_articulated_system(torsion.robots.urdf_path("arm7"))
    robot.set_base_position([2.5, 0.0, -0.6])
    pos, rot = look_at([0.0, 0.0, 0.5], [2.0, 0.0, 0.5])
    props = torsion.DepthCameraProperties(width=64, height=48, hfov=60.0)
    before = w.capture_depth_camera(pos, rot, props)
    w.remove_object(spheres[0])  # the last object (the robot) takes index 0
    after = w.capture_depth_camera(pos, rot, props)
    for obj in (spheres[1], spheres[2], robot):
        seen = after.object_id == obj.get_id()
        assert seen.any()
        np.testing.assert_array_equal(seen, before.object_id == obj.get_id())
    rob = after.object_id == robot.get_id()
    np.testing.assert_array_equal(before.segmentation[rob], 3)  # world indices moved
    np.testing.assert_array_equal(after.segmentation[rob], 0)
    np.testing.assert_array_equal(after.link[rob], before.link[rob])
    # the robot's links are named by body index
    links = set(after.link[rob].tolist())
    assert links <= set(range(len(robot.get_body_names())))
    assert len(links) >= 2
    np.testing.assert_array_equal(after.segmentation[rob], robot.get_index_in_world())


def test_segmentation_colour_map():
    ids = np.array([[-1, 5, 5], [7, 7, 9]])
    links = np.array([[-1, 0, 1], [0, 0, 0]])
    img = segmentation_to_image(ids, links)
    assert img.shape == (2, 3, 3) and img.dtype == np.uint8
    assert tuple(img[0, 0]) == (0, 0, 0)
    cmap = segmentation_color_map(ids, links)
    assert set(cmap) == {(5, 0), (5, 1), (7, 0), (9, 0)}
    for (r, c) in [(0, 1), (0, 2), (1, 0), (1, 2)]:
        assert tuple(img[r, c]) == cmap[(int(ids[r, c]), int(links[r, c]))]
    assert cmap[(5, 0)] != cmap[(5, 1)]
    # the same object gets the same colour whatever else is in the picture
    assert segmentation_color_map(np.array([[5]]), np.array([[0]]))[(5, 0)] == cmap[(5, 0)]
    assert set(segmentation_color_map(ids)) == {5, 7, 9}
    with pytest.raises(ValueError, match="link"):
        segmentation_to_image(ids, links[:1])
    with pytest.raises(ValueError, match="integers"):
        segmentation_to_image(ids.astype(float))


def test_segmentation_png(tmp_path):
    pytest.importorskip("PIL")
    from PIL import Image

    ids = np.array([[3, -1], [4, 4]])
    path = torsion.sensors.save_segmentation_png(ids, tmp_path / "seg.png", link=np.zeros((2, 2), int))
    img = np.asarray(Image.open(path))
    np.testing.assert_array_equal(img, segmentation_to_image(ids, np.zeros((2, 2), int)))
