"""The World's one list of collision shapes (cpp/world/collision_shapes.hpp), seen through the
ray scene (get_ray_cast_bodies), the contacts and the materials: it follows every add and
remove in world-index order, and a robot whose model is replaced (a new fixed-base placement)
is seen at its new place."""

import numpy as np
import pytest

import torsion
from torsion._core import CompoundObjectChild, ObjectType

ARM = torsion.robots.urdf_path("arm7")


def add_object(w, kind, k):
    """One object of each kind, placed apart by its number k."""
    x = 1.5 * k
    if kind == "sphere":
        o = w.add_sphere(0.1 + 0.01 * k, 1.0)
    elif kind == "box":
        o = w.add_box(0.2, 0.3, 0.1 + 0.01 * k, 1.0, material="steel")
    elif kind == "capsule":
        o = w.add_capsule(0.05, 0.2, 1.0, collision_group=2, collision_mask=3)
    elif kind == "compound":
        o = w.add_compound([
            CompoundObjectChild(ObjectType.BOX, [0.2, 0.1, 0.1]),
            CompoundObjectChild(ObjectType.SPHERE, [0.06], position=[0.12, 0, 0], material="ball"),
            CompoundObjectChild(ObjectType.CYLINDER, [0.04, 0.08], position=[-0.1, 0, 0.05]),
        ], 1.5)
    elif kind == "ground":
        return w.add_ground(0.0)
    elif kind == "robot":
        # mounted by set_base_position: the robot gets its own copy of the model
        o = w.add_articulated_system(ARM)
        o.set_base_position([x, 0.0, -0.2])
        return o
    else:
        raise AssertionError(kind)
    o.set_position([x, 0.0, 0.3])
    return o


def ray_bodies(w):
    """The ray scene's bodies without the object ids (which differ between two worlds)."""
    out = []
    for b in w.get_ray_cast_bodies():
        out.append((b["shape"], b["object_index"], b["local_index"], b["collision_group"],
                    b["collision_mask"], tuple(np.asarray(b["position"]).ravel()),
                    tuple(np.asarray(b["rotation"]).ravel())))
    return out


KINDS = ["sphere", "box", "robot", "compound", "ground", "capsule", "robot", "compound", "sphere"]


@pytest.mark.parametrize("removals", [[0], [8], [2, 0], [3, 3, 3], [6, 1, 4, 0], list(range(9))])
def test_the_list_follows_removals_in_world_index_order(removals):
    # remove objects from a world (swap-with-last), then build a second world that adds the
    # survivors directly in their final world order: both must show the same shapes, in the same
    # order, with the same indices, poses and filters
    w = torsion.World()
    for k, kind in enumerate(KINDS):
        add_object(w, kind, k)
    tags = list(range(len(KINDS)))  # tags[i]: which KINDS entry sits at world index i
    for r in removals:
        if r >= len(tags):
            r = len(tags) - 1
        w.remove_object(w.get_object(r))
        tags[r] = tags[-1]  # swap-with-last: the last object takes the removed one's index
        tags.pop()
    ref = torsion.World()
    for k in tags:
        add_object(ref, KINDS[k], k)
    assert ray_bodies(w) == ray_bodies(ref)
    # and the step gathers them alike: the same contacts in the same order
    w.integrate(300)
    ref.integrate(300)
    a, b = w.get_contact_problem(), ref.get_contact_problem()
    assert len(a) == len(b)
    assert len(a) > 0 or "ground" not in [KINDS[k] for k in tags]
    for field in ("position", "normal", "depth", "impulse", "object_a_index", "object_b_index",
                  "local_a", "local_b", "feature"):
        np.testing.assert_array_equal(a[field], b[field], err_msg=field)


def test_shape_counts_per_object_kind():
    w = torsion.World()
    add_object(w, "compound", 0)
    robot = add_object(w, "robot", 1)
    add_object(w, "sphere", 2)
    bodies = w.get_ray_cast_bodies()
    per_object = {}
    for b in bodies:
        per_object.setdefault(b["object_index"], []).append(b["local_index"])
    assert per_object[0] == [0, 1, 2]  # a compound: one per child, local index = child index
    assert per_object[2] == [0]
    # a robot: one per link collision shape, local index = the link's body index
    links = per_object[1]
    assert len(links) >= 5 and all(0 <= i < len(robot.get_body_names()) for i in links)
    assert links == sorted(links)


def test_a_remounted_fixed_base_is_seen_by_rays_and_collisions():
    # set_base_position gives the robot a new model; the world's entries of its shapes must point
    # into it (rays and collision at the new mounting, nothing left of the old)
    w = torsion.World()
    arm = w.add_articulated_system(ARM)
    before = ray_bodies(w)
    arm.set_base_position([3.0, 0.0, 0.0])
    after = ray_bodies(w)
    assert len(after) == len(before)
    for a, b in zip(before, after):
        assert a[:5] == b[:5]
        np.testing.assert_allclose(np.array(b[5]) - np.array(a[5]), [3.0, 0.0, 0.0], atol=1e-12)
    # the arm's base link is hit where it now stands, not where it stood
    (hit,) = w.ray_test([3.0, 0.0, 5.0], [0.0, 0.0, -1.0], 10.0)
    assert hit.object_index == 0
    assert w.ray_test([0.0, 0.0, 5.0], [0.0, 0.0, -1.0], 10.0) == []
    # a box sent down onto where the arm now stands meets it there (no gravity: the arm stays)
    w.set_gravity([0.0, 0.0, 0.0])
    box = w.add_box(0.1, 0.1, 0.1, 1.0)
    box.set_position([3.0, 0.0, hit.position[2] + 0.3])
    box.set_velocity([0.0, 0.0, -1.0], [0.0, 0.0, 0.0])
    touched = False
    for _ in range(600):
        w.integrate()
        cp = w.get_contact_problem()
        touched |= any({int(a), int(b)} == {0, 1}
                       for a, b in zip(cp["object_a_index"], cp["object_b_index"]))
    assert touched
    assert box.get_position()[2] > hit.position[2]  # stopped on top, not passed through


def test_materials_of_children_follow_the_list_after_removals():
    # child 1 of a compound (a flat box under a small sphere) has material "ball"; after a
    # removal moves the compound to another world index, its contacts still take the pair
    # ("floor", "ball")'s friction: mu 0.05 against the default 0.8
    def slide(material):
        w = torsion.World()
        w.add_ground(material="floor")
        w.set_material_pair_prop("floor", "ball", 0.05, 0.0, 0.0)
        filler = [w.add_sphere(0.1, 1.0) for _ in range(3)]
        for k, f in enumerate(filler):
            f.set_position([5.0 + k, 5.0, 0.1])
        c = w.add_compound([
            CompoundObjectChild(ObjectType.SPHERE, [0.05], position=[0, 0, 0.1]),
            CompoundObjectChild(ObjectType.BOX, [0.4, 0.4, 0.1], material=material),
        ], 1.0)
        c.set_position([0.0, 0.0, 0.1])
        w.remove_object(filler[0])  # the compound moves to world index 1
        assert c.get_index_in_world() == 1
        w.integrate(300)  # settled on the box
        x0 = c.get_position()[0]
        c.set_velocity([1.0, 0.0, 0.0], [0.0, 0.0, 0.0])
        w.integrate(300)
        return c.get_position()[0] - x0

    # v^2 / (2 mu g): 1.02 m at mu 0.05 (still sliding after 0.3 s: 0.3 - 0.5 mu g 0.09 = 0.278),
    # 0.064 m at mu 0.8
    assert slide("ball") == pytest.approx(1.0 * 0.3 - 0.5 * 0.05 * 9.81 * 0.3**2, abs=5e-3)
    assert slide("default") == pytest.approx(1.0 / (2 * 0.8 * 9.81), abs=5e-3)
