"""World.get_contact_solver(): RaiSim's getContactSolver() surface (set_order, get_loop_counter,
get_error_history, get_config as a live view, update_config).

The error history is checked against closed-form values: one sphere landing on the ground is a
single contact whose first update stops it, so the first sweep's error is the sphere's
approach speed after gravity's step, v + g dt, and nothing changes after it."""

from __future__ import annotations

import gc

import numpy as np
import pytest

import torsion

from .conftest import box_stack, drop_tumbling_boxes

G = 9.81
DT = 1e-3


def landing_spheres(speeds):
    """A world whose spheres (0.1 m, 1 kg, 1 m apart) touch the ground moving down at `speeds`."""
    w = torsion.World()
    w.set_time_step(DT)
    w.set_gravity([0.0, 0.0, -G])
    w.add_ground(0.0)
    for k, v in enumerate(speeds):
        s = w.add_sphere(0.1, 1.0)
        s.set_position([float(k), 0.0, 0.1])
        s.set_velocity([0.0, 0.0, -v], [0.0, 0.0, 0.0])
    return w


def test_first_sweep_error_is_the_landing_speed_and_history_matches_the_diagnostics():
    w = landing_spheres([0.5])
    w.integrate()
    solver = w.get_contact_solver()
    d = w.get_contact_solver_diagnostics()
    h = solver.get_error_history()
    assert d["contacts"] == 1 and d["converged"]
    assert h.dtype == np.float64 and h.shape == (solver.get_loop_counter(),)
    assert solver.get_loop_counter() == d["iterations"] >= 2
    # the update takes the normal velocity from -(v + g dt) to 0
    assert h[0] == pytest.approx(0.5 + G * DT, rel=1e-12)
    assert np.all(h[1:] == 0.0)
    assert h[-1] == d["error"]


def test_each_sweep_reports_the_largest_error_of_the_islands_that_ran_it():
    # two separate islands (the ground is static): sweep 1 carries the faster sphere's speed
    w = landing_spheres([0.5, 2.0])
    w.integrate()
    d = w.get_contact_solver_diagnostics()
    h = w.get_contact_solver().get_error_history()
    assert d["islands"] == 2
    assert h[0] == pytest.approx(2.0 + G * DT, rel=1e-12)
    assert len(h) == d["iterations"]


def test_history_of_a_capped_and_of_a_converged_solve():
    w = torsion.World()
    w.set_time_step(DT)
    w.add_ground(0.0)
    w.set_contact_solver_iteration_order(True)
    drop_tumbling_boxes(w)
    # the history against the absolute threshold (the relative tolerance, on by default, would
    # end a moving island's solve at its own tolerance: converged no longer means below 1e-8)
    w.set_contact_solver_relative_threshold(0.0)
    solver = w.get_contact_solver()
    solver.get_config().max_iteration = 5
    capped = 0
    for _ in range(600):
        w.integrate()
        d = w.get_contact_solver_diagnostics()
        h = solver.get_error_history()
        assert len(h) == d["iterations"] == solver.get_loop_counter()
        assert np.all(np.isfinite(h)) and np.all(h >= 0.0)
        if len(h):
            # the islands that ran the last sweep ended on it; diagnostics' error is the largest
            # final error of every island
            assert h[-1] <= d["error"]
            if d["islands"] == 1:
                assert h[-1] == d["error"] and d["converged"] == (h[-1] < 1e-8)
        capped += d["iterations"] == 5 and not d["converged"]
    assert capped > 0, "the pile never needed more than 5 sweeps"
    # a resting stack converges: every sweep but the last stays above the threshold
    w, _ = box_stack(4)
    for _ in range(50):
        w.integrate()
    h = w.get_contact_solver().get_error_history()
    assert w.get_contact_solver_diagnostics()["converged"]
    assert h[-1] < 1e-8 and len(h) >= 1


def test_config_is_a_live_view_of_the_world_solver():
    w = torsion.World()
    cfg = w.get_contact_solver().get_config()
    assert (cfg.alpha_init, cfg.alpha_low, cfg.alpha_decay) == (1.0, 1.0, 1.0)
    assert (cfg.error_to_terminate, cfg.max_iteration, cfg.erp, cfg.erp2) == (1e-8, 150, 0.0, 0.0)
    cfg.max_iteration = 40
    cfg.error_to_terminate = 1e-6
    cfg.erp = 0.2
    p = w.get_contact_solver_params()
    assert (p["max_iter"], p["threshold"], p["erp"]) == (40, 1e-6, 0.2)
    # and the other way: the world's setters show through the view
    w.set_contact_solver_param(0.9, 0.5, 0.7, 12, 1e-7)
    w.set_erp(0.1, 0.3)
    assert (cfg.alpha_init, cfg.alpha_low, cfg.alpha_decay) == (0.9, 0.5, 0.7)
    assert (cfg.max_iteration, cfg.error_to_terminate, cfg.erp, cfg.erp2) == (12, 1e-7, 0.1, 0.3)
    assert "live" in repr(cfg)


@pytest.mark.parametrize("name,value,message", [
    ("alpha_init", 0.0, "alpha_init must be in (0, 1]"),
    ("alpha_low", 1.5, "alpha_low must be in (0, 1]"),
    ("alpha_decay", -0.1, "alpha_decay must be in [0, 1]"),
    ("error_to_terminate", -1.0, "error_to_terminate must be finite and >= 0"),
    ("error_to_terminate", float("nan"), "error_to_terminate must be finite"),
    ("erp", float("inf"), "erp must be in [0, 1]"),
    ("erp2", -0.5, "erp2 must be finite and >= 0"),
    ("max_iteration", 0, "max_iteration must be in [1, 2147483647]"),
])
def test_bad_config_values_are_refused_and_change_nothing(name, value, message):
    w = torsion.World()
    before = w.get_contact_solver_params()
    for cfg in (w.get_contact_solver().get_config(), torsion.ContactSolverConfig()):
        with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")
                           .replace("[", r"\[").replace("]", r"\]")):
            setattr(cfg, name, value)
    assert w.get_contact_solver_params() == before
    with pytest.raises(TypeError):
        w.get_contact_solver().get_config().max_iteration = 2.5


def test_update_config_copies_a_detached_configuration():
    w = torsion.World()
    w.set_contact_solver_iteration_order(True)
    w.set_contact_solver_acceleration(3)
    cfg = torsion.ContactSolverConfig()
    assert "live" not in repr(cfg)
    assert (cfg.max_iteration, cfg.error_to_terminate) == (150, 1e-8)
    cfg.max_iteration = 33
    cfg.alpha_decay = 0.5
    cfg.alpha_low = 0.8
    cfg.erp2 = 0.01
    assert w.get_contact_solver_params()["max_iter"] == 150  # detached: the world is untouched
    w.get_contact_solver().update_config(cfg)
    p = w.get_contact_solver_params()
    assert (p["max_iter"], p["alpha_decay"], p["alpha_min"], p["erp2"]) == (33, 0.5, 0.8, 0.01)
    # the settings a SolverConfiguration does not carry are kept
    assert p["fixed_order"] and p["acceleration_depth"] == 3
    with pytest.raises(TypeError):
        w.get_contact_solver().update_config({"max_iteration": 3})


def test_set_order_fixes_the_sweep_direction_for_bitwise_replays():
    def run(fixed):
        w = torsion.World()
        w.set_time_step(DT)
        w.add_ground(0.0)
        boxes = drop_tumbling_boxes(w, count=8)
        w.get_contact_solver().set_order(fixed)
        for _ in range(150):
            w.integrate()
        cp = w.capture_checkpoint()
        w.integrate(50)
        first = np.concatenate([b.get_position() for b in boxes])
        w.restore_checkpoint(cp)
        w.integrate(50)
        return w, first, np.concatenate([b.get_position() for b in boxes])

    w, a, b = run(True)
    assert w.get_contact_solver_params()["fixed_order"]
    assert np.array_equal(a, b)
    w, _, _ = run(False)
    assert not w.get_contact_solver_params()["fixed_order"]
    for bad in (None, 2, "yes"):
        with pytest.raises(TypeError):
            w.get_contact_solver().set_order(bad)
    w.get_contact_solver().set_order(np.bool_(True))
    assert w.get_contact_solver_params()["fixed_order"]
    # the World's setter is as strict: None used to read as False, 2 as True
    for bad in (None, 2, "yes"):
        with pytest.raises(TypeError):
            w.set_contact_solver_iteration_order(bad)
    assert w.get_contact_solver_params()["fixed_order"]
    w.set_contact_solver_iteration_order(np.bool_(False))
    assert not w.get_contact_solver_params()["fixed_order"]


def test_the_solver_keeps_its_world_alive():
    def make():
        w = landing_spheres([1.0])
        w.integrate()
        return w.get_contact_solver(), w.get_contact_solver().get_config()

    solver, cfg = make()
    gc.collect()
    assert solver.get_loop_counter() >= 2
    cfg.max_iteration = 7
    assert cfg.max_iteration == 7
    with pytest.raises(TypeError):
        torsion.ContactSolver()


def test_config_values_copies_and_equality():
    w = torsion.World()
    cfg = w.get_contact_solver().get_config()
    for bad, error, message in [(2 ** 31, ValueError, "max_iteration must be in"),
                                (-(2 ** 70), ValueError, "max_iteration must be in"),
                                (3.0, TypeError, "max_iteration must be an int"),
                                (True, TypeError, "max_iteration must be an int")]:
        with pytest.raises(error, match=message):
            cfg.max_iteration = bad
    assert w.get_contact_solver_params()["max_iter"] == 150
    # a copy is detached: it keeps the values it read, and changing it leaves the world alone
    import copy
    for c in (copy.copy(cfg), copy.deepcopy(cfg)):
        assert "live" not in repr(c) and c == cfg
        c.max_iteration = 9
        assert c != cfg and cfg.max_iteration == 150
    assert cfg == w.get_contact_solver().get_config() == torsion.ContactSolverConfig()
    with pytest.raises(TypeError):
        hash(cfg)
