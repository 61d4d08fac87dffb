"""The per-contact law (torsion._core.contact.solve_single_contact) against the exact Coulomb
conditions: opening, sticking (zero velocity inside the cone), sliding (on the cone surface, zero
normal velocity, slip anti-parallel to the friction impulse = maximal dissipation), and against a
brute-force scan of the cone-plane ellipse."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import optimize

from torsion._core import contact


def skew(r):
    return np.array([[0, -r[2], r[1]], [r[2], 0, -r[0]], [-r[1], r[0], 0]])


def delassus_body(mass, inertia_diag, r, frame):
    """G of one rigid body (COM at the origin) touching a static world at point r: the point's
    velocity change per unit impulse, in the contact frame (rows of `frame`)."""
    inv_i = np.diag(1.0 / np.asarray(inertia_diag))
    w = np.eye(3) / mass + skew(r).T @ inv_i @ skew(r)
    return frame @ w @ frame.T


def random_frame(rng):
    n = rng.normal(size=3)
    n /= np.linalg.norm(n)
    return contact.contact_frame(n)


def brute_force_sliding(G, c, mu, samples=400_000):
    """Scan the ellipse {lam on the cone surface, v_z = 0}: the physical root is where the slip is
    anti-parallel to lam_t. The best sample of the scan is then refined by a bounded scalar search
    over the angle (between its neighbours), so the reference does not depend on how fine the scan
    is where the ellipse is stretched. Returns that lam and its quality (cos of the angle between
    the slip and -lam_t; 1 at the root)."""

    def along(th):
        u = np.stack([np.cos(th), np.sin(th), np.full_like(th, 1.0 / mu)])
        denom = G[2] @ u
        ok = denom > 0
        lam = u[:, ok] * (-c[2] / denom[ok])
        vt = (G @ lam + c[:, None])[:2]
        cosang = -(u[:2, ok] * vt).sum(0) / np.maximum(np.linalg.norm(vt, axis=0), 1e-300)
        return lam, cosang, th[ok]

    lam, cosang, th = along(np.linspace(-math.pi, math.pi, samples, endpoint=False))
    k = np.argmax(cosang)
    step = 2 * math.pi / samples

    def loss(t):
        _, q, _ = along(np.array([t]))
        return -q[0] if len(q) else 2.0

    best = optimize.minimize_scalar(loss, bounds=(th[k] - step, th[k] + step), method="bounded",
                                    options={"xatol": 1e-15})
    if -best.fun > cosang[k]:
        lam_best, q_best, _ = along(np.array([best.x]))
        return lam_best[:, 0], q_best[0]
    return lam[:, k], cosang[k]


def check_coulomb(G, c, mu, lam, mode, tol=1e-7):
    v = G @ lam + c
    scale = max(1.0, np.abs(c).max())
    lam_scale = max(1e-12, np.abs(lam).max())
    if mode == "opening":
        assert np.all(lam == 0.0)
        assert c[2] >= 0.0
    elif mode == "sticking":
        assert np.abs(v).max() < tol * scale
        assert mu * lam[2] >= np.linalg.norm(lam[:2]) - tol * lam_scale
    else:
        assert mode == "sliding"
        # on the cone surface, pushing
        assert lam[2] > 0
        assert abs(np.linalg.norm(lam[:2]) - mu * lam[2]) < tol * lam_scale
        # no normal velocity
        assert abs(v[2]) < tol * scale
        # slip anti-parallel to the friction impulse (maximal dissipation: -v_t . lam_t equals
        # the largest value over the disk |lam_t| <= mu lam_z, which is mu lam_z |v_t|)
        vt = v[:2]
        if np.linalg.norm(vt) > 1e-9 * scale:
            assert -vt @ lam[:2] == pytest.approx(mu * lam[2] * np.linalg.norm(vt), rel=1e-6)


def test_opening_when_separating():
    lam, mode = contact.solve_single_contact(np.eye(3), [0.3, -0.2, 0.1], 0.8)
    assert mode == "opening"
    assert np.all(lam == 0)


def test_sticking_inside_cone_matches_inverse():
    G = np.array([[2.0, 0.1, 0.2], [0.1, 1.5, -0.1], [0.2, -0.1, 3.0]])
    c = np.array([0.1, -0.05, -1.0])
    lam, mode = contact.solve_single_contact(G, c, 0.8)
    assert mode == "sticking"
    np.testing.assert_allclose(lam, -np.linalg.solve(G, c), rtol=1e-12)


def test_sliding_decoupled_closed_form():
    # G = diag(a, a, b): the slip is along c_t, the friction opposes it with mu * lambda_z
    a, b, mu = 2.0, 0.5, 0.3
    c = np.array([3.0, 4.0, -1.0])
    lam, mode = contact.solve_single_contact(np.diag([a, a, b]), c, mu)
    assert mode == "sliding"
    lz = 1.0 / b
    expected = np.array([-0.6 * mu * lz, -0.8 * mu * lz, lz])
    np.testing.assert_allclose(lam, expected, rtol=1e-9, atol=1e-12)


def test_frictionless_pushes_along_normal_only():
    G = np.array([[2.0, 0.3, 0.4], [0.3, 1.0, 0.2], [0.4, 0.2, 1.5]])
    lam, mode = contact.solve_single_contact(G, [1.0, 2.0, -3.0], 0.0)
    assert mode == "sliding"
    np.testing.assert_allclose(lam, [0.0, 0.0, 2.0], rtol=1e-12)


def test_sliding_coupled_matches_brute_force():
    rng = np.random.default_rng(1)
    frame = random_frame(rng)
    G = delassus_body(2.0, [0.02, 0.05, 0.03], np.array([0.1, -0.05, -0.2]), frame)
    c = np.array([1.0, -0.5, -0.4])
    mu = 0.5
    lam, mode = contact.solve_single_contact(G, c, mu)
    assert mode == "sliding"
    check_coulomb(G, c, mu, lam, mode)
    ref, quality = brute_force_sliding(G, c, mu)
    assert quality > 1 - 1e-6
    np.testing.assert_allclose(lam, ref, rtol=2e-4, atol=1e-4 * np.abs(ref).max())


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    mu=st.floats(0.05, 2.0),
    mass=st.floats(0.1, 50.0),
    slip=st.floats(0.0, 10.0),
)
def test_random_body_contacts_satisfy_coulomb(seed, mu, mass, slip):
    rng = np.random.default_rng(seed)
    frame = random_frame(rng)
    inertia = mass * rng.uniform(0.01, 0.2, size=3)
    r = rng.uniform(-0.3, 0.3, size=3)
    G = delassus_body(mass, inertia, r, frame)
    c = np.array([*(slip * rng.normal(size=2)), -rng.uniform(0.01, 5.0)])
    lam, mode = contact.solve_single_contact(G, c, mu)
    assert mode in ("sticking", "sliding")
    check_coulomb(G, c, mu, lam, mode)
    # the solution of a single contact is unique for these G: the sliding one is the brute-force
    # root of the ellipse
    if mode == "sliding":
        ref, quality = brute_force_sliding(G, c, mu, samples=200_000)
        assert quality > 1 - 1e-8
        np.testing.assert_allclose(lam, ref, rtol=1e-3, atol=2e-3 * np.abs(ref).max())


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    mu=st.floats(0.05, 2.0),
    slip=st.floats(0.05, 10.0),
    turn=st.one_of(st.floats(-1e-2, 1e-2), st.floats(-math.pi, math.pi)),
    size=st.floats(1e-3, 1e3),
)
def test_hinted_sliding_finds_the_same_root(seed, mu, slip, turn, size):
    # The solver passes the previous sweep's impulse as a hint: the search starts from its
    # direction (near the root in a pile; anywhere after a collision). Whatever the hint, the
    # result is the Coulomb solution, the unhinted one and the brute-force root.
    rng = np.random.default_rng(seed)
    frame = random_frame(rng)
    mass = rng.uniform(0.1, 50.0)
    G = delassus_body(mass, mass * rng.uniform(0.01, 0.2, size=3), rng.uniform(-0.3, 0.3, 3), frame)
    c = np.array([*(slip * rng.normal(size=2)), -rng.uniform(0.01, 5.0)])
    free, mode = contact.solve_single_contact(G, c, mu)
    if mode != "sliding":
        return
    a = math.atan2(free[1], free[0]) + turn
    hint = size * np.array([math.cos(a), math.sin(a), 1.0])
    lam, mode = contact.solve_single_contact(G, c, mu, hint=hint)
    assert mode == "sliding"
    check_coulomb(G, c, mu, lam, mode)
    scale = np.abs(free).max()
    np.testing.assert_allclose(lam, free, rtol=0, atol=1e-8 * scale)
    ref, quality = brute_force_sliding(G, c, mu, samples=50_000)
    assert quality > 1 - 1e-8
    np.testing.assert_allclose(lam, ref, rtol=1e-3, atol=2e-3 * np.abs(ref).max())


def test_hint_without_tangential_part_or_bad_is_handled():
    G = delassus_body(1.0, [0.01, 0.02, 0.015], np.array([0.03, -0.02, -0.05]), np.eye(3))
    c = np.array([0.7, 0.2, -0.3])
    free, mode = contact.solve_single_contact(G, c, 0.4)
    assert mode == "sliding"
    # a hint along the normal only has no direction: the search starts from -G^-1 c's
    lam, _ = contact.solve_single_contact(G, c, 0.4, hint=[0.0, 0.0, 1.0])
    np.testing.assert_allclose(lam, free, rtol=0, atol=1e-9 * np.abs(free).max())
    with pytest.raises(ValueError, match="hint"):
        contact.solve_single_contact(G, c, 0.4, hint=[0.0, math.nan, 1.0])
    with pytest.raises(ValueError, match="hint"):
        contact.solve_single_contact(G, c, 0.4, hint=[0.0, 1.0])


def test_two_body_contact_satisfies_coulomb():
    # G of two free bodies touching: sum of both sides
    rng = np.random.default_rng(7)
    frame = random_frame(rng)
    G = delassus_body(1.0, [0.01, 0.02, 0.015], np.array([0.0, 0.0, -0.1]), frame)
    G += delassus_body(3.0, [0.1, 0.1, 0.2], np.array([0.05, 0.1, 0.2]), frame)
    for mu in (0.1, 0.5, 1.0):
        for cz in (-0.1, -1.0):
            c = np.array([0.7, 0.2, cz])
            lam, mode = contact.solve_single_contact(G, c, mu)
            check_coulomb(G, c, mu, lam, mode)


@pytest.mark.parametrize(
    "G, c, mu, match",
    [
        (np.eye(2), [0, 0, -1], 0.5, "G"),
        (np.eye(3), [0, -1], 0.5, "c"),
        (np.eye(3), [0, 0, math.nan], 0.5, "c must be finite"),
        (np.eye(3), [0, 0, -1], -0.1, "mu"),
        (np.eye(3), [0, 0, -1], math.inf, "mu"),
        (np.diag([1.0, 1.0, -1.0]), [0, 0, -1], 0.5, "positive definite"),
        (np.array([[1, 0.5, 0], [0, 1, 0], [0, 0, 1.0]]), [0, 0, -1], 0.5, "symmetric"),
    ],
)
def test_bad_input_is_refused(G, c, mu, match):
    with pytest.raises(ValueError, match=match):
        contact.solve_single_contact(G, c, mu)


def test_contact_frame_convention():
    f = contact.contact_frame([0.0, 0.0, 1.0])
    np.testing.assert_allclose(f, np.eye(3))
    n = np.array([0.6, 0.0, 0.8])
    f = contact.contact_frame(n)
    np.testing.assert_allclose(f[2], n)
    np.testing.assert_allclose(f[0], [0.0, -1.0, 0.0], atol=1e-15)
    np.testing.assert_allclose(f @ f.T, np.eye(3), atol=1e-14)
    np.testing.assert_allclose(np.cross(f[2], f[0]), f[1], atol=1e-14)
    # continuous through the vertical: a normal a hair off it (round-off in a stack) keeps the
    # vertical's frame instead of turning x towards its horizontal part
    for sz in (1.0, -1.0):
        f0 = contact.contact_frame([0.0, 0.0, sz])
        np.testing.assert_allclose(f0[0], [1.0, 0.0, 0.0], atol=1e-15)
        for tilt in ([1.7e-11, -6.1e-11], [-3e-12, 0.0], [0.0, 2e-9]):
            n = np.array([tilt[0], tilt[1], sz])
            f = contact.contact_frame(n / np.linalg.norm(n))
            assert np.abs(f - f0).max() < 1e-8
            np.testing.assert_allclose(f @ f.T, np.eye(3), atol=1e-14)
    # and within each branch near the switch (30 degrees from the vertical): orthonormal, right
    # handed
    for h in (0.5 - 1e-9, 0.5, 0.5 + 1e-9):
        n = np.array([h * 0.6, h * 0.8, np.sqrt(1 - h * h)])
        f = contact.contact_frame(n)
        np.testing.assert_allclose(f[2], n)
        np.testing.assert_allclose(f @ f.T, np.eye(3), atol=1e-14)
        np.testing.assert_allclose(np.cross(f[2], f[0]), f[1], atol=1e-14)
    with pytest.raises(ValueError, match="unit"):
        contact.contact_frame([0, 0, 2])
