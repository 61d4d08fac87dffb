"""The per-step control calls (ArticulatedSystem.set_pd_target, set_generalized_force,
get_generalized_coordinate, get_generalized_velocity and World.integrate) are raw CPython
fast-call methods. They must behave exactly like ordinary bindings: positional and keyword
arguments, TypeErrors for bad calls, the general array-like conversion with its shape errors,
fresh copies out, RemovedObjectError on dead handles, and bitwise the same physics whichever way
the arguments are passed."""

from __future__ import annotations

import numpy as np
import pytest

import torsion

from .conftest import standing_quadruped

KP, KD = 50.0, 1.0


def quadruped(world_cls=torsion.World):
    w = world_cls()
    w.add_ground()
    s, gc = standing_quadruped(w)
    s.set_pd_gains(np.full(18, KP), np.full(18, KD))
    return w, s, gc


def run(pass_args, steps=40):
    """Steps a quadruped under PD with a moving target, passing the arguments with pass_args."""
    w, s, gc = quadruped()
    rng = np.random.default_rng(3)
    for _ in range(steps):
        target = gc.copy()
        target[7:] += rng.uniform(-0.2, 0.2, 12)
        tau = np.zeros(18)
        tau[6:] = rng.uniform(-1.0, 1.0, 12)
        pass_args(w, s, target, np.zeros(18), tau)
    return s.get_generalized_coordinate(), s.get_generalized_velocity(), s.get_generalized_force()


def _positional(w, s, q, v, tau):
    s.set_pd_target(q, v)
    s.set_generalized_force(tau)
    w.integrate()


def _keywords(w, s, q, v, tau):
    s.set_pd_target(v_ref=v, q_ref=q)
    s.set_generalized_force(tau=tau)
    w.integrate(steps=1)


def _lists(w, s, q, v, tau):  # the general conversion path
    s.set_pd_target(q.tolist(), list(v))
    s.set_generalized_force(tuple(tau))
    w.integrate(1)


def _strided_and_other_dtypes(w, s, q, v, tau):  # not contiguous float64: converted
    q2 = np.zeros((19, 2))
    q2[:, 0] = q
    s.set_pd_target(q2[:, 0], v.astype(np.float32))
    s.set_generalized_force(tau.astype(">f8"))  # big-endian: converted, same values
    torsion.World.integrate(w, np.int64(1))  # unbound call, a NumPy integer


@pytest.mark.parametrize("variant", [_keywords, _lists, _strided_and_other_dtypes])
def test_same_physics_whichever_way_arguments_are_passed(variant):
    ref = run(_positional)
    got = run(variant)
    for a, b in zip(ref, got):
        assert a.tobytes() == b.tobytes()
    # and the step did something: the robot moved away from its start
    assert np.abs(ref[1]).max() > 1e-3


def test_getters_return_fresh_copies():
    w, s, gc = quadruped()
    w.integrate(5)
    q1, q2 = s.get_generalized_coordinate(), s.get_generalized_coordinate()
    v1 = s.get_generalized_velocity()
    assert q1 is not q2 and not np.shares_memory(q1, q2)
    assert q1.dtype == np.float64 and q1.shape == (19,) and q1.flags.c_contiguous
    assert v1.dtype == np.float64 and v1.shape == (18,) and q1.flags.writeable
    q1[:] = 7.0
    v1[:] = 7.0
    assert s.get_generalized_coordinate().tobytes() == q2.tobytes()
    assert not np.any(s.get_generalized_velocity() == 7.0)
    # the values are the state set
    s.set_state(gc, np.arange(18.0) * 0.01)
    assert np.array_equal(s.get_generalized_coordinate(), gc)
    assert np.array_equal(s.get_generalized_velocity(), np.arange(18.0) * 0.01)


def test_set_generalized_force_is_what_force_mode_applies():
    # a floating quadruped without ground, gravity or joint damping, at rest: one step gives
    # dv = M^-1 tau dt (semi-implicit Euler), so the fast call passed tau through unchanged
    w = torsion.World()
    w.set_gravity([0, 0, 0])
    s = w.add_articulated_system(torsion.robots.urdf_path("quadruped"))
    gc = s.get_generalized_coordinate()
    gc[7:] = torsion.robots.QUADRUPED_STAND
    s.set_generalized_coordinate(gc)
    tau = np.linspace(-1.0, 1.0, 18)
    s.set_generalized_force(tau)
    assert np.array_equal(s.get_feedforward_generalized_force(), tau)
    minv = s.get_inverse_mass_matrix()
    w.integrate()
    np.testing.assert_allclose(s.get_generalized_velocity(), minv @ tau * w.get_time_step(),
                               rtol=1e-9, atol=1e-12)


def test_set_pd_target_is_stored():
    w, s, gc = quadruped()
    v = np.linspace(0.0, 1.0, 18)
    s.set_pd_target(gc, v)
    q_ref, v_ref = s.get_pd_target()
    assert np.array_equal(q_ref, gc) and np.array_equal(v_ref, v)


def test_bad_calls_raise_type_errors():
    w, s, gc = quadruped()
    v = np.zeros(18)
    with pytest.raises(TypeError, match="missing required argument 'v_ref'"):
        s.set_pd_target(gc)
    with pytest.raises(TypeError, match="missing required argument 'q_ref'"):
        s.set_pd_target(v_ref=v)
    with pytest.raises(TypeError, match="unexpected keyword argument 'q'"):
        s.set_pd_target(q=gc, v_ref=v)
    with pytest.raises(TypeError, match="multiple values for argument 'q_ref'"):
        s.set_pd_target(gc, v, q_ref=gc)
    with pytest.raises(TypeError, match="at most 2 argument"):
        s.set_pd_target(gc, v, v)
    with pytest.raises(TypeError):
        s.set_generalized_force()
    with pytest.raises(TypeError, match="unexpected keyword argument 'force'"):
        s.set_generalized_force(force=v)
    with pytest.raises(TypeError):
        s.get_generalized_coordinate(1)
    with pytest.raises(TypeError):
        s.get_generalized_velocity(frame=1)
    with pytest.raises(TypeError):  # the descriptor checks self's type
        torsion.ArticulatedSystem.get_generalized_coordinate(w)
    with pytest.raises(TypeError):
        torsion.World.integrate(s)
    for bad in (1.5, "2", None, 2**70):
        with pytest.raises(TypeError):
            w.integrate(bad)
    with pytest.raises(TypeError, match="unexpected keyword argument 'n'"):
        w.integrate(n=2)
    with pytest.raises(TypeError):
        w.integrate(1, 2)
    # nothing stepped
    assert w.get_world_time() == 0.0


def test_bad_values_raise_value_errors_naming_the_argument():
    w, s, gc = quadruped()
    with pytest.raises(ValueError, match=r"q_ref must have shape \(19,\), got shape \(3,\)"):
        s.set_pd_target(np.zeros(3), np.zeros(18))
    with pytest.raises(ValueError, match=r"v_ref must have shape \(18,\)"):
        s.set_pd_target(gc, np.zeros((18, 1)))
    with pytest.raises(ValueError, match="v_ref must be an array-like"):
        s.set_pd_target(gc, object())
    with pytest.raises(ValueError, match=r"tau must have shape \(18,\)"):
        s.set_generalized_force(np.zeros(12))
    with pytest.raises(ValueError, match="tau must be finite"):
        s.set_generalized_force(np.full(18, np.nan))
    with pytest.raises(ValueError, match="steps must be >= 0"):
        w.integrate(-1)
    w.integrate1()
    with pytest.raises(RuntimeError, match="between integrate1"):
        w.integrate()
    w.integrate2()


def test_integrate_counts_steps():
    w, s, gc = quadruped()
    dt = w.get_time_step()
    w.integrate()
    w.integrate(0)
    w.integrate(True)  # an int, as pybind11's int caster accepted
    w.integrate(steps=3)
    w.integrate(np.int32(2))
    assert w.get_world_time() == pytest.approx(7 * dt, rel=1e-12)


def test_python_subclass_of_world():
    class MyWorld(torsion.World):
        pass

    w, s, gc = quadruped(MyWorld)
    w.integrate(2)
    w.integrate()
    assert w.get_world_time() == pytest.approx(3 * w.get_time_step())


def test_dead_handle_raises_removed_object_error():
    w, s, gc = quadruped()
    w.remove_object(s)
    v = np.zeros(18)
    with pytest.raises(torsion.RemovedObjectError, match="removed"):
        s.set_pd_target(gc, v)
    with pytest.raises(torsion.RemovedObjectError):
        s.set_generalized_force(v)
    with pytest.raises(torsion.RemovedObjectError):
        s.get_generalized_coordinate()
    with pytest.raises(torsion.RemovedObjectError):
        s.get_generalized_velocity()
    w.integrate()  # the world itself still steps


def test_docstrings_keep_their_signatures():
    assert torsion.ArticulatedSystem.set_pd_target.__doc__.startswith(
        "set_pd_target(self: torsion._core.ArticulatedSystem, q_ref: object, v_ref: object)")
    assert "steps: typing.SupportsInt" in torsion.World.integrate.__doc__
    assert "fresh array" in torsion.ArticulatedSystem.get_generalized_velocity.__doc__


def test_state_setters_and_arm_queries_as_fast_calls():
    """set_generalized_coordinate/velocity, get_mass_matrix and get_dense_frame_jacobian are
    fast-call methods too: same arguments, errors and fresh results as the bindings they
    replace (the values themselves are checked against Pinocchio in test_pinocchio.py)."""
    w = torsion.World()
    arm = w.add_articulated_system(torsion.robots.urdf_path("arm7"))
    q = np.array([0.1, 0.5, -0.3, -1.0, 0.2, 0.4, 0.3])
    arm.set_generalized_coordinate(q)
    assert np.array_equal(arm.get_generalized_coordinate(), q)
    arm.set_generalized_coordinate(gc=q.tolist())  # keyword, general conversion
    arm.set_generalized_velocity(gv=np.arange(7.0))
    assert np.array_equal(arm.get_generalized_velocity(), np.arange(7.0))
    arm.set_generalized_velocity(tuple(np.zeros(7)))
    m1, m2 = arm.get_mass_matrix(), arm.get_mass_matrix()
    assert m1.shape == (7, 7) and m1.flags.c_contiguous and not np.shares_memory(m1, m2)
    assert np.array_equal(m1, m1.T) and np.all(np.linalg.eigvalsh(m1) > 0)
    names = arm.get_frame_names()
    tool = names.index("tool_joint")
    j1 = arm.get_dense_frame_jacobian("tool_joint")
    j2 = arm.get_dense_frame_jacobian(frame=tool)
    assert j1.shape == (3, 7) and j1.flags.c_contiguous and np.array_equal(j1, j2)
    # J is the derivative of the frame position: central differences
    p0 = arm.get_frame_position("tool_joint")
    for k in range(7):
        dq = np.zeros(7)
        dq[k] = 1e-6
        arm.set_generalized_coordinate(q + dq)
        pp = arm.get_frame_position("tool_joint")
        arm.set_generalized_coordinate(q - dq)
        pm = arm.get_frame_position("tool_joint")
        np.testing.assert_allclose((pp - pm) / 2e-6, j1[:, k], atol=1e-8)
    arm.set_generalized_coordinate(q)
    assert np.array_equal(arm.get_frame_position("tool_joint"), p0)
    # errors as before
    with pytest.raises(ValueError, match=r"gc must have shape \(7,\)"):
        arm.set_generalized_coordinate(np.zeros(6))
    with pytest.raises(ValueError, match="gc must be finite"):
        arm.set_generalized_coordinate(np.full(7, np.inf))
    with pytest.raises(ValueError, match="gv must be finite"):
        arm.set_generalized_velocity(np.full(7, np.nan))
    with pytest.raises(TypeError, match="unexpected keyword argument 'q'"):
        arm.set_generalized_coordinate(q=q)
    with pytest.raises(TypeError):
        arm.get_mass_matrix(1)
    with pytest.raises(ValueError, match="unknown frame name 'nope'"):
        arm.get_dense_frame_jacobian("nope")
    with pytest.raises(IndexError, match="out of range"):
        arm.get_dense_frame_jacobian(len(names))
    with pytest.raises(ValueError, match="frame must be a frame name"):
        arm.get_dense_frame_jacobian(1.5)
    with pytest.raises(TypeError, match="missing required argument 'frame'"):
        arm.get_dense_frame_jacobian()
    w.remove_object(arm)
    for call in (lambda: arm.set_generalized_coordinate(q), lambda: arm.get_mass_matrix(),
                 lambda: arm.get_dense_frame_jacobian("tool_joint"),
                 lambda: arm.set_generalized_velocity(np.zeros(7))):
        with pytest.raises(torsion.RemovedObjectError):
            call()


def test_spherical_target_quaternion_must_have_a_non_zero_norm():
    # set_generalized_coordinate refuses a zero quaternion; set_pd_target took one for identity,
    # silently (the humanoid's waist, turned 0.5 rad, was then driven to upright). The floating
    # base's target stays free: its gains are zero, so it is never used, and RaiSim environments
    # pass it all zeros.
    w = torsion.World()
    h = w.add_articulated_system(torsion.robots.urdf_path("humanoid"))
    n = h.get_dof()
    gc = h.get_generalized_coordinate()
    waist = [j for j in h.get_joints() if j["type"] == "spherical"][0]
    i = waist["gc_index"]
    h.set_pd_gains(np.full(n, 100.0), np.zeros(n))
    h.set_pd_target(gc, np.zeros(n))
    for bad in ([0.0, 0.0, 0.0, 0.0], [-0.0, 0.0, -0.0, 0.0]):
        t = gc.copy()
        t[i:i + 4] = bad
        with pytest.raises(ValueError, match=rf"q_ref: the quaternion of joint '{waist['joint']}' "
                           rf"\(q_ref\[{i}:{i + 4}\], w x y z\) must be finite with a non-zero "
                           r"norm"):
            h.set_pd_target(t, np.zeros(n))
    t[i:i + 4] = [1.0, np.nan, 0.0, 0.0]
    with pytest.raises(ValueError, match="q_ref must be finite"):
        h.set_pd_target(t, np.zeros(n))
    np.testing.assert_array_equal(h.get_pd_target()[0], gc)  # refused calls change nothing
    # a non-unit one is normalised, as in gc; the base's may be zero (taken as identity)
    t = gc.copy()
    t[3:7] = 0.0
    t[i:i + 4] = [0.0, 2.0, 0.0, 0.0]
    h.set_pd_target(t, np.zeros(n))
    q_ref = h.get_pd_target()[0]
    np.testing.assert_array_equal(q_ref[3:7], [1.0, 0.0, 0.0, 0.0])
    np.testing.assert_array_equal(q_ref[i:i + 4], [0.0, 1.0, 0.0, 0.0])
    t[i:i + 4] = [0.0, 1e-300, 0.0, 0.0]  # tiny is not zero: normalised like any other norm
    h.set_pd_target(t, np.zeros(n))
    np.testing.assert_array_equal(h.get_pd_target()[0][i:i + 4], [0.0, 1.0, 0.0, 0.0])
