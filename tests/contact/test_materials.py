"""Materials: every overload of the seed's setMaterialPairProp / setDefaultMaterial, symmetric
lookup, unknown names -> default, validation; solver settings validation."""

import math

import pytest

import torsion


def props(p):
    return (p.friction, p.restitution, p.restitution_threshold, p.static_friction,
            p.static_friction_threshold_velocity, p.rolling_friction, p.spinning_friction)


def test_default_material():
    w = torsion.World()
    assert props(w.get_material_pair_properties("default", "default")) == (0.8, 0.0, 0.0, 0.8,
                                                                          1e-3, 0.0, 0.0)


def test_pair_is_symmetric_and_unknown_names_fall_back():
    w = torsion.World()
    w.set_material_pair_prop("steel", "rubber", 0.9, 0.3, 0.05)
    assert props(w.get_material_pair_properties("rubber", "steel")) == (0.9, 0.3, 0.05, 0.9, 1e-3,
                                                                       0.0, 0.0)
    assert props(w.get_material_pair_properties("steel", "steel"))[0] == 0.8
    assert props(w.get_material_pair_properties("nonexistent", "rubber"))[0] == 0.8
    # unknown names are treated as "default": a pair with "default" applies to them
    w.set_material_pair_prop("default", "ice", 0.05, 0.0, 0.0)
    assert w.get_material_pair_properties("wood", "ice").friction == 0.05
    # setting a pair again replaces it
    w.set_material_pair_prop("rubber", "steel", 1.1, 0.0, 0.0)
    assert w.get_material_pair_properties("steel", "rubber").friction == 1.1


def test_all_overloads():
    w = torsion.World()
    w.set_material_pair_prop("a", "b", 0.5, 0.2, 0.1, 0.7, 0.01)
    assert props(w.get_material_pair_properties("a", "b")) == (0.5, 0.2, 0.1, 0.7, 0.01, 0.0, 0.0)
    w.set_material_pair_prop("a", "c", 0.5, 0.2, 0.1, 0.7, 0.01, 0.02, 0.03)
    assert props(w.get_material_pair_properties("c", "a")) == (0.5, 0.2, 0.1, 0.7, 0.01, 0.02,
                                                               0.03)
    w.set_default_material(0.4, 0.1, 0.2)
    assert props(w.get_material_pair_properties("x", "y")) == (0.4, 0.1, 0.2, 0.4, 1e-3, 0.0, 0.0)
    w.set_default_material(0.4, 0.1, 0.2, 0.6, 0.02)
    assert props(w.get_material_pair_properties("x", "y")) == (0.4, 0.1, 0.2, 0.6, 0.02, 0.0, 0.0)
    w.set_default_material(0.4, 0.1, 0.2, 0.6, 0.02, 0.001, 0.002)
    assert props(w.get_material_pair_properties("x", "y")) == (0.4, 0.1, 0.2, 0.6, 0.02, 0.001,
                                                               0.002)
    # pairs that were set are not affected by the default
    assert w.get_material_pair_properties("a", "b").friction == 0.5


@pytest.mark.parametrize(
    "args, match",
    [
        ((-0.1, 0.0, 0.0), "friction"),
        ((math.nan, 0.0, 0.0), "friction"),
        ((0.5, -0.1, 0.0), "restitution"),
        ((0.5, 1.5, 0.0), "restitution"),
        ((0.5, 0.5, -1.0), "restitution_threshold"),
        ((0.5, 0.5, 0.0, -0.2, 0.01), "static_friction"),
        ((0.5, 0.5, 0.0, 0.6, -0.01), "static_friction_threshold_velocity"),
        ((0.5, 0.5, 0.0, 0.6, 0.01, -1.0, 0.0), "rolling_friction"),
        ((0.5, 0.5, 0.0, 0.6, 0.01, 0.0, math.inf), "spinning_friction"),
    ],
)
def test_bad_materials_are_refused(args, match):
    w = torsion.World()
    with pytest.raises(ValueError, match=match):
        w.set_material_pair_prop("a", "b", *args)
    with pytest.raises(ValueError, match=match):
        w.set_default_material(*args)
    # nothing changed
    assert w.get_material_pair_properties("a", "b").friction == 0.8


def test_the_empty_material_name_is_refused_everywhere():
    # set_object_material, add_mesh and compound children refused '' while add_box, add_ground
    # and set_material_pair_prop took it as a real material: one rule now, a material has a name
    w = torsion.World()
    m = torsion._core.MaterialManager()
    w.add_box(0.2, 0.2, 0.2, 1.0)
    for call in (lambda: w.add_box(0.2, 0.2, 0.2, 1.0, ""), lambda: w.add_sphere(0.1, 1.0, ""),
                 lambda: w.add_cylinder(0.1, 0.2, 1.0, ""), lambda: w.add_capsule(0.1, 0.2, 1.0, ""),
                 lambda: w.add_ground(0.0, ""),
                 lambda: w.add_height_map(2, 2, 1.0, 1.0, 0.0, 0.0, [0.0] * 4, ""),
                 lambda: w.set_object_material(w.get_object(0), "")):
        with pytest.raises(ValueError, match="material must be a non-empty name"):
            call()
        assert w.get_object_count() == 1
    for owner in (w, m):
        with pytest.raises(ValueError, match="mat1 must be a non-empty name"):
            owner.set_material_pair_prop("", "g", 0.0, 0.0, 0.0)
        with pytest.raises(ValueError, match="mat2 must be a non-empty name"):
            owner.set_material_pair_prop("g", "", 0.0, 0.0, 0.0)
    assert w.get_material_pair_properties("", "g").friction == 0.8  # (a lookup: the default)


@pytest.mark.parametrize("owner", ["world", "manager"])
@pytest.mark.parametrize("threshold", [0.0, -0.0])
def test_static_friction_needs_a_positive_threshold_velocity(owner, threshold):
    # at threshold 0 no slip is slow enough for the static coefficient: it was accepted and then
    # silently never acted (a box pushed below mu_s m g slid at the dynamic rate)
    w = torsion.World()
    m = w if owner == "world" else torsion._core.MaterialManager()
    calls = [
        lambda: m.set_material_pair_prop("a", "b", 0.3, 0.0, 0.0, 0.6, threshold),
        lambda: m.set_material_pair_prop("a", "b", 0.3, 0.0, 0.0, 0.6, threshold, 0.0, 0.0),
        lambda: m.set_default_material(0.3, 0.0, 0.0, 0.6, threshold),
        lambda: m.set_default_material(0.3, 0.0, 0.0, 0.6, threshold, 0.0, 0.0),
    ]
    for call in calls:
        with pytest.raises(ValueError, match=r"static_friction_threshold_velocity must be > 0"):
            call()
    assert props(m.get_material_pair_properties("a", "b")) == (0.8, 0.0, 0.0, 0.8, 1e-3, 0.0,
                                                               0.0)
    # equal coefficients have nothing to interpolate: any threshold >= 0 is fine
    m.set_material_pair_prop("a", "b", 0.3, 0.0, 0.0, 0.3, threshold)
    m.set_default_material(0.3, 0.0, 0.0, 0.3, threshold, 0.0, 0.0)
    assert m.get_material_pair_properties("a", "b").static_friction_threshold_velocity == 0.0
    if owner == "manager":
        w.update_material_prop(m)
        assert w.get_material_pair_properties("b", "a").static_friction == 0.3


@pytest.mark.parametrize("element", ["default", "pair"])
def test_world_xml_refuses_static_friction_with_a_zero_threshold(tmp_path, element):
    attrs = 'friction="0.3" static_friction="0.6" static_friction_threshold_velocity="0"'
    tag = f"<default {attrs}/>" if element == "default" else (
        f'<pair material1="a" material2="b" {attrs}/>')
    path = tmp_path / "w.xml"
    path.write_text(f'<torsion version="1"><materials>{tag}</materials></torsion>')
    with pytest.raises(ValueError, match="static_friction_threshold_velocity must be > 0"):
        torsion.World(str(path))
    path.write_text(f'<torsion version="1"><materials>{tag.replace("0.6", "0.3")}</materials>'
                    "</torsion>")
    assert torsion.World(str(path)).get_material_pair_properties("a", "b").friction == 0.3


def test_static_friction_holds_below_its_threshold():
    # 2 kg, mu 0.3, mu_s 0.6: 10 N is under mu_s m g = 11.8 N, so the box stays put
    w = torsion.World()
    w.add_ground(material="g")
    b = w.add_box(0.2, 0.2, 0.2, 2.0, material="m")
    b.set_position([0, 0, 0.1])
    w.set_material_pair_prop("m", "g", 0.3, 0.0, 0.0, 0.6, 1e-3)
    for _ in range(300):
        b.set_external_force([10.0, 0.0, 0.0])
        w.integrate()
    assert abs(b.get_linear_velocity()[0]) < 1e-4


def test_solver_settings():
    w = torsion.World()
    p = w.get_contact_solver_params()
    assert (p["max_iter"], p["threshold"], p["erp"], p["erp2"], p["fixed_order"]) == (150, 1e-8,
                                                                                      0.0, 0.0,
                                                                                      False)
    w.set_contact_solver_param(1.0, 0.9, 0.5, 40, 1e-6)
    w.set_erp(0.2, 0.01)
    w.set_contact_solver_iteration_order(True)
    p = w.get_contact_solver_params()
    assert (p["alpha_min"], p["alpha_decay"], p["max_iter"], p["threshold"]) == (0.9, 0.5, 40, 1e-6)
    assert (p["erp"], p["erp2"], p["fixed_order"]) == (0.2, 0.01, True)


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda w: w.set_contact_solver_param(0.0, 1.0, 1.0, 10, 1e-8), "alpha_init"),
        (lambda w: w.set_contact_solver_param(1.0, 1.5, 1.0, 10, 1e-8), "alpha_min"),
        (lambda w: w.set_contact_solver_param(1.0, 1.0, -0.1, 10, 1e-8), "alpha_decay"),
        (lambda w: w.set_contact_solver_param(1.0, 1.0, 1.0, 0, 1e-8), "max_iter"),
        (lambda w: w.set_contact_solver_param(1.0, 1.0, 1.0, 10, -1.0), "threshold"),
        (lambda w: w.set_contact_solver_param(1.0, 1.0, 1.0, 10, math.nan), "threshold"),
        (lambda w: w.set_erp(-0.1), "erp"),
        (lambda w: w.set_erp(1.5), "erp"),
        (lambda w: w.set_erp(0.2, -1.0), "erp2"),
    ],
)
def test_bad_solver_settings_are_refused(call, match):
    w = torsion.World()
    with pytest.raises(ValueError, match=match):
        call(w)
    assert w.get_contact_solver_params()["max_iter"] == 150


def test_properties_repr_and_export():
    w = torsion.World()
    w.set_material_pair_prop("a", "b", 0.3, 0.5, 0.1)
    p = w.get_material_pair_properties("a", "b")
    assert isinstance(p, torsion.MaterialPairProperties)
    assert repr(p).startswith("MaterialPairProperties(friction=0.3, restitution=0.5,")


def sliding_box_speed_drop(w, box, steps):
    """Speed lost by the sliding box over `steps` steps (m/s)."""
    v0 = box.get_linear_velocity()[0]
    w.integrate(steps)
    return v0 - box.get_linear_velocity()[0]


def test_materials_reassigned_between_steps_take_effect():
    # the step keeps the material indices of its bodies from step to step: reassigning an
    # object's material, changing a pair, or restoring a checkpoint must reach the next step
    w = torsion.World()
    w.set_time_step(1e-3)
    w.add_ground(material="floor")
    w.set_material_pair_prop("floor", "default", 0.2, 0.0, 0.0)
    w.set_material_pair_prop("floor", "ice", 0.05, 0.0, 0.0)
    box = w.add_box(0.2, 0.2, 0.2, 1.0)
    box.set_position([0, 0, 0.1])
    box.set_velocity([5.0, 0, 0], [0, 0, 0])
    w.integrate(20)  # sliding, in contact
    g, steps = 9.81, 100
    dt = steps * 1e-3
    assert sliding_box_speed_drop(w, box, steps) == pytest.approx(0.2 * g * dt, rel=1e-3)
    cp = w.capture_checkpoint()
    w.set_object_material(box, "ice")
    assert sliding_box_speed_drop(w, box, steps) == pytest.approx(0.05 * g * dt, rel=1e-3)
    w.set_material_pair_prop("floor", "ice", 0.1, 0.0, 0.0)
    assert sliding_box_speed_drop(w, box, steps) == pytest.approx(0.1 * g * dt, rel=1e-3)
    w.restore_checkpoint(cp)  # back to "default" on the box, and the pairs of that time
    assert box.get_material() == "default"
    assert sliding_box_speed_drop(w, box, steps) == pytest.approx(0.2 * g * dt, rel=1e-3)
