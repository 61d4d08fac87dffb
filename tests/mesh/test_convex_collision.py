"""Convex meshes in the narrow phase: signed distance and normal against a brute-force reference
(the support-function gap maximised over directions), and the manifolds of resting contacts."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy.optimize import minimize
from scipy.spatial.transform import Rotation

import torsion
from torsion import Shape, collide

I = (1.0, 0.0, 0.0, 0.0)
FAR = torsion.ContactSettings(margin=50.0)


def fibonacci_sphere(n):
    k = np.arange(n) + 0.5
    phi = np.arccos(1 - 2 * k / n)
    theta = np.pi * (1 + 5**0.5) * k
    return np.stack([np.cos(theta) * np.sin(phi), np.sin(theta) * np.sin(phi), np.cos(phi)], 1)


DIRS = fibonacci_sphere(6000)


def reference_signed_distance(lo_a, hi_b):
    """max over unit d of (min over A of d.a - max over B of d.b): the distance between convex
    sets when apart, minus the penetration depth when overlapping (separating-axis duality).
    lo_a(d), hi_b(d) are vectorised over rows of d. Dense sampling, then local polishing."""

    def gap(d):
        return lo_a(d) - hi_b(d)

    g = gap(DIRS)
    best = -np.inf
    for i in np.argsort(g)[-16:]:
        def f(x):
            d = np.array([np.sin(x[0]) * np.cos(x[1]), np.sin(x[0]) * np.sin(x[1]), np.cos(x[0])])
            return -gap(d[None])[0]

        d0 = DIRS[i]
        x0 = [np.arccos(np.clip(d0[2], -1, 1)), np.arctan2(d0[1], d0[0])]
        r = minimize(f, x0, method="Nelder-Mead", options={"xatol": 1e-10, "fatol": 1e-12, "maxiter": 4000})
        best = max(best, -r.fun, g[i])
    return best


def hull_support(points):
    return lambda d, s=1.0: s * (d @ points.T).max(axis=1) if s > 0 else -(d @ points.T).max(axis=1)


def points_min(points):
    return lambda d: (d @ points.T).min(axis=1)


def points_max(points):
    return lambda d: (d @ points.T).max(axis=1)


def random_hull_points(rng, n, scale):
    return rng.normal(size=(n, 3)) * scale


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), kind=st.sampled_from(["hull", "sphere", "box", "capsule"]),
       offset=st.floats(0.0, 1.6))
def test_signed_distance_against_brute_force(seed, kind, offset):
    rng = np.random.default_rng(seed)
    pa = random_hull_points(rng, int(rng.integers(8, 30)), rng.uniform(0.2, 0.5, size=3))
    ra = Rotation.random(random_state=rng)
    qa = np.roll(ra.as_quat(), 1)  # (w, x, y, z)
    xa = rng.normal(size=3)
    xa *= offset / np.linalg.norm(xa)
    a_world = pa @ ra.as_matrix().T + xa
    sa = Shape.convex_mesh(pa)
    rb = Rotation.random(random_state=rng)
    qb = np.roll(rb.as_quat(), 1)
    xb = np.zeros(3)
    if kind == "hull":
        pb = random_hull_points(rng, int(rng.integers(8, 30)), rng.uniform(0.2, 0.5, size=3))
        sb = Shape.convex_mesh(pb)
        hi_b = points_max(pb @ rb.as_matrix().T)
    elif kind == "sphere":
        r = rng.uniform(0.1, 0.5)
        sb = Shape.sphere(r)
        hi_b = lambda d: np.zeros(len(d)) + r
    elif kind == "box":
        size = rng.uniform(0.1, 0.8, size=3)
        sb = Shape.box(*size)
        corners = np.array(list(itertools.product((-0.5, 0.5), repeat=3))) * size
        hi_b = points_max(corners @ rb.as_matrix().T)
    else:
        r, h = rng.uniform(0.05, 0.3), rng.uniform(0.1, 0.6)
        sb = Shape.capsule(r, h)
        ends = np.array([[0, 0, -h / 2], [0, 0, h / 2]]) @ rb.as_matrix().T
        hi_b = lambda d: (d @ ends.T).max(axis=1) + r
    ref = reference_signed_distance(points_min(a_world), hi_b)
    c = collide(sa, xa, qa, sb, xb, qb, FAR)
    assert len(c) >= 1
    depth = c["depth"].max()
    assert -depth == pytest.approx(ref, abs=2e-6)
    # the reported normal (B to A) achieves the optimal gap
    n = c["normal"][np.argmax(c["depth"])]
    assert np.linalg.norm(n) == pytest.approx(1.0)
    gap_n = points_min(a_world)(n[None])[0] - hi_b(n[None])[0]
    assert gap_n == pytest.approx(ref, abs=2e-6)
    # and the pair is symmetric
    c2 = collide(sb, xb, qb, sa, xa, qa, FAR)
    assert c2["depth"].max() == pytest.approx(depth, abs=2e-6)


CUBE = np.array(list(itertools.product((-0.5, 0.5), repeat=3)))


def test_cube_hull_on_ground_and_on_box_has_four_corner_points():
    cube = Shape.convex_mesh(CUBE)
    c = collide(cube, (0.3, 0.2, 0.49), I, Shape.ground(), (0, 0, 0), I)
    assert len(c) == 4
    np.testing.assert_allclose(c["depth"], 0.01, atol=1e-12)
    np.testing.assert_allclose(c["normal"], np.tile([0, 0, 1.0], (4, 1)))
    xy = sorted(map(tuple, np.round(c["position"][:, :2], 9)))
    assert xy == sorted(map(tuple, np.round(CUBE[CUBE[:, 2] < 0, :2] + [0.3, 0.2], 9)))
    # on a larger box: a face contact clipped to the cube's face
    c = collide(cube, (0.1, 0.0, 0.99), I, Shape.box(2, 2, 1), (0, 0, 0), I)
    assert len(c) == 4
    np.testing.assert_allclose(c["depth"], 0.01, atol=1e-9)
    np.testing.assert_allclose(c["normal"], np.tile([0, 0, 1.0], (4, 1)), atol=1e-9)
    # on another cube hull, offset: the overlap of the two faces
    c = collide(cube, (0.5, 0.0, 0.99), I, cube, (0, 0, 0), I)
    assert len(c) == 4
    np.testing.assert_allclose(np.sort(c["position"][:, 0]), [0, 0, 0.5, 0.5], atol=1e-9)


def test_tessellated_face_on_ground_keeps_the_outline():
    # a cylinder-like hull with 40 rim points per cap resting on its cap
    ang = np.linspace(0, 2 * np.pi, 40, endpoint=False)
    rim = np.stack([np.cos(ang), np.sin(ang), np.zeros_like(ang)], 1) * 0.5
    pts = np.vstack([rim + [0, 0, -0.25], rim + [0, 0, 0.25]])
    c = collide(Shape.convex_mesh(pts), (0, 0, 0.249), I, Shape.ground(), (0, 0, 0), I,
                torsion.ContactSettings(max_points_per_pair=8))
    assert len(c) == 8
    r = np.linalg.norm(c["position"][:, :2], axis=1)
    np.testing.assert_allclose(r, 0.5, atol=1e-12)  # rim points only: the outline


# two hulls of the 100-mesh pile (benchmarks/bench_mesh.py) 0.33 mm apart, posed exactly as in the
# pile after 1100 steps: GJK ended on a degenerate simplex and EPA reported 10.7 mm of penetration
PILE_PAIR = {"a": {"v": [[-0.018872418980934468, 0.03859774826769785, -0.013454020717285981], [0.004506198781851744, -0.031822631366131046, -0.0002189743365146983], [0.0017162479961155808, -0.023597518092451253, -0.060818187926857156], [-0.002122619477798829, 0.05880847822503395, -0.008088491374615852], [0.00740277691254926, -0.031869230412175625, 0.030017650521034604], [0.03192258500796154, 0.03823464353811866, -0.005899899640214137], [0.0003551775802775126, -0.03150732309648501, 0.016130719593914326], [-0.05225613844617805, 0.0023628815728611993, -0.011562477048895849], [0.045836808594527136, 0.01859574254768221, -0.0176205729771869], [-0.05253074877888267, -0.02694716085207613, 0.017432473301620715], [-0.04252309207332496, 0.028968403501009946, 0.011130066255355876], [-0.009211826325452213, 0.013432250198950644, -0.035994281582199146], [0.073027803199649, -0.012658517956142465, 0.00605891108836193], [-0.011714993783972696, -0.014866042793058833, 0.06187188393402319]], "p": [0.16880136030922444, 0.32382054630523444, 0.05773893335651767], "q": [0.7289615372676211, -0.4824763814557017, -0.29156079950128727, 0.38836055247155205]}, "b": {"v": [[0.04346843042299923, 0.009291678549269173, -0.003177882598682574], [0.03377760514445712, 0.01661795500075541, 0.009281335013892009], [-0.011935129272130869, 0.0424914751137059, 0.020966185353621093], [-0.032799066186875565, -0.03440623942961269, -0.007840265432562141], [-0.011658401996347977, -0.03850481451496451, 0.024836671446435674], [0.00011544661419568602, 0.0358237665758547, -0.0048508081560441375], [0.008696397023150615, 0.03289745538111902, 0.01361861501835167], [0.024003041626028978, -0.007405771832216735, 0.019889619670770825], [-0.0049214860446564965, 0.026380233798537506, -0.026967799749505895], [-0.02344848772105172, 0.030613400756453142, -0.005646920052297197], [0.030765393930996147, -0.024237609161364033, -0.004445891829632718], [0.0054752794775176205, 0.0006994216188760632, -0.021653339883304524], [-0.02572928306487125, 0.01224174170902221, -0.02767862841765801], [0.013159710001737476, -0.03022802919904342, -0.01512342318731277]], "p": [0.2456480671702015, 0.3094735512012574, 0.028778658307602865], "q": [-0.37881527156353056, -0.1592309272260245, -0.3227211707163634, 0.8526403390741311]}}


def test_separated_pile_pair_is_not_reported_as_penetrating():
    a, b = PILE_PAIR["a"], PILE_PAIR["b"]
    va, vb = np.array(a["v"]), np.array(b["v"])
    c = collide(Shape.convex_mesh(va), a["p"], a["q"], Shape.convex_mesh(vb), b["p"], b["q"], FAR)
    wa = Rotation.from_quat(np.roll(a["q"], -1)).apply(va) + a["p"]
    wb = Rotation.from_quat(np.roll(b["q"], -1)).apply(vb) + b["p"]
    ref = reference_signed_distance(points_min(wa), points_max(wb))
    assert ref == pytest.approx(3.309e-4, abs=1e-6)
    assert -c["depth"].max() == pytest.approx(ref, abs=2e-6)
