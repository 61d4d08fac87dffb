"""Rolling and spinning friction (1-D solver rows bounded by coefficient * normal force), checked
against the closed-form motion of a ball; and World.update_material_prop with a MaterialManager."""

import numpy as np
import pytest

import torsion
from torsion._core import MaterialManager

G = 9.81
R, M = 0.1, 1.0
I_BALL = 0.4 * M * R * R  # solid sphere


def ball_world(rolling, spinning, friction=0.8, dt=1e-3):
    w = torsion.World()
    w.set_time_step(dt)
    w.add_ground(0.0, "ground")
    w.set_material_pair_prop("ground", "ball", friction, 0.0, 0.0, friction, 1e-3, rolling, spinning)
    b = w.add_sphere(R, M, "ball")
    b.set_position([0.0, 0.0, R])
    return w, b


def test_rolling_ball_decelerates_as_the_rolling_resistance_model_says():
    # Rolling without slip under a resisting torque mu_r N about the contact point:
    # (m + I / R^2) a = -mu_r m g / R  =>  a = mu_r g / (R (1 + I / (m R^2))) = 5 mu_r g / (7 R)
    mu_r, v0 = 0.01, 1.0
    w, b = ball_world(mu_r, 0.0)
    b.set_velocity([v0, 0.0, 0.0], [0.0, v0 / R, 0.0])  # rolling along +x: w_y = v / R
    w.integrate(20)
    va = b.get_linear_velocity()[0]
    x0 = b.get_position()[0]
    w.integrate(500)
    vb = b.get_linear_velocity()[0]
    a = 5.0 * mu_r * G / (7.0 * R)
    assert (va - vb) / 0.5 == pytest.approx(a, rel=0.01)
    # it keeps rolling without slip
    assert b.get_angular_velocity()[1] == pytest.approx(vb / R, rel=1e-3)
    d = w.get_contact_solver_diagnostics()
    assert d["rolling_rows"] == 2
    # it stops after v^2 / (2 a) and stays stopped
    w.integrate(2000)
    assert abs(b.get_linear_velocity()[0]) < 1e-6
    assert np.abs(b.get_angular_velocity()).max() < 1e-5
    assert b.get_position()[0] - x0 == pytest.approx(va**2 / (2 * a), rel=0.01)


def test_without_rolling_friction_the_ball_keeps_rolling():
    w, b = ball_world(0.0, 0.0)
    b.set_velocity([1.0, 0.0, 0.0], [0.0, 10.0, 0.0])
    w.integrate(500)
    assert b.get_linear_velocity()[0] == pytest.approx(1.0, abs=1e-6)
    assert w.get_contact_solver_diagnostics()["rolling_rows"] == 0


def test_spinning_ball_stops_at_the_analytic_time():
    # spinning about the normal: I dw/dt = -mu_s m g, so w(t) = w0 - t mu_s m g / I
    mu_s, w0, dt = 0.005, 10.0, 1e-3
    w, b = ball_world(0.0, mu_s, dt=dt)
    b.set_velocity([0.0, 0.0, 0.0], [0.0, 0.0, w0])
    alpha = mu_s * M * G / I_BALL
    w.integrate(300)
    assert b.get_angular_velocity()[2] == pytest.approx(w0 - 0.3 * alpha, rel=0.01)
    assert w.get_contact_solver_diagnostics()["rolling_rows"] == 1
    t_stop = w0 / alpha
    w.integrate(int(round(t_stop / dt)) - 300 - 10)
    assert b.get_angular_velocity()[2] > 0.0  # still turning just before t_stop
    w.integrate(20)
    assert abs(b.get_angular_velocity()[2]) < 1e-9  # stopped just after it, and held
    assert np.abs(b.get_position()[:2]).max() < 1e-9  # spinning in place


def test_rolling_friction_holds_a_ball_on_a_gentle_slope():
    # On an incline of angle a a ball rolls away unless the rolling torque can hold it:
    # at rest the contact carries m g sin(a) of friction, whose moment about the centre,
    # m g sin(a) R, must not exceed mu_r m g cos(a): it holds iff tan(a) <= mu_r / R.
    mu_r = 0.005
    for a, holds in [(0.8 * np.arctan(mu_r / R), True), (1.2 * np.arctan(mu_r / R), False)]:
        w = torsion.World()
        w.set_gravity([G * np.sin(a), 0.0, -G * np.cos(a)])
        w.add_ground(0.0, "ground")
        w.set_material_pair_prop("ground", "ball", 0.8, 0.0, 0.0, 0.8, 1e-3, mu_r, 0.0)
        b = w.add_sphere(R, M, "ball")
        b.set_position([0.0, 0.0, R])
        w.integrate(1000)
        v = b.get_linear_velocity()[0]
        if holds:
            assert abs(v) < 1e-6
        else:
            # rolling: a = g (sin a - mu_r cos a / R) / (1 + I / (m R^2))
            expected = G * (np.sin(a) - mu_r * np.cos(a) / R) / 1.4
            assert v == pytest.approx(expected * 1.0, rel=0.02)


def test_update_material_prop_replaces_every_pair_and_the_default():
    w = torsion.World()
    w.set_material_pair_prop("a", "b", 0.3, 0.5, 0.1)
    mm = MaterialManager()
    mm.set_default_material(0.6, 0.1, 0.2)
    mm.set_material_pair_prop("ground", "ball", 0.9, 0.0, 0.0, 0.9, 1e-3, 0.02, 0.003)
    w.update_material_prop(mm)
    p = w.get_material_pair_properties("ball", "ground")
    assert (p.friction, p.rolling_friction, p.spinning_friction) == (0.9, 0.02, 0.003)
    # the old pair is gone: it falls back to the new default
    q = w.get_material_pair_properties("b", "a")
    assert (q.friction, q.restitution, q.restitution_threshold) == (0.6, 0.1, 0.2)
    # a copy: later changes to the manager do not reach the world
    mm.set_material_pair_prop("ground", "ball", 0.1, 0.0, 0.0)
    assert w.get_material_pair_properties("ball", "ground").friction == 0.9
    assert mm.get_material_pair_properties("ball", "ground").friction == 0.1


def test_update_material_prop_changes_the_physics():
    # a ball rolling on a surface whose rolling friction comes from the new manager slows down
    w, b = ball_world(0.0, 0.0)
    mm = MaterialManager()
    mm.set_material_pair_prop("ground", "ball", 0.8, 0.0, 0.0, 0.8, 1e-3, 0.01, 0.0)
    w.update_material_prop(mm)
    b.set_velocity([1.0, 0.0, 0.0], [0.0, 10.0, 0.0])
    w.integrate(500)
    assert b.get_linear_velocity()[0] < 1.0 - 0.4 * 5 * 0.01 * G / (7 * R)


def test_material_manager_refuses_bad_values():
    mm = MaterialManager()
    with pytest.raises(ValueError, match="friction"):
        mm.set_material_pair_prop("a", "b", -0.1, 0.0, 0.0)
    with pytest.raises(ValueError, match="restitution"):
        mm.set_default_material(0.5, 1.5, 0.0)
    with pytest.raises(ValueError, match="rolling_friction"):
        mm.set_material_pair_prop("a", "b", 0.5, 0.0, 0.0, 0.5, 1e-3, -1.0, 0.0)
    with pytest.raises(TypeError):
        torsion.World().update_material_prop("not a manager")


def test_rows_with_rolling_friction_are_bitwise_deterministic():
    def run():
        w = torsion.World()
        w.add_ground(0.0, "ground")
        w.set_material_pair_prop("ground", "ball", 0.8, 0.0, 0.0, 0.8, 1e-3, 0.01, 0.002)
        w.set_material_pair_prop("ball", "ball", 0.5, 0.0, 0.0, 0.5, 1e-3, 0.005, 0.001)
        balls = []
        for i in range(5):
            b = w.add_sphere(R, M, "ball")
            b.set_position([0.15 * i, 0.01 * i, R + 0.25 * i])
            b.set_velocity([1.0, 0.0, 0.0], [0.0, 3.0, 1.0])
            balls.append(b)
        w.integrate(400)
        return np.concatenate([np.r_[b.get_position(), b.get_angular_velocity()] for b in balls])

    a, b = run(), run()
    assert np.array_equal(a, b)
