"""The lean state for resets (World.capture_state / restore_state, torsion.WorldState): a restored
world continues bitwise as after the capture, any world of the same topology takes it, the
configuration is left alone, and bad use is refused."""

import numpy as np
import pytest

import torsion

from .test_world_batch import build_quadruped


def pile(sleeping=False):
    w = torsion.World()
    w.add_ground()
    w.set_sleeping_enabled(sleeping)
    rng = np.random.default_rng(1)
    for k in range(20):
        b = w.add_box(0.1, 0.1, 0.1, 1.0) if k % 2 else w.add_sphere(0.05, 0.5)
        b.set_position([0.12 * (k % 4), 0.12 * (k // 4 % 3), 0.05 + 0.11 * (k // 12)] + rng.uniform(-0.01, 0.01, 3))
    w.set_sensor_noise_seed(9)
    return w


@pytest.mark.parametrize("make", [pile, lambda: pile(sleeping=True), "quadruped"])
def test_restore_continues_bitwise(make):
    if make == "quadruped":
        w = torsion.World()
        build_quadruped(w, 1)
    else:
        w = make()
    w.integrate(150)  # contacts, warm starts (and sleeping islands) present
    state = w.capture_state()
    assert isinstance(state, torsion.WorldState) and not state.is_empty()
    assert state.get_world_time() == pytest.approx(0.15)
    h0 = w.state_hash()
    w.integrate(80)
    h80 = w.state_hash()
    assert h80 != h0
    w.restore_state(state)
    assert w.state_hash() == h0
    w.integrate(80)
    assert w.state_hash() == h80


def test_sensor_noise_stream_is_restored():
    w = pile()
    props = torsion.DepthCameraProperties(width=6, height=4, noise_std=0.01)
    rot = np.array([[0.0, 0, 1], [0, 1, 0], [-1, 0, 0]])
    state = w.capture_state()
    a = w.capture_depth_camera([0.2, 0.1, 2], rot, props).depth
    w.restore_state(state)
    b = w.capture_depth_camera([0.2, 0.1, 2], rot, props).depth
    assert np.array_equal(a, b)


def test_another_world_of_the_same_topology_takes_it():
    a, b = pile(), pile()
    a.integrate(120)
    b.integrate(7)
    state = a.capture_state()
    b.restore_state(state)
    assert b.state_hash() == a.state_hash()
    a.integrate(40)
    b.integrate(40)
    assert b.state_hash() == a.state_hash()


def test_configuration_is_kept():
    w = pile()
    w.integrate(30)
    state = w.capture_state()
    box = w.get_object(2)
    box.set_mass(3.0)
    w.set_gravity([0.0, 0.0, -5.0])
    pos = box.get_position()
    box.set_position(pos + [0.0, 0.0, 1.0])
    w.restore_state(state)
    assert box.get_mass() == 3.0 and np.array_equal(w.get_gravity(), [0.0, 0.0, -5.0])
    assert np.array_equal(box.get_position(), pos)  # the motion is restored


def test_out_reuses_the_state():
    w = pile()
    state = torsion.WorldState()
    assert state.is_empty()
    assert w.capture_state(out=state) is state
    w.integrate(20)
    t = w.get_world_time()
    assert w.capture_state(out=state) is state and state.get_world_time() == t
    assert state.get_topology_fingerprint() == w.get_topology_fingerprint()
    assert state.get_byte_size() > 0
    assert "WorldState(time=" in repr(state)


def test_batch_restore_with_a_state():
    batch = torsion.WorldBatch(build_quadruped, 4, num_threads=2)
    batch.integrate(20)
    start = batch.world(2).capture_state()
    h2 = batch.world(2).state_hash()
    batch.integrate(30)
    before = batch.state_hashes()
    batch.restore(np.array([0, 2]), start)
    h = batch.state_hashes()
    # world 0 was built with another start height, not another configuration: it now holds world
    # 2's motion exactly
    assert h[0] == h[2] == h2 and h[1] == before[1] and h[3] == before[3]
    batch.restore(None, start)
    assert set(batch.state_hashes().tolist()) == {h2}


def test_bad_use_is_refused():
    w = pile()
    with pytest.raises(RuntimeError, match="empty"):
        w.restore_state(torsion.WorldState())
    other = torsion.World()
    other.add_ground()
    with pytest.raises(RuntimeError, match="topology"):
        w.restore_state(other.capture_state())
    state = w.capture_state()
    w.add_sphere(0.1, 1.0)  # the topology changed since the capture
    before = w.state_hash()
    with pytest.raises(RuntimeError, match="topology"):
        w.restore_state(state)
    assert w.state_hash() == before
    w.integrate1()
    with pytest.raises(RuntimeError, match="integrate1"):
        w.capture_state()
    with pytest.raises(RuntimeError, match="integrate1"):
        w.restore_state(state)
    w.integrate2()
    with pytest.raises(ValueError, match="out must be a torsion.WorldState"):
        w.capture_state(out=np.zeros(3))
    with pytest.raises(TypeError):
        w.restore_state(w.capture_checkpoint())
    batch = torsion.WorldBatch(build_quadruped, 2)
    with pytest.raises(TypeError, match="Checkpoint or a torsion.WorldState"):
        batch.restore([0], "state")
    with pytest.raises(ValueError, match="empty"):
        batch.restore([0], torsion.WorldState())
    with pytest.raises(RuntimeError, match="another topology"):
        batch.restore([1], state)
