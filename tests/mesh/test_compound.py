"""Compounds: exact combined mass properties (parallel-axis theorem), the same motion as the
equivalent single shape, per-child contacts, materials and rays."""

import numpy as np
import pytest

import torsion
from torsion import CompoundObjectChild as Child, ObjectType

G = 9.81


def box_inertia(m, size):
    l2 = np.asarray(size, float) ** 2
    return np.diag(m / 12 * np.array([l2[1] + l2[2], l2[0] + l2[2], l2[0] + l2[1]]))


def test_two_boxes_combine_exactly():
    w = torsion.World()
    # a 1x1x1 box at the origin and a 2x1x1 box beside it: together a 3x1x1 box
    c = w.add_compound([Child(ObjectType.BOX, [1, 1, 1]), Child(ObjectType.BOX, [2, 1, 1], position=[1.5, 0, 0])], 3.0)
    assert isinstance(c, torsion.Compound) and c.get_object_type() == ObjectType.COMPOUND
    np.testing.assert_allclose(c.get_inertia_matrix_b(), box_inertia(3.0, [3, 1, 1]), atol=1e-14)
    # children are stored relative to the centre of mass (x = 1.0)
    np.testing.assert_allclose(c.get_child_position(0), [-1.0, 0, 0])
    np.testing.assert_allclose(c.get_child_position(1), [0.5, 0, 0])
    # rotated children: R I R^T plus the parallel-axis term
    q = [np.cos(0.25), 0, 0, np.sin(0.25)]  # 0.5 rad about z
    c2 = w.add_compound([Child(ObjectType.CYLINDER, [0.2, 1.0], position=[0, 0.5, 0], orientation=q),
                         Child(ObjectType.SPHERE, [0.3], position=[0, -0.5, 0])], 2.0)
    v1, v2 = np.pi * 0.04 * 1.0, 4 / 3 * np.pi * 0.027
    m1, m2 = 2.0 * v1 / (v1 + v2), 2.0 * v2 / (v1 + v2)
    com = (m1 * np.array([0, 0.5, 0]) + m2 * np.array([0, -0.5, 0])) / 2.0
    r = np.array([[np.cos(0.5), -np.sin(0.5), 0], [np.sin(0.5), np.cos(0.5), 0], [0, 0, 1]])
    i1 = np.diag([m1 * (3 * 0.04 + 1) / 12] * 2 + [0.5 * m1 * 0.04])
    i2 = np.eye(3) * 0.4 * m2 * 0.09

    def shift(m, d):
        return m * (d @ d * np.eye(3) - np.outer(d, d))

    expected = r @ i1 @ r.T + shift(m1, np.array([0, 0.5, 0]) - com) + i2 + shift(m2, np.array([0, -0.5, 0]) - com)
    np.testing.assert_allclose(c2.get_inertia_matrix_b(), expected, atol=1e-14)
    # given com and inertia are used as they are
    c3 = w.add_compound([Child(ObjectType.SPHERE, [0.1])], 1.0, com=[0.1, 0, 0], inertia=np.eye(3) * 0.5)
    np.testing.assert_array_equal(c3.get_inertia_matrix_b(), np.eye(3) * 0.5)
    np.testing.assert_allclose(c3.get_child_position(0), [-0.1, 0, 0])


def slide(kind, mats=("box", "box"), mu=None):
    w = torsion.World()
    w.add_ground(0.0, "ground")
    for name, value in (mu or {"box": 0.5}).items():
        w.set_material_pair_prop("ground", name, value, 0.0, 0.0)
    if kind == "box":
        b = w.add_box(2.0, 1.0, 0.5, 2.0, mats[0])
    else:
        b = w.add_compound([Child(ObjectType.BOX, [1, 1, 0.5], position=[-0.5, 0, 0], material=mats[0]),
                            Child(ObjectType.BOX, [1, 1, 0.5], position=[0.5, 0, 0], material=mats[1])], 2.0)
    b.set_position([0, 0, 0.26])
    w.integrate(500)
    rest = b.get_position()[2]
    contacts = b.get_contacts()
    b.set_velocity([3.0, 0, 0], [0, 0, 0])
    w.integrate(10)
    va = b.get_linear_velocity()[0]
    w.integrate(200)
    return rest, contacts, (va - b.get_linear_velocity()[0]) / 0.2


def test_compound_rests_and_slides_like_the_equivalent_box():
    zb, cb, db = slide("box")
    zc, cc, dc = slide("compound")
    assert zc == pytest.approx(zb, abs=1e-6)
    assert dc == pytest.approx(0.5 * G, rel=0.01) and db == pytest.approx(0.5 * G, rel=0.01)
    # contacts carry the child index as the local index: 4 corners per child
    assert len(cb) == 4
    assert sorted(cc["local_body_index"]) == [0] * 4 + [1] * 4


def test_children_keep_their_own_materials():
    mu = {"ice": 0.2, "rubber": 0.8}
    _, _, d_ice = slide("compound", ("ice", "ice"), mu)
    _, _, d_mixed = slide("compound", ("ice", "rubber"), mu)
    assert d_ice == pytest.approx(0.2 * G, rel=0.01)
    assert 0.4 * G < d_mixed < 0.6 * G  # half the weight on each (up to the pitching moment)
    w = torsion.World()
    c = w.add_compound([Child(ObjectType.SPHERE, [0.1], material="a"), Child(ObjectType.SPHERE, [0.1], [0.3, 0, 0], material="b")], 1.0)
    w.set_object_material(c, "steel", 1)
    assert (c.get_child_material(0), c.get_child_material(1)) == ("a", "steel")
    with pytest.raises(IndexError, match=r"local indices are \[0, 2\)"):
        w.set_object_material(c, "steel", 2)


def test_compound_falls_like_a_free_body_and_rays_see_each_child():
    w = torsion.World()
    c = w.add_compound([Child(ObjectType.BOX, [0.2, 0.2, 0.2], position=[-0.5, 0, 0]),
                        Child(ObjectType.CAPSULE, [0.1, 0.3], position=[0.5, 0, 0])], 1.0)
    c.set_position([0, 0, 5.0])
    w.integrate(100)
    n = 100
    assert c.get_position()[2] == pytest.approx(5.0 - G * 1e-6 * n * (n + 1) / 2, abs=1e-12)
    x_box, x_cap = c.get_position()[0] + c.get_child_position(0)[0], c.get_position()[0] + c.get_child_position(1)[0]
    assert x_cap - x_box == pytest.approx(1.0)
    hits = w.ray_test([x_cap, 0, 10], [0, 0, -1], 20.0)
    assert len(hits) == 1 and hits[0].local_index == 1
    # the capsule's top: com z + half height + radius
    assert hits[0].position[2] == pytest.approx(c.get_position()[2] + c.get_child_position(1)[2] + 0.25)
    hits = w.ray_test([x_box + 0.05, 0, 10], [0, 0, -1], 20.0)
    assert len(hits) == 1 and hits[0].local_index == 0


def test_bad_compounds():
    w = torsion.World()
    with pytest.raises(ValueError, match="children must not be empty"):
        w.add_compound([], 1.0)
    with pytest.raises(ValueError, match="mass must be finite and > 0"):
        w.add_compound([Child(ObjectType.SPHERE, [0.1])], 0.0)
    with pytest.raises(ValueError, match="object_param must be finite and > 0"):
        Child(ObjectType.BOX, [1, -1, 1])
    with pytest.raises(ValueError, match="at least 3 numbers"):
        Child(ObjectType.BOX, [1, 1])
    with pytest.raises(ValueError, match="SPHERE, BOX, CYLINDER or CAPSULE"):
        Child(ObjectType.GROUND, [1])
    with pytest.raises(ValueError, match="position must be finite"):
        Child(ObjectType.SPHERE, [1], position=[0, np.nan, 0])
    with pytest.raises(ValueError, match="non-zero norm"):
        Child(ObjectType.SPHERE, [1], orientation=[0, 0, 0, 0])
    with pytest.raises(ValueError, match="both com and inertia"):
        w.add_compound([Child(ObjectType.SPHERE, [0.1])], 1.0, com=[0, 0, 0])
    with pytest.raises(ValueError, match="positive definite"):
        w.add_compound([Child(ObjectType.SPHERE, [0.1])], 1.0, com=[0, 0, 0], inertia=np.zeros((3, 3)))


def test_get_child_returns_each_child_as_a_compound_object_child():
    """Compound.get_child(k): the child's shape, size and material as given, its pose relative to
    the centre of mass (the given pose shifted by the com, as get_child_position)."""
    w = torsion.World()
    C = torsion.CompoundObjectChild
    q = [np.cos(0.3), 0.0, np.sin(0.3), 0.0]
    given = [C(torsion.ObjectType.SPHERE, [0.1], [0.0, 0.0, 0.2], material="rubber"),
             C(torsion.ObjectType.BOX, [0.1, 0.2, 0.3], [0.3, 0.0, 0.0], q),
             C(torsion.ObjectType.CYLINDER, [0.05, 0.4], [0.0, 0.2, 0.0]),
             C(torsion.ObjectType.CAPSULE, [0.04, 0.1], [-0.2, 0.0, 0.0])]
    comp = w.add_compound(given, 2.0)
    assert comp.get_child_count() == 4
    shift = comp.get_child_position(0) - given[0].position
    for k, g in enumerate(given):
        c = comp.get_child(k)
        assert c.object_type == g.object_type and c.material == g.material
        assert np.array_equal(c.object_param, g.object_param)
        assert np.allclose(c.position, g.position + shift, atol=1e-15)
        assert np.array_equal(c.position, comp.get_child_position(k))
        assert np.allclose(c.rotation, g.rotation, atol=1e-15)
    # a child rebuilt from what get_child returns makes the same body
    again = w.add_compound([comp.get_child(k) for k in range(4)], 2.0)
    assert np.allclose(again.get_inertia_matrix_b(), comp.get_inertia_matrix_b(), atol=1e-15)
    with pytest.raises(IndexError, match="child index"):
        comp.get_child(4)
