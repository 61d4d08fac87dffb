"""The contact solver's compact kernel for rigid-body contacts (cpp/contact/rigid_kernel.hpp).

It solves the same problem as the generic per-side Jacobian path with different arithmetic, so the
generic path is its reference: from the same checkpoint, the same number of full sweeps must give
the same impulses and velocities up to rounding. Plus bitwise determinism and the checkpoint
keeping the setting."""

import numpy as np
import pytest

import torsion

from .conftest import boxes_state, drop_tumbling_boxes


def pile_world(compact=True, count=12):
    w = torsion.World()
    w.set_time_step(1e-3)
    w.add_ground(0.0)
    w.set_default_material(0.8, 0.0, 0.0)
    w.set_erp(0.2, 0.0)
    w.set_contact_solver_iteration_order(True)
    w.set_contact_solver_compact_kernel(compact)
    return w, drop_tumbling_boxes(w, count=count)


def velocities(boxes):
    return np.array([np.r_[b.get_linear_velocity(), b.get_angular_velocity()] for b in boxes])


def test_compact_kernel_equals_the_generic_path_on_a_tumbling_pile():
    w, boxes = pile_world(count=20)
    # a 5 mm margin: speculative contacts of boxes about to land are among the opening ones
    w.set_contact_settings(torsion.ContactSettings(margin=0.005))
    w.integrate(800)  # boxes landing on a pile: sticking, sliding and opening contacts
    cp = w.capture_checkpoint()
    out = {}
    for compact in (True, False):
        w.restore_checkpoint(cp)
        w.set_contact_solver_compact_kernel(compact)
        # threshold 0: no contact is ever quiet, both solves run exactly 60 full sweeps
        w.set_contact_solver_param(1.0, 1.0, 1.0, 60, 0.0)
        w.integrate()
        d = w.get_contact_solver_diagnostics()
        out[compact] = (velocities(boxes), w.get_contact_problem()["impulse"], d)
    (v_c, l_c, d_c), (v_g, l_g, d_g) = out[True], out[False]
    assert d_c["iterations"] == d_g["iterations"] == 60
    assert d_c["contacts"] == d_g["contacts"] > 20
    assert d_c["sticking"] > 0 and d_c["sliding"] > 0 and d_c["opening"] > 0
    assert (d_c["sticking"], d_c["sliding"], d_c["opening"]) == \
        (d_g["sticking"], d_g["sliding"], d_g["opening"])
    assert np.abs(v_c).max() > 0.1  # the pile is moving
    assert np.abs(v_c - v_g).max() < 1e-12
    assert np.abs(l_c - l_g).max() < 1e-12 * max(1.0, np.abs(l_g).max())


def test_compact_kernel_equals_the_generic_path_between_two_free_bodies():
    # box on box on the ground, tilted and sliding: two-sided and one-sided rigid contacts
    def run(compact):
        w = torsion.World()
        w.set_time_step(1e-3)
        w.add_ground(0.0)
        w.set_default_material(0.3, 0.0, 0.0)
        w.set_contact_solver_iteration_order(True)
        w.set_contact_solver_compact_kernel(compact)
        a = w.add_box(0.4, 0.4, 0.1, 2.0)
        a.set_position([0.0, 0.0, 0.05])
        b = w.add_box(0.1, 0.2, 0.1, 0.5)
        b.set_position([0.05, 0.02, 0.15 + 1e-4])
        b.set_velocity([0.6, 0.2, 0.0], [0.0, 0.0, 3.0])
        w.integrate(20)
        w.set_contact_solver_param(1.0, 1.0, 1.0, 40, 0.0)
        w.integrate()
        return velocities([a, b]), w.get_contact_problem()["impulse"]

    (v_c, l_c), (v_g, l_g) = run(True), run(False)
    assert len(l_c) == len(l_g) >= 8
    assert np.abs(v_c - v_g).max() < 1e-12
    assert np.abs(l_c - l_g).max() < 1e-12


def test_compact_kernel_is_bitwise_deterministic():
    def run():
        w, boxes = pile_world()
        w.integrate(400)
        return boxes_state(boxes)

    assert np.array_equal(run(), run())


def test_compact_kernel_setting_is_in_the_parameters_and_the_checkpoint():
    w, _ = pile_world(compact=False)
    assert w.get_contact_solver_params()["compact_kernel"] is False
    cp = w.capture_checkpoint()
    w.set_contact_solver_compact_kernel(True)
    assert w.get_contact_solver_params()["compact_kernel"] is True
    w.restore_checkpoint(cp)
    assert w.get_contact_solver_params()["compact_kernel"] is False


@pytest.mark.parametrize("compact", [True, False])
def test_both_kernels_hold_a_resting_box(compact):
    w = torsion.World()
    w.set_time_step(1e-3)
    w.add_ground(0.0)
    w.set_erp(0.2, 0.0)
    w.set_contact_solver_compact_kernel(compact)
    b = w.add_box(0.1, 0.1, 0.1, 1.0)
    b.set_position([0.0, 0.0, 0.05])
    w.integrate(500)
    assert abs(b.get_position()[2] - 0.05) < 1e-4
    assert np.abs(b.get_linear_velocity()).max() < 1e-6


def test_switching_the_kernel_between_the_two_halves_of_a_step():
    # With the kernel on, rigid contacts are built without the generic Jacobian blocks (their
    # Delassus blocks come from the lever arms), so they must still go through the kernel if it
    # is switched off before integrate2(): the step equals one with the kernel on throughout.
    # Built with the blocks and switched on, the step equals the compact one up to rounding.
    w, boxes = pile_world(count=20)
    w.integrate(800)
    w.set_contact_solver_param(1.0, 1.0, 1.0, 60, 0.0)  # exactly 60 full sweeps
    cp = w.capture_checkpoint()

    def step(build, solve):
        w.restore_checkpoint(cp)
        w.set_contact_solver_compact_kernel(build)
        w.integrate1()
        w.set_contact_solver_compact_kernel(solve)
        w.integrate2()
        d = w.get_contact_solver_diagnostics()
        return boxes_state(boxes), velocities(boxes), d

    s_on, v_on, d_on = step(True, True)
    s_off_mid, _, d_off_mid = step(True, False)
    assert d_on["contacts"] > 20 and d_on["iterations"] == 60
    assert np.abs(v_on).max() > 0.1  # the pile is moving
    assert np.array_equal(s_on, s_off_mid)
    assert (d_on["sticking"], d_on["sliding"], d_on["opening"]) == \
        (d_off_mid["sticking"], d_off_mid["sliding"], d_off_mid["opening"])
    _, v_on_mid, _ = step(False, True)
    _, v_off, _ = step(False, False)
    assert np.abs(v_on_mid - v_on).max() < 1e-12
    assert np.abs(v_off - v_on).max() < 1e-12
