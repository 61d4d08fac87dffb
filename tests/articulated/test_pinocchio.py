"""Exact rigid-body dynamics and kinematics of every bundled robot against Pinocchio.

At random states: M(q), h(q, v) and, for every frame, position, orientation and both Jacobians
agree with Pinocchio to a relative 1e-9 (conventions mapped explicitly in conftest.py)."""

from __future__ import annotations

import numpy as np
import pinocchio as pin  # PyPI `pin`, part of the test extra
import pytest

import torsion

from .conftest import check_frame, close

ROBOTS = ["quadruped", "arm7", "humanoid", "slider"]


def random_state(oracle, system, rng):
    gc = np.zeros(system.get_generalized_coordinate_dim())
    for kind, i, _, _, _ in oracle.slices:
        if kind == "floating":
            gc[i:i + 3] = rng.uniform(-2, 2, 3)
            q = rng.normal(size=4)
            gc[i + 3:i + 7] = q / np.linalg.norm(q)
        elif kind == "spherical":
            q = rng.normal(size=4)
            gc[i:i + 4] = q / np.linalg.norm(q)
        elif kind == "prismatic":
            gc[i] = rng.uniform(-0.5, 0.5)
        else:
            gc[i] = rng.uniform(-np.pi, np.pi)
    gv = rng.normal(scale=2.0, size=system.get_dof())
    return gc, gv


def load(name, oracle_cls):
    world = torsion.World()
    system = world.add_articulated_system(torsion.robots.urdf_path(name))
    oracle = oracle_cls(torsion.robots.urdf_path(name)).bind(system)
    return world, system, oracle


@pytest.mark.parametrize("name", ROBOTS)
def test_mass_matrix_and_nonlinear_terms(name, oracle):
    _, system, orc = load(name, oracle)
    rng = np.random.default_rng(1)
    for _ in range(5):
        gc, gv = random_state(orc, system, rng)
        system.set_state(gc, gv)
        m = system.get_mass_matrix()
        close(m, orc.mass_matrix(gc), f"{name} M")
        assert np.array_equal(m, m.T)
        for g in ([0, 0, -9.81], [1.0, -2.0, 3.0]):
            close(system.get_nonlinearities(g), orc.nonlinear(gc, gv, g), f"{name} h, g={g}")


@pytest.mark.parametrize("name", ROBOTS)
def test_frames_and_jacobians(name, oracle):
    _, system, orc = load(name, oracle)
    rng = np.random.default_rng(2)
    names = system.get_frame_names()
    for _ in range(3):
        gc, gv = random_state(orc, system, rng)
        system.set_state(gc, gv)
        ref = orc.frames(gc)
        assert sorted(names) == sorted(ref)
        for f in names:
            check_frame(system, f, ref[f], gv, name)


def test_oracle_matches_pinocchio_urdf_reader(oracle):
    """The hand-built Pinocchio model equals Pinocchio's own URDF reader on the arm (revolute
    joints with limits, which urdfdom maps to 1-coordinate joints)."""
    path = torsion.robots.urdf_path("arm7")
    ref = pin.buildModelFromUrdf(path)
    ours = oracle(path).model
    rng = np.random.default_rng(3)
    for _ in range(3):
        q = rng.uniform(-2, 2, ref.nq)
        v = rng.normal(size=ref.nv)
        a, b = ref.createData(), ours.createData()
        close(pin.crba(ours, b, q), pin.crba(ref, a, q), "oracle M")
        close(pin.rnea(ours, b, q, v, v), pin.rnea(ref, a, q, v, v), "oracle rnea")


@pytest.mark.parametrize("name", ROBOTS)
def test_rnea_and_forward_dynamics_invert_each_other(name, oracle):
    _, system, orc = load(name, oracle)
    rng = np.random.default_rng(4)
    g = [0.0, 0.0, -9.81]
    for _ in range(3):
        gc, gv = random_state(orc, system, rng)
        system.set_state(gc, gv)
        acc = rng.normal(size=system.get_dof())
        tau = system.compute_inverse_dynamics(acc, g)
        close(system.compute_forward_dynamics(tau, g), acc, f"{name} FD(ID(a))")
        m, h = orc.mass_matrix(gc), orc.nonlinear(gc, gv, g)
        close(tau, m @ acc + h, f"{name} ID vs M a + h")
        close(system.get_inverse_mass_matrix() @ m, np.eye(system.get_dof()), f"{name} M^-1 M")


@pytest.mark.parametrize("name", ROBOTS)
def test_model_summary_matches_urdf(name, oracle):
    _, system, orc = load(name, oracle)
    total = sum(inert.mass for inert in orc.model.inertias)
    assert system.get_total_mass() == pytest.approx(total, rel=1e-12)
    assert system.get_masses().sum() == pytest.approx(total, rel=1e-12)
    assert len(system.get_body_names()) == len(system.get_masses())
