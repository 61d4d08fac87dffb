"""Every URDF of pybullet_data that PyBullet loads also loads in torsion with default arguments.

For each file PyBullet loads (pybullet.connect(pybullet.DIRECT), default flags): torsion loads it
with add_articulated_system(path) (its tolerances reported as torsion.URDFWarning), and
- the number of movable joints equals PyBullet's (getJointInfo type != JOINT_FIXED);
- the total mass equals PyBullet's, except that PyBullet gives a link without <inertial> a mass
  of 1 kg where the URDF format (urdfdom, Pinocchio, torsion) gives 0: those links are left out
  of PyBullet's sum (their count is in the tally);
- the base is fixed exactly when PyBullet's is (PyBullet fixes a base of mass 0);
- M(q) at a random configuration equals Pinocchio's (pin.buildModelFromUrdf, a free flyer for a
  floating base) to a relative 1e-9, where Pinocchio loads the file, the robot has no mimic
  joint (Pinocchio reads them as independent joints) and torsion completed no inertia (a singular
  inertia replaced as PyBullet does; for those single-link bodies the completed inertia is
  compared with PyBullet's own, which it follows).

The whole corpus (1095 files) runs by default: about 10 s here (PyBullet's loads included).
TORSION_CORPUS_SAMPLE=1 runs a deterministic sample of 157 files holding every special case
(about 4 s), for quick iterations. Both print the tally.
"""

from __future__ import annotations

import glob
import os
import re
import warnings
import xml.etree.ElementTree as ET

import numpy as np
import pinocchio as pin
import pybullet
import pybullet_data
import pytest

import torsion

ROOT = pybullet_data.getDataPath()
ALL = sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "**", "*.urdf"), recursive=True))
# files that exercise a tolerance or a special case; always in the sample
SPECIAL = [
    "plane.urdf", "plane_implicit.urdf", "table/table.urdf", "cartpole.urdf",
    "laikago/laikago_toes.urdf", "franka_panda/panda.urdf", "bicycle/bike.urdf",
    "racecar/racecar_differential.urdf", "cube_no_rotation.urdf", "husky/husky.urdf",
    "biped/biped2d_pybullet.urdf", "quadruped/microtaur/microtaur.urdf",
    "random_urdfs/168/168.urdf", "samurai.urdf", "random_urdfs/000/000.urdf",
    "a1/a1.urdf", "kuka_iiwa/model.urdf", "r2d2.urdf", "humanoid/humanoid.urdf",
    "kuka_iiwa/model_for_sdf.urdf", "torus_deform.urdf", "toys/concave_box.urdf",
]
FULL = os.environ.get("TORSION_CORPUS_SAMPLE") != "1"


def sample():
    if FULL:
        return ALL
    rest = [f for f in ALL if f not in SPECIAL]
    step = max(1, len(rest) // 128)
    return sorted(set(SPECIAL) | set(rest[::step]))


def pybullet_reference(files):
    """file -> None (PyBullet refuses it) or (movable joints, link masses, base fixed, base
    local inertia diagonal)."""
    cid = pybullet.connect(pybullet.DIRECT)
    try:
        out = {}
        for f in files:
            try:
                b = pybullet.loadURDF(os.path.join(ROOT, f), physicsClientId=cid)
            except pybullet.error:
                out[f] = None
                continue
            n = pybullet.getNumJoints(b, physicsClientId=cid)
            movable = sum(pybullet.getJointInfo(b, j, physicsClientId=cid)[2] != pybullet.JOINT_FIXED
                          for j in range(n))
            masses = [pybullet.getDynamicsInfo(b, l, physicsClientId=cid)[0] for l in range(-1, n)]
            names = [pybullet.getBodyInfo(b, physicsClientId=cid)[0].decode()] + [
                pybullet.getJointInfo(b, j, physicsClientId=cid)[12].decode() for j in range(n)]
            inertia = np.array(pybullet.getDynamicsInfo(b, -1, physicsClientId=cid)[2])
            out[f] = (movable, dict(zip(names, masses)), masses[0] == 0.0, inertia)
            pybullet.removeBody(b, physicsClientId=cid)
        return out
    finally:
        pybullet.disconnect(cid)


def links_without_inertial(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    # some files have blank lines before their XML declaration, which pugixml (and PyBullet's
    # tinyxml) accept and ElementTree does not
    root = ET.fromstring(re.sub(r"<\?xml[^>]*\?>", "", text).replace("\x00", "").strip())
    return {l.get("name") for l in root.findall("link") if l.find("inertial") is None}


def load_torsion(path):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", torsion.URDFWarning)
        world = torsion.World()
        robot = world.add_articulated_system(path)
    for w in caught:
        assert issubclass(w.category, torsion.URDFWarning), w
        assert os.path.basename(path) in str(w.message)  # names the file
    return world, robot, [str(w.message) for w in caught]


def pinocchio_mass_matrix(path, robot, floating, rng):
    """(torsion M, Pinocchio M mapped to torsion's coordinates) at a random configuration, or
    None when Pinocchio cannot load the file."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model = (pin.buildModelFromUrdf(path, pin.JointModelFreeFlyer()) if floating
                     else pin.buildModelFromUrdf(path))
    except Exception as e:  # noqa: BLE001 - Pinocchio's reader raises several kinds
        return f"Pinocchio refuses it ({type(e).__name__})"
    names = [j["joint"] for j in robot.get_joints() if j["type"] not in ("fixed", "floating")]
    nq, nv = robot.get_generalized_coordinate_dim(), robot.get_dof()
    gc = np.zeros(nq)
    q = pin.neutral(model)
    base = 7 if floating else 0
    vbase = 6 if floating else 0
    if floating:
        gc[:3] = rng.uniform(-1, 1, 3)
        quat = rng.normal(size=4)
        gc[3:7] = quat / np.linalg.norm(quat)
        q[:3] = gc[:3]
        q[3:7] = [gc[4], gc[5], gc[6], gc[3]]  # (w,x,y,z) -> (x,y,z,w)
    perm = list(range(vbase))  # torsion gv index -> Pinocchio v index
    for k, name in enumerate(names):
        if not model.existJointName(name):
            return f"Pinocchio has no joint {name!r}"
        j = model.joints[model.getJointId(name)]
        if j.nv != 1:
            return f"Pinocchio's joint {name!r} has {j.nv} dofs"
        a = rng.uniform(-np.pi, np.pi) if j.shortname() != "JointModelPrismaticUnaligned" and \
            "Prismatic" not in j.shortname() else rng.uniform(-0.5, 0.5)
        gc[base + k] = a
        if j.nq == 2:
            q[j.idx_q:j.idx_q + 2] = [np.cos(a), np.sin(a)]
        else:
            q[j.idx_q] = a
        perm.append(j.idx_v)
    if model.nv != nv:
        return f"Pinocchio has {model.nv} dofs, torsion {nv}"
    robot.set_state(gc, np.zeros(nv))
    m_pin = pin.crba(model, model.createData(), q)
    m_pin = np.triu(m_pin) + np.triu(m_pin, 1).T
    # T maps torsion's gv to Pinocchio's v: a permutation of the joints, and the floating base's
    # world-frame (v, omega) to Pinocchio's local frame (R^T v, R^T omega); M = T^T M_pin T
    tm = np.zeros((model.nv, nv))
    for i, p in enumerate(perm):
        tm[p, i] = 1.0
    if floating:
        r = pin.Quaternion(q[6], q[3], q[4], q[5]).toRotationMatrix()
        tm[:3, :3] = r.T
        tm[3:6, 3:6] = r.T
    return robot.get_mass_matrix(), tm.T @ m_pin @ tm


@pytest.fixture(scope="module")
def reference():
    return pybullet_reference(sample())


def test_every_urdf_pybullet_loads_loads_in_torsion(reference):
    rng = np.random.default_rng(26)
    tally = dict(files=len(reference), pybullet_loads=0, torsion_loads=0, warned=0,
                 mass_matrix_compared=0, pinocchio_refuses=0, mimic=0, inertia_completed=0,
                 links_without_inertial=0)
    failures = []
    skipped_pin = []
    for f, ref in sorted(reference.items()):
        path = os.path.join(ROOT, f)
        if ref is None:
            continue
        tally["pybullet_loads"] += 1
        movable, masses, fixed, base_inertia = ref
        try:
            world, robot, messages = load_torsion(path)
        except Exception as e:  # noqa: BLE001 - collected and reported below
            failures.append(f"{f}: {type(e).__name__}: {e}")
            continue
        tally["torsion_loads"] += 1
        tally["warned"] += bool(messages)
        ours = sum(j["type"] not in ("fixed", "floating") for j in robot.get_joints())
        if ours != movable:
            failures.append(f"{f}: {ours} movable joints, PyBullet {movable}")
        bare = links_without_inertial(path)
        tally["links_without_inertial"] += len(bare)
        expected = sum(m for name, m in masses.items() if name not in bare)
        if not np.isclose(robot.get_total_mass(), expected, rtol=1e-9, atol=1e-12):
            failures.append(f"{f}: total mass {robot.get_total_mass()}, PyBullet {expected}")
        floating = robot.get_joints()[0]["type"] == "floating"
        if floating == fixed:
            failures.append(f"{f}: torsion floating={floating}, PyBullet fixed={fixed}")
        completed = any("singular inertia" in m for m in messages)
        if completed:
            tally["inertia_completed"] += 1
            # (random_urdfs/168's mesh has no finite vertex: torsion drops the shape, Bullet keeps
            # an empty hull 6 mm wide, so their completed inertias differ)
            if len(robot.get_body_names()) == 1 and len(masses) == 1 and "168.urdf" not in f:
                ours = np.sort(np.linalg.eigvalsh(robot.get_body_inertias_b()[0]))
                if not np.allclose(ours, np.sort(base_inertia), rtol=1e-6):
                    failures.append(f"{f}: completed inertia {ours}, PyBullet {base_inertia}")
            continue
        with open(path, encoding="utf-8", errors="replace") as text:
            has_mimic = "<mimic" in text.read()
        if has_mimic:
            tally["mimic"] += 1
            continue
        if robot.get_dof() == 0:
            continue
        got = pinocchio_mass_matrix(path, robot, floating, rng)
        if isinstance(got, str):
            tally["pinocchio_refuses"] += 1
            skipped_pin.append(f"{f}: {got}")
            continue
        tally["mass_matrix_compared"] += 1
        ours, theirs = got
        scale = max(1.0, float(np.abs(theirs).max()))
        err = float(np.abs(ours - theirs).max())
        if err > 1e-9 * scale:
            failures.append(f"{f}: M(q) differs from Pinocchio's by {err:.3e} (scale {scale:.3e})")
    print("\npybullet_data corpus tally:", tally)
    print("M(q) not compared:", *skipped_pin, sep="\n  ")
    assert not failures, "\n".join(failures)
    assert tally["torsion_loads"] == tally["pybullet_loads"]
