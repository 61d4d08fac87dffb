"""World XML: export then reload a world with every object kind gives the same state hash, and
the same hashes after 100 steps; @@name templates; MJCF and malformed files raise ValueError."""

from __future__ import annotations

import importlib.util
import pathlib

import numpy as np
import pytest

import torsion

_spec = importlib.util.spec_from_file_location(
    "state_scenes", pathlib.Path(__file__).with_name("scenes.py"))
scenes = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(scenes)

SLIDER = """<robot name="slider">
  <link name="world"/>
  <link name="cart"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><geometry><box size="0.2 0.1 0.1"/></geometry></collision></link>
  <joint name="slide" type="prismatic"><parent link="world"/><child link="cart"/>
    <origin xyz="0 2 0.3"/><axis xyz="1 0 0"/><limit lower="-1" upper="1" effort="100" velocity="10"/></joint>
</robot>"""


def every_kind_world():
    w, robot = scenes.mixed_scene()
    robot.set_name("dog")
    w.get_object(1).set_name("first box")
    w.set_gravity([0.1, 0.0, -9.7])
    w.set_default_material(0.7, 0.1, 0.2)
    w.set_sleeping_parameters(0.02, 0.03, 50)
    w.set_contact_solver_iteration_order(True)
    w.set_max_depenetration_velocity(0.7)
    w.set_contact_solver_compact_kernel(False)
    w.set_object_material(robot, "rubber", 2)  # one link
    w.set_object_collision_filter(robot, 1, 6, 3)
    k = w.add_box(0.2, 0.2, 0.05, 2.0)
    k.set_body_type(torsion.BodyType.KINEMATIC)
    k.set_position([3.0, 0.0, 0.5])
    k.set_velocity([0.0, 0.1, 0.0], [0.0, 0.0, 0.2])
    c = w.add_cylinder(0.1, 0.2, 1.0, collision_group=2, collision_mask=5)
    c.set_position([-1.0, 0.0, 0.3])
    c.set_inertia(np.diag([0.01, 0.02, 0.03]))
    c.set_linear_damping(0.1)
    c.set_angular_damping([0.1, 0.2, 0.3])
    slider = w.add_articulated_system(SLIDER)  # from URDF text
    slider.set_state([0.25], [0.5])
    # a heightmap with a hole (a NaN sample) and a ball falling onto it, away from the pile
    heights = 0.05 * np.sin(np.arange(8 * 6, dtype=float))
    heights[20] = np.nan
    w.add_height_map(8, 6, 2.0, 1.5, 10.0, 10.0, heights, "default")
    hb = w.add_sphere(0.1, 0.5)
    hb.set_position([10.1, 9.9, 0.4])
    # a compound of a box and an offset, tilted capsule with its own material, falling
    child = torsion.CompoundObjectChild
    comp = w.add_compound(
        [child(torsion.ObjectType.BOX, [0.3, 0.2, 0.1], [0.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0],
               "default"),
         child(torsion.ObjectType.CAPSULE, [0.05, 0.2, 0.0], [0.1, 0.05, 0.08],
               [np.cos(0.3), np.sin(0.3), 0.0, 0.0], "rubber")],
        3.0)
    comp.set_position([-3.0, 1.0, 0.6])
    comp.set_velocity([0.2, 0.0, 0.0], [0.0, 0.5, 0.1])
    return w


def test_export_reload_same_state_and_trajectory(tmp_path):
    w = every_kind_world()
    path = tmp_path / "world.xml"
    w.export_to_xml(str(path))
    r = torsion.World(path)
    assert r.get_config_file() == str(path.resolve())
    assert w.get_config_file() == ""
    kinds = {o.get_object_type() for o in r.get_object_list()}
    # sphere, box, cylinder, capsule, ground, heightmap, compound, articulated system
    assert len(kinds) == 8
    assert r.get_object_count() == w.get_object_count()
    assert r.get_topology_fingerprint() == w.get_topology_fingerprint()
    assert r.state_hash() == w.state_hash()
    w.integrate(100)
    r.integrate(100)
    assert r.state_hash() == w.state_hash()
    assert scenes.bitwise_equal(scenes.full_state(r), scenes.full_state(w))
    assert r.get_object("dog") is not None and r.get_object("first box") is not None
    # and the exported file reloads to the exported file
    path2 = tmp_path / "again.xml"
    torsion.World(path).export_to_xml(path2)
    assert path2.read_text() == path.read_text()


@pytest.mark.parametrize("sleeping", [False, True])
def test_untouched_objects_reload_with_an_equal_hash(tmp_path, sleeping):
    # the reload builds every object through its setters; each setter used to leave a wake
    # request in the state even where nothing could wake, so an object left at its spawn pose
    # (no setter called) hashed differently from its reloaded copy
    w = torsion.World()
    w.set_sleeping_enabled(sleeping)
    w.add_ground(-0.05)
    w.add_box(0.1, 0.1, 0.1, 1.0)  # untouched, at the origin
    s = w.add_sphere(0.1, 1.0)
    s.set_position([1.0, 0.0, 0.5])
    t = w.add_box(1.0, 1.0, 0.1, 5.0)
    t.set_body_type(torsion.BodyType.STATIC)
    t.set_position([3.0, 0.0, 0.0])
    w.add_articulated_system(SLIDER)  # untouched
    path = tmp_path / "fresh.xml"
    w.export_to_xml(str(path))
    r = torsion.World(path)
    assert r.state_hash() == w.state_hash()
    w.integrate(50)
    r.integrate(50)
    assert r.state_hash() == w.state_hash()


def test_templates(tmp_path):
    path = tmp_path / "t.xml"
    path.write_text("""<torsion version="1">
  <world time_step="@@dt" gravity="0 0 @@g"/>
  <objects>
    <ground/>
    <sphere name="@@name" radius="@@r" mass="1"><state position="0 0 @@z"/></sphere>
  </objects>
</torsion>""")
    w = torsion.World(path, {"dt": 0.002, "g": -3.5, "name": "ball", "r": 0.1, "z": 1.0})
    assert w.get_time_step() == 0.002
    assert list(w.get_gravity()) == [0.0, 0.0, -3.5]
    ball = w.get_object("ball")
    assert ball.get_position()[2] == 1.0
    with pytest.raises(ValueError, match=r"missing template parameters.*\br\b.*\bz\b"):
        torsion.World(path, {"dt": 0.002, "g": -3.5, "name": "ball"})


def test_robot_by_relative_urdf_path(tmp_path):
    (tmp_path / "slider.urdf").write_text(SLIDER)
    path = tmp_path / "w.xml"
    path.write_text("""<torsion><objects><ground/>
      <articulated name="s" urdf="slider.urdf" fixed_base="true">
        <state gc="0.5" gv="0"/><control mode="pd" kp="100" kd="10" q_ref="0" u_ref="0"/>
      </articulated></objects></torsion>""")
    w = torsion.World(str(path))
    s = w.get_object("s")
    assert s.get_generalized_coordinate()[0] == 0.5
    w.integrate(3000)
    assert abs(s.get_generalized_coordinate()[0]) < 1e-3  # the PD pulled it to its target


def test_mjcf_and_bad_files(tmp_path):
    mj = tmp_path / "m.xml"
    mj.write_text("<mujoco><worldbody/></mujoco>")
    assert torsion.World(mj).get_object_count() == 0  # MJCF (tests/robot_files/test_mjcf*.py)
    with pytest.raises(ValueError, match="cannot read"):
        torsion.World(tmp_path / "missing.xml")
    bad = tmp_path / "bad.xml"
    bad.write_text("<torsion><objects><sphere radius='x' mass='1'/></objects></torsion>")
    with pytest.raises(ValueError, match="<sphere>: radius must hold finite numbers"):
        torsion.World(bad)
    bad.write_text("<torsion><objects><box mass='1'/></objects></torsion>")
    with pytest.raises(ValueError, match="<box>: missing attribute size"):
        torsion.World(bad)
    bad.write_text("<torsion><objects><teapot/></objects></torsion>")
    with pytest.raises(ValueError, match="unknown object kind"):
        torsion.World(bad)
    bad.write_text("<torsion><objects><sphere radius='1' mass='-1'/></objects></torsion>")
    with pytest.raises(ValueError, match="mass"):
        torsion.World(bad)
    bad.write_text("<torsion><objects")
    with pytest.raises(ValueError, match="world XML"):
        torsion.World(bad)
    bad.write_text("<robot/>")
    with pytest.raises(ValueError, match="root element must be <torsion>"):
        torsion.World(bad)
    with pytest.raises(ValueError, match="params"):
        torsion.World(bad, [1, 2])
    w = torsion.World()
    with pytest.raises(ValueError, match="cannot write"):
        w.export_to_xml(tmp_path / "no such dir" / "w.xml")


@pytest.mark.parametrize(
    "element, attr, value",
    [
        ("solver", "max_iter", "150.9"),  # loaded as 150
        ("solver", "max_iter", "1e2"),
        ("solver", "max_iter", "4294967297"),  # wrapped to 1
        ("solver", "acceleration_depth", " "),
        ("contact", "max_points_per_pair", "4x"),
        ("contact", "sweep_axis", "0x1"),
        ("world", "sensor_noise_seed", "-1"),  # wrapped to 2^64 - 1
        ("world", "sensor_noise_seed", "1.5"),
        ("world", "sensor_noise_seed", "18446744073709551616"),  # a bare IndexError: stoull
        ("sleeping", "quiet_steps", "4294967297"),  # wrapped to 1
        ("sleeping", "quiet_steps", "0"),  # silently made 1
    ],
)
def test_integer_attributes_are_parsed_strictly(tmp_path, element, attr, value):
    path = tmp_path / "w.xml"
    path.write_text(f'<torsion version="1"><{element} {attr}="{value}"/></torsion>')
    with pytest.raises(ValueError, match=rf"<{element}>: {attr} must be a whole number in "
                                         rf"\[.*\], got '{value}'"):
        torsion.World(path)


def test_integer_attributes_in_range_load(tmp_path):
    path = tmp_path / "w.xml"
    path.write_text('<torsion version="1"><world sensor_noise_seed="18446744073709551615"/>'
                    '<contact sweep_axis=" -1 " max_points_per_pair="+3"/>'
                    '<solver max_iter="40"/><sleeping quiet_steps="7"/></torsion>')
    w = torsion.World(path)
    assert w.get_sensor_noise_seed() == 2**64 - 1
    assert w.get_contact_solver_params()["max_iter"] == 40
    assert w.get_sleeping_parameters()["quiet_steps"] == 7
    assert w.get_contact_settings().max_points_per_pair == 3
    bad = tmp_path / "hm.xml"
    bad.write_text('<torsion><objects><heightmap x_samples="2.5" y_samples="2" x_size="1" '
                   'y_size="1"><heights>0 0 0 0</heights></heightmap></objects></torsion>')
    with pytest.raises(ValueError, match=r"<heightmap>: x_samples must be a whole number"):
        torsion.World(bad)


def test_the_format_version_is_checked(tmp_path):
    path = tmp_path / "w.xml"
    for version in ["2", "1.0", ""]:
        path.write_text(f'<torsion version="{version}"><objects/></torsion>')
        with pytest.raises(ValueError, match=rf"<torsion>: version must be 1 .*got '{version}'"):
            torsion.World(path)
    # hand-written files without a version are read as version 1
    path.write_text("<torsion><objects><ground/></objects></torsion>")
    assert torsion.World(path).get_object_count() == 1


def test_height_map_samples_and_holes_survive(tmp_path):
    w = torsion.World()
    heights = np.linspace(-0.1, 0.2, 5 * 4)
    heights[3], heights[7], heights[11] = np.nan, np.inf, -np.inf
    hm = w.add_height_map(5, 4, 1.0, 0.6, -0.5, 0.25, heights, "default")
    w.export_to_xml(tmp_path / "hm.xml")
    r = torsion.World(tmp_path / "hm.xml")
    back = r.get_object(hm.get_index_in_world())
    got = np.asarray(back.get_height_vector())
    assert got.tobytes() == np.asarray(hm.get_height_vector()).tobytes()  # bit for bit, holes too
    pts = [(x, y) for x in np.linspace(-0.99, -0.01, 7) for y in np.linspace(-0.04, 0.54, 5)]
    a = [back.get_height(x, y) for x, y in pts]
    b = [hm.get_height(x, y) for x, y in pts]
    assert np.isfinite(a).sum() > 10
    np.testing.assert_array_equal(a, b)  # NaN over holes on both sides


def test_meshes_are_written_beside_the_file(tmp_path):
    # they used to be refused; tests/world/test_seed_surface.py checks every mesh mode bitwise
    w = torsion.World()
    w.add_ground()
    obj = tmp_path / "tet.obj"
    obj.write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n")
    w.add_mesh(str(obj), 1.0).set_position([0.0, 0.0, 1.0])
    out = tmp_path / "w.xml"
    w.export_to_xml(out)
    assert (tmp_path / "w_meshes" / "mesh_1_0.obj").is_file()
    r = torsion.World(out)
    assert r.state_hash() == w.state_hash()
    w.integrate(100)
    r.integrate(100)
    assert scenes.bitwise_equal(scenes.full_state(r), scenes.full_state(w))


def _reloads_the_same(w, path, steps=100):
    """export, reload: an equal state hash, a bitwise equal trajectory, an identical re-export"""
    w.export_to_xml(path)
    r = torsion.World(path)
    assert r.state_hash() == w.state_hash()
    w.integrate(steps)
    r.integrate(steps)
    assert scenes.bitwise_equal(scenes.full_state(r), scenes.full_state(w))
    again = path.with_name("again_" + path.name)
    torsion.World(path).export_to_xml(again)
    assert again.read_text() == path.read_text()
    return r


def _sunk_box():
    w = torsion.World()
    w.add_ground()
    w.add_box(0.1, 0.1, 0.1, 1.0).set_position([0, 0, 0.03])  # 2 cm deep: ERP pushes it out
    w.set_erp(0.5)
    return w


@pytest.mark.parametrize("setting", [
    lambda w: w.set_max_depenetration_velocity(0.05),
    lambda w: w.set_max_depenetration_velocity(float("inf")),
    lambda w: w.set_contact_solver_compact_kernel(False),
    lambda w: w.set_articulated_contact_space_solve(False),
], ids=["depenetration cap", "no cap", "compact kernel off", "contact space off"])
def test_solver_switches_survive(tmp_path, setting):
    # the depenetration cap and the compact kernel flag used to be dropped: the reload had the
    # defaults, another hash and another trajectory
    w = _sunk_box()
    setting(w)
    r = _reloads_the_same(w, tmp_path / "w.xml", steps=20)
    assert r.get_contact_solver_params() == w.get_contact_solver_params()
    assert (r.get_articulated_contact_space_solve() == w.get_articulated_contact_space_solve())


@pytest.mark.parametrize("attrs, match", [
    ('max_depenetration_velocity="0"', "max_depenetration_velocity must be > 0"),
    ('max_depenetration_velocity="-inf"', "max_depenetration_velocity must be > 0"),
    ('max_depenetration_velocity="nan"', "max_depenetration_velocity must hold numbers"),
    ('compact_kernel="maybe"', "compact_kernel must be true or false"),
    ('articulated_contact_space="2"', "articulated_contact_space must be true or false"),
])
def test_solver_switches_are_validated(tmp_path, attrs, match):
    path = tmp_path / "w.xml"
    path.write_text(f'<torsion version="1"><solver {attrs}/></torsion>')
    with pytest.raises(ValueError, match=f"<solver>: {match}"):
        torsion.World(path)


def test_robot_links_and_ground_keep_their_materials_and_filters(tmp_path):
    # per-link materials and filters (local index = body index) and the ground's group used to
    # be dropped: a robot with frictionless feet reloaded with default friction
    w = torsion.World()
    w.set_material_pair_prop("ice", "default", 0.0, 0.0, 0.0)
    g = w.add_ground()
    w.set_object_collision_filter(g, 4, 2**64 - 1)
    r = w.add_articulated_system(torsion.robots.urdf_path("quadruped"))
    gc = r.get_generalized_coordinate()
    gc[2], gc[7:] = 0.33, torsion.robots.QUADRUPED_STAND
    r.set_generalized_coordinate(gc)
    r.set_pd_gains(np.full(18, 100.0), np.full(18, 2.0))
    r.set_pd_target(gc, np.zeros(18))
    w.set_object_material(r, "ice")  # every link
    w.set_object_material(r, "default", 2)
    w.set_object_collision_filter(r, 1, 0, 1)  # the first link below the trunk: no contacts
    r2 = _reloads_the_same(w, tmp_path / "w.xml", steps=300)
    assert r2.get_object(0).get_collision_group() == 4


@pytest.mark.parametrize("link, match", [
    ('index="99"', r"index must be a whole number in \[0, "),
    ('name="FL_hip"', "missing attribute index"),
    ('index="1" name="nope"', "index 1 is body '.*', not 'nope'"),
    ('index="1" material=""', "material must be a non-empty name"),
    ('index="1" collision_mask="x"', "collision_mask must be an unsigned 64-bit integer"),
])
def test_robot_links_are_validated(tmp_path, link, match):
    path = tmp_path / "w.xml"
    urdf = torsion.robots.urdf_path("quadruped")
    path.write_text(f'<torsion version="1"><objects><articulated urdf="{urdf}"><link {link}/>'
                    '</articulated></objects></torsion>')
    with pytest.raises(ValueError, match=f"<link>: {match}"):
        torsion.World(path)


def test_names_and_paths_with_template_markers_come_back(tmp_path):
    """World(path) replaces @@name in the raw text: names, materials, paths and URDF text that
    hold "@@" (used to fail to load, or load renamed) are written escaped and come back as they
    were, with or without params."""
    robot_dir = tmp_path / "robots@@v2"
    robot_dir.mkdir()
    (robot_dir / "slider.urdf").write_text(SLIDER)
    w = torsion.World()
    w.set_material_pair_prop("m@@ice", "default", 0.1, 0.0, 0.0)
    w.add_ground(material="m@@ice")
    w.add_box(0.1, 0.1, 0.1, 1.0).set_name("arm@@left")
    w.add_sphere(0.1, 1.0).set_name("@@@x@@")
    w.add_articulated_system(str(robot_dir / "slider.urdf")).set_name("@@robot")
    text = SLIDER.replace("<robot ", "<!-- a@@b c@@@d ]]> e@@ -->\n<robot ")
    w.add_articulated_system(text).set_name("text@@")
    path = tmp_path / "w.xml"
    _reloads_the_same(w, path)
    names = [o.get_name() for o in w.get_object_list()]
    for params in ({}, {"left": "right", "x": "y", "robot": "r", "ice": "water", "b": "B"}):
        r = torsion.World(path, params)
        assert [o.get_name() for o in r.get_object_list()] == names
        assert r.get_object(0).get_material() == "m@@ice"
        assert r.state_hash() == torsion.World(path).state_hash()
    # the URDF text itself, byte for byte (it is exported again)
    assert "a@@b c@@@d ]]> e@@" in "".join(path.read_text().split("]]><![CDATA["))


def test_a_compound_with_an_empty_material_is_refused(tmp_path):
    # the add_* calls refuse '' as a material (one rule everywhere); a compound's own material
    # was assigned directly by the loader and took it
    w = torsion.World()
    comp = w.add_compound([torsion.CompoundObjectChild(
        torsion.ObjectType.SPHERE, [0.1], [0.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0], "rubber")], 1.0)
    w.set_object_material(comp, "steel")
    path = tmp_path / "w.xml"
    w.export_to_xml(str(path))
    text = path.read_text()
    assert 'material="steel"' in text
    path.write_text(text.replace('material="steel"', 'material=""'))
    with pytest.raises(ValueError, match="material must be a non-empty name"):
        torsion.World(path)
