"""The viewer in a real browser: headless Chromium (Debian's ``chromium``, with SwiftShader WebGL)
loads the viser page served for the bundled quadruped, and the screenshot is compared with
torsion's ray-cast segmentation camera placed where the page's camera is. The self-contained
HTML replay is checked the same way from a file:// URL. Screenshots are kept under tmp_path."""

import time

import numpy as np
import pytest

import torsion
from torsion.demo import quadruped_world
from torsion.viewer.recorder import camera_rotation

from ._browser import Browser, find_chromium

pytest.importorskip("viser", reason='the viewer needs viser: pip install "torsion[viewer]"')
PIL = pytest.importorskip("PIL", reason="screenshots are read with Pillow")
if find_chromium() is None:
    pytest.skip("no Chromium to run the browser tests: apt-get install -y chromium", allow_module_level=True)

from torsion.viewer import Recorder, Viewer  # noqa: E402

W, H = 900, 420  # the page; viser's control panel covers x >= ~560, its WebGL notice the top
# left, and the replay's control bar the bottom 35 rows
REGION = (slice(150, 375), slice(0, 540))  # rows, columns compared
VFOV = 50.0


@pytest.fixture(scope="module")
def browser():
    with Browser(W, H) as b:
        yield b


def _stable_shot(browser, differs_from=None, timeout=25.0):
    """Screenshots until two in a row are equal over the compared region (the scene is drawn)."""
    end = time.monotonic() + timeout
    prev = None
    while time.monotonic() < end:
        time.sleep(0.3)
        img = browser.screenshot()
        if prev is not None and np.array_equal(img[REGION], prev[REGION]):
            if differs_from is None or not np.array_equal(img[REGION], differs_from[REGION]):
                return img
        prev = img
    raise AssertionError("the page did not settle within the timeout")


def _segmentation(world, cam, at):
    props = torsion.DepthCameraProperties(width=W, height=H, clip_far=20.0,
                                          hfov=float(np.rad2deg(2 * np.arctan(np.tan(np.deg2rad(VFOV) / 2) * W / H))))
    return world.capture_depth_camera(cam, camera_rotation(cam, at), props).segmentation


def _region(a):
    return a[REGION]


def _scene_view(world, robot):
    base = robot.get_generalized_coordinate()[:3]
    cam = base + np.array([1.2, 1.0, 0.75])
    fwd = (base - cam) / np.linalg.norm(base - cam)
    right = np.cross(fwd, [0, 0, 1.0])
    right /= np.linalg.norm(right)
    at = base + 0.45 * right  # the robot sits left of centre, clear of the control panel
    return cam, at


def _compare(with_robot, without_robot, seg, robot_index, ground_index, tmp_path, tag):
    PIL.Image.fromarray(with_robot).save(tmp_path / f"{tag}_robot.png")
    PIL.Image.fromarray(without_robot).save(tmp_path / f"{tag}_no_robot.png")
    diff = np.abs(with_robot.astype(int) - without_robot.astype(int)).max(axis=2) > 12
    drawn = _region(diff)
    truth = _region(seg == robot_index)
    inter, union = (drawn & truth).sum(), (drawn | truth).sum()
    assert truth.sum() > 2000, "the robot should cover part of the compared region"
    iou = inter / union
    # the sky: the mean colour where the segmentation camera sees nothing (above the horizon)
    sky_px = (seg < 0)
    sky_px[:, 540:] = False
    sky_px[:20] = False
    assert sky_px.sum() > 500, "the horizon should be in view"
    sky = np.median(without_robot[sky_px].astype(int), axis=0)
    ground_drawn = _region(np.abs(without_robot.astype(int) - sky).max(axis=2) > 12)
    ground_truth = _region((seg == ground_index) | (seg == robot_index))  # under the robot is ground
    agree = (ground_drawn == ground_truth).mean()
    return iou, agree


def test_live_viewer_draws_robot_and_ground_where_the_camera_sees_them(tmp_path, browser):
    world, robot = quadruped_world()
    world.integrate(500)  # standing
    cam, at = _scene_view(world, robot)
    seg = _segmentation(world, cam, at)
    viewer = Viewer(world, port=0)
    try:
        viewer.set_camera(cam, at, vfov=VFOV)
        viewer.update()
        browser.goto(viewer.url)
        assert browser.wait_for("document.querySelector('canvas') !== null")
        shot = _stable_shot(browser)
        robot_index, ground_index = robot.get_index_in_world(), 0
        world.remove_object(robot)  # removed while viewed: it disappears from the page
        viewer.update()
        empty = _stable_shot(browser, differs_from=shot)
        # the page is a connected client whose camera the viewer moves when following a body
        clients = list(viewer._server.get_clients().values())
        assert len(clients) == 1
        ball = world.add_sphere(0.1, 1.0)
        ball.set_name("ball")
        ball.set_position([2.0, 1.0, 0.1])
        viewer.follow("ball")
        target = np.array([2.0, 1.0, 0.1])
        cam_state = clients[0].camera
        end = time.monotonic() + 10.0
        while time.monotonic() < end:  # the page reports its camera back; wait for the new one
            viewer.update()
            if np.allclose(cam_state.look_at, target, atol=1e-4) and \
                    np.allclose(cam_state.position, target + viewer._follow_offset, atol=1e-4):
                break
            time.sleep(0.1)
        assert np.allclose(cam_state.look_at, target, atol=1e-4), cam_state.look_at
        assert np.allclose(cam_state.position, target + viewer._follow_offset, atol=1e-4), cam_state.position
    finally:
        browser.goto("about:blank")
        viewer.close()
    iou, agree = _compare(shot, empty, seg, robot_index, ground_index, tmp_path, "live")
    print(f"live viewer: robot IoU {iou:.3f}, ground/sky agreement {agree:.4f}")
    assert iou > 0.8, f"robot pixels: intersection over union {iou:.3f} with the segmentation camera"
    assert agree > 0.97, f"ground pixels agree with the segmentation camera on {agree:.3f}"


def test_html_replay_plays_offline_in_the_browser(tmp_path, browser):
    world, robot = quadruped_world()
    rec = Recorder(world, keep_checkpoints=False)
    world.integrate(500)
    rec.record()
    cam, at = _scene_view(world, robot)
    seg = _segmentation(world, cam, at)
    robot_index = robot.get_index_in_world()
    world.remove_object(robot)
    world.integrate(1)
    rec.record()  # a second frame without the robot
    page = rec.save_html(tmp_path / "replay.html")
    d = cam - at
    dist = float(np.linalg.norm(d))
    yaw, pitch = float(np.arctan2(d[1], d[0])), float(np.arcsin(d[2] / dist))
    view = f"yaw={yaw}&pitch={pitch}&dist={dist}&at={at[0]},{at[1]},{at[2]}"
    browser.goto(f"file://{page}#frame=0&{view}")
    assert browser.wait_for("document.getElementById('lbl').textContent.includes('frame 1/2')")
    shot = _stable_shot(browser)
    browser.goto("about:blank")
    browser.goto(f"file://{page}#frame=1&{view}")
    assert browser.wait_for("document.getElementById('lbl').textContent.includes('frame 2/2')")
    empty = _stable_shot(browser)
    browser.goto("about:blank")
    iou, agree = _compare(shot, empty, seg, robot_index, 0, tmp_path, "replay")
    print(f"html replay: robot IoU {iou:.3f}, ground/sky agreement {agree:.4f}")
    assert iou > 0.8, f"robot pixels: intersection over union {iou:.3f} with the segmentation camera"
    assert agree > 0.97, f"ground pixels agree with the segmentation camera on {agree:.3f}"
