"""MJCF mesh and hfield geoms against MuJoCo's compile of the same file: OBJ and STL assets (torsion's readers)
with meshdir and scale, a concave mesh's mass properties under each of MuJoCo's `inertia` modes
(legacy, its default; exact; convex), M(q) from mj_fullM, and the convex hull that both simulators
collide: a concave mesh dropped on the floor comes to rest where MuJoCo's does. MuJoCo stores mesh
vertices in float32: the comparisons are to a relative 1e-6. An hfield on the world becomes
torsion's height map: spheres placed 1 cm into it touch it as deep as in MuJoCo."""

from __future__ import annotations

import struct
import warnings

import mujoco
import numpy as np
import pytest

import torsion

# an L-shaped prism (concave): the profile in x-z, extruded 0.1 m along y
PROFILE = [(0, 0), (0.4, 0), (0.4, 0.1), (0.1, 0.1), (0.1, 0.4), (0, 0.4)]


def l_prism():
    verts = [(x, y, z) for y in (0.0, 0.1) for x, z in PROFILE]
    n = len(PROFILE)
    faces = []
    for a, b, c in [(0, 1, 2), (0, 2, 3), (0, 3, 4), (0, 4, 5)]:  # a fan from corner 0 (it sees all)
        faces.append((a, b, c))              # y = 0 side, normal -y
        faces.append((n + a, n + c, n + b))  # y = 0.1 side, normal +y
    for i in range(n):
        j = (i + 1) % n
        faces += [(i, n + i, n + j), (i, n + j, j)]
    return np.array(verts, float), faces


def write_obj(path, verts, faces):
    with open(path, "w") as f:
        f.writelines(f"v {float(x)!r} {float(y)!r} {float(z)!r}\n" for x, y, z in verts)
        f.writelines(f"f {a + 1} {b + 1} {c + 1}\n" for a, b, c in faces)


def write_stl(path, verts, faces):
    """binary STL (MuJoCo reads only binary STL)"""
    with open(path, "wb") as f:
        f.write(b"l".ljust(80, b" ") + struct.pack("<I", len(faces)))
        for tri in faces:
            p = verts[list(tri)]
            n = np.cross(p[1] - p[0], p[2] - p[0])
            f.write(struct.pack("<12fH", *(n / np.linalg.norm(n)), *p.ravel(), 0))


@pytest.fixture
def assets(tmp_path):
    verts, faces = l_prism()
    (tmp_path / "meshes").mkdir()
    write_obj(tmp_path / "meshes" / "l.obj", verts, faces)
    write_stl(tmp_path / "meshes" / "l.stl", verts, faces)
    return tmp_path


def model_text(file, inertia="", scale="1 2 0.5"):
    attr = f' inertia="{inertia}"' if inertia else ""
    return f"""<mujoco><compiler meshdir="meshes"/>
  <asset><mesh name="l" file="{file}" scale="{scale}"{attr}/></asset>
  <worldbody>
    <body name="base" pos="0 0 1"><freejoint/>
      <geom type="sphere" size="0.05"/>
      <body name="arm" pos="0.2 0 0">
        <joint name="hinge" axis="0 1 0"/>
        <geom type="mesh" mesh="l" pos="0.1 0.2 0" euler="10 20 30" density="700"/>
      </body>
    </body>
  </worldbody></mujoco>"""


@pytest.mark.parametrize("file", ["l.obj", "l.stl"])
@pytest.mark.parametrize("inertia", ["", "exact", "convex"])
def test_mesh_mass_properties_and_mass_matrix_match_mujoco(assets, file, inertia):
    path = assets / "m.xml"
    path.write_text(model_text(file, inertia))
    m = mujoco.MjModel.from_xml_path(str(path))
    d = mujoco.MjData(m)
    world = torsion.World()
    (s,) = world.load_mjcf_file(str(path)).systems
    assert s.get_total_mass() == pytest.approx(m.body_mass[1:].sum(), rel=1e-6)
    rng = np.random.default_rng(7)
    for _ in range(3):
        q = rng.normal(size=4)
        d.qpos[:] = np.concatenate([rng.uniform(-1, 1, 3), q / np.linalg.norm(q), rng.uniform(-1, 1, 1)])
        mujoco.mj_forward(m, d)
        s.set_state(d.qpos.copy(), np.zeros(7))
        np.testing.assert_allclose(s.get_composite_com(), d.subtree_com[1], atol=1e-6)
        full = np.zeros((m.nv, m.nv))
        mujoco.mj_fullM(m, d, full)
        r = np.zeros(9)
        mujoco.mju_quat2Mat(r, d.qpos[3:7])
        t = np.eye(m.nv)
        t[3:6, 3:6] = r.reshape(3, 3).T  # MuJoCo's free angular velocity is in the body frame
        theirs = t.T @ full @ t
        np.testing.assert_allclose(s.get_mass_matrix(), theirs, atol=1e-6 * np.abs(theirs).max())


def test_legacy_inertia_is_not_the_exact_one(assets):
    """MuJoCo's default (legacy) overstates a concave mesh's volume: torsion follows it."""
    masses = {}
    for inertia in ("legacy", "exact", "convex"):
        path = assets / f"{inertia}.xml"
        path.write_text(model_text("l.obj", inertia, scale="1 1 1"))
        (s,) = torsion.World().load_mjcf_file(str(path)).systems
        masses[inertia] = s.get_total_mass() - 1000 * 4 / 3 * np.pi * 0.05 ** 3
    assert masses["exact"] == pytest.approx(700 * 0.007)     # the L's true volume
    assert masses["convex"] == pytest.approx(700 * 0.0115)   # its hull's
    assert masses["exact"] < masses["legacy"] < masses["convex"]


def test_concave_mesh_rests_on_its_hull_like_mujoco(assets):
    text = """<mujoco><compiler meshdir="meshes"/><option timestep="0.002"/>
      <asset><mesh name="l" file="l.obj"/></asset>
      <worldbody><geom type="plane" size="5 5 0.1"/>
        <body name="l" pos="0 0 0.05" euler="0 -90 0"><freejoint/><geom type="mesh" mesh="l"/></body>
      </worldbody></mujoco>"""
    path = assets / "drop.xml"
    path.write_text(text)
    m = mujoco.MjModel.from_xml_path(str(path))
    d = mujoco.MjData(m)
    world = torsion.World()
    (s,) = world.load_mjcf_file(str(path)).systems
    for _ in range(500):
        mujoco.mj_step(m, d)
    world.integrate(500)
    # rotated -90 degrees about y the L stands on the face x = 0 of its file (0.4 x 0.1 m),
    # its mesh origin on the floor; the COM (MuJoCo's legacy one) rests where MuJoCo's does
    ours = s.get_composite_com()
    print(f"\nCOM at rest: torsion {ours}, MuJoCo {d.subtree_com[1]}")
    np.testing.assert_allclose(ours, d.subtree_com[1], atol=2e-3)


def test_static_mesh_and_ellipsoid_geoms_hold_a_ball_like_mujoco(assets):
    """Mesh and ellipsoid geoms of the world: static mesh objects of their hulls. A ball set on
    the top of the L (its hull's flat top, 0.4 m up) and one on the ellipsoid's pole rest where
    MuJoCo's do."""
    text = """<mujoco><compiler meshdir="meshes"/><option timestep="0.002"/>
      <asset><mesh name="l" file="l.obj"/></asset>
      <worldbody><geom type="plane" size="5 5 0.1"/>
        <geom name="step" type="mesh" mesh="l" pos="0.3 0.5 0"/>
        <geom name="egg" type="ellipsoid" size="0.1 0.2 0.05" pos="2 0 0.05"/>
        <body name="a" pos="0.35 0.55 0.441"><freejoint/><geom size="0.04"/></body>
        <body name="b" pos="2 0 0.141"><freejoint/><geom size="0.04"/></body>
      </worldbody></mujoco>"""
    path = assets / "static.xml"
    path.write_text(text)
    m = mujoco.MjModel.from_xml_path(str(path))
    d = mujoco.MjData(m)
    world = torsion.World()
    systems = world.load_mjcf_file(str(path)).systems
    assert world.get_object("step").get_object_type() == torsion.ObjectType.MESH
    for _ in range(250):
        mujoco.mj_step(m, d)
    world.integrate(250)
    for k, s in enumerate(systems):
        np.testing.assert_allclose(s.get_generalized_coordinate()[:3], d.qpos[7 * k:7 * k + 3], atol=1e-3)


def test_mesh_errors_name_what_is_wrong(assets):
    def load(text):
        p = assets / "bad.xml"
        p.write_text(text)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", torsion.MJCFWarning)
            return torsion.World().load_mjcf_file(str(p))

    body = '<worldbody><body><freejoint/><geom type="mesh" mesh="{}"/></body></worldbody>'
    with pytest.raises(ValueError, match="names no <asset><mesh>"):
        load("<mujoco>" + body.format("nope") + "</mujoco>")
    with pytest.raises(ValueError, match="missing.obj"):
        load('<mujoco><asset><mesh name="x" file="missing.obj"/></asset>' + body.format("x") + "</mujoco>")
    with pytest.raises(ValueError, match='inertia="shell"'):
        load('<mujoco><compiler meshdir="meshes"/><asset><mesh name="x" file="l.obj" inertia="shell"/>'
             "</asset>" + body.format("x") + "</mujoco>")
    with pytest.raises(ValueError, match="names no <asset><hfield>"):
        load('<mujoco><worldbody><geom type="hfield" hfield="h"/></worldbody></mujoco>')


def hfield_model(geom='<geom name="terrain" type="hfield" hfield="h" pos="0.1 -0.2 0.3"/>', body=""):
    nrow, ncol = 5, 7
    # planar within every cell (linear in row and column): MuJoCo's and torsion's split of a
    # cell into two triangles give the same surface; rows and columns have different slopes, so
    # a flipped row order or a transposed grid would show
    elevation = " ".join(str(0.3 * c + 1.0 * r) for r in range(nrow) for c in range(ncol))
    return (f'<mujoco><asset><hfield name="h" nrow="{nrow}" ncol="{ncol}" elevation="{elevation}" '
            f'size="1 2 0.5 0.1"/></asset><worldbody>{geom}{body}</worldbody></mujoco>')


def test_hfield_is_a_height_map_touched_as_in_mujoco(tmp_path):
    points = [(-0.5, -0.8), (0.7, 0.3), (0.0, 0.0), (-0.9, 1.5), (0.4, -1.2)]
    spheres = "".join(f'<body name="s{k}" pos="{x} {y} 0"><freejoint/><geom size="0.05" group="1"/></body>'
                      for k, (x, y) in enumerate(points))
    path = tmp_path / "hf.xml"
    path.write_text(hfield_model(body=spheres))
    m = mujoco.MjModel.from_xml_path(str(path))
    d = mujoco.MjData(m)
    mujoco.mj_forward(m, d)
    for k, (x, y) in enumerate(points):  # 1 cm into MuJoCo's surface (a ray on geom group 0)
        depth = mujoco.mj_ray(m, d, np.array([x, y, 5.0]), np.array([0, 0, -1.0]),
                              np.array([1, 0, 0, 0, 0, 0], np.uint8), 1, -1, np.zeros(1, np.int32))
        assert depth > 0
        d.qpos[7 * k:7 * k + 7] = [x, y, 5.0 - depth + 0.04, 1, 0, 0, 0]
    mujoco.mj_forward(m, d)
    theirs = {}
    for c in d.contact[:d.ncon]:  # the deepest contact of each sphere
        b = int(m.geom_bodyid[c.geom[1]]) - 1
        theirs[b] = min(theirs.get(b, 0.0), float(c.dist))
    world = torsion.World()
    systems = world.load_mjcf_file(str(path)).systems
    terrain = world.get_object("terrain")
    assert terrain.get_object_type() == torsion.ObjectType.HEIGHTMAP
    for k, s in enumerate(systems):
        s.set_generalized_coordinate(d.qpos[7 * k:7 * k + 7])
    world.integrate1()
    index = {s.get_index_in_world(): k for k, s in enumerate(systems)}
    ours = {}
    for c in world.get_contact_problem():
        k = index.get(int(c["object_a_index"]), index.get(int(c["object_b_index"])))
        ours[k] = min(ours.get(k, 0.0), -float(c["depth"]))
    assert sorted(ours) == sorted(theirs) == list(range(len(points)))
    for k in ours:
        assert ours[k] == pytest.approx(theirs[k], abs=1e-6)


def test_hfield_errors_name_what_is_wrong(tmp_path):
    def load(text, **kw):
        p = tmp_path / "bad.xml"
        p.write_text(text)
        return torsion.World().load_mjcf_file(str(p), **kw)

    with pytest.raises(ValueError, match="moving body 'b'.*static"):
        load(hfield_model(geom="", body='<body name="b"><freejoint/><geom type="hfield" hfield="h"/></body>'))
    with pytest.raises(ValueError, match="rotated"):
        load(hfield_model(geom='<geom type="hfield" hfield="h" euler="0 10 0"/>'))
    text = ('<mujoco><asset><hfield name="h" file="terrain.png" size="1 1 1 0.1"/></asset>'
            '<worldbody><geom size="0.1"/></worldbody></mujoco>')
    with pytest.raises(ValueError, match="terrain.png.*ignore_unsupported=True"):
        load(text)
    with pytest.warns(torsion.MJCFWarning, match="terrain.png"):
        load(text, ignore_unsupported=True)
