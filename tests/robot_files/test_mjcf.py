"""MJCF models against MuJoCo's own compile of the same file.

Every XML of Gymnasium's MuJoCo assets and of the dm_control suite loads (with
ignore_unsupported=True where it must; the list is printed); for each, the dof, the mass of every
moving subtree and M(q) at random configurations agree with MuJoCo (mj_fullM) to a relative 1e-9
(1e-6 for dog.xml, whose bones are meshes: MuJoCo keeps mesh vertices in float32).
Conventions mapped: a free joint's angular velocity is world-frame in torsion and body-frame in
MuJoCo (M_torsion = T^T M_mujoco T, T = blockdiag(I, R^T)); torsion's hinge and slide coordinates
are MuJoCo's minus the joint's ref.
"""

from __future__ import annotations

import glob
import os
import warnings

import mujoco
import numpy as np
import pytest

import torsion

GYM = os.path.join(os.path.dirname(__import__("gymnasium").__file__), "envs", "mujoco", "assets")
DMC = os.path.join(os.path.dirname(__import__("dm_control").__file__), "suite")
FILES = sorted(glob.glob(os.path.join(GYM, "*.xml"))) + sorted(glob.glob(os.path.join(DMC, "*.xml")))


# bodies with mesh geoms: MuJoCo computes their mass properties from float32 vertices
MASS_FROM_MESHES = {"dog.xml"}


def load(path):
    """(world, systems, needed ignore_unsupported, warnings)"""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", torsion.MJCFWarning)
        try:
            world = torsion.World()
            systems = world.load_mjcf_file(path).systems
            ignored = False
        except ValueError as e:
            assert "ignore_unsupported=True" in str(e), e
            world = torsion.World()
            systems = world.load_mjcf_file(path, ignore_unsupported=True).systems
            ignored = True
    return world, systems, ignored, [str(w.message) for w in caught]


def torsion_gc_and_t(m, d, systems):
    """torsion's gc per system from MuJoCo's qpos, and T (mujoco v = T torsion v)."""
    gcs, blocks = [], np.eye(m.nv)
    j = 0
    for s in systems:
        gc = np.zeros(s.get_generalized_coordinate_dim())
        gi = 0
        while gi < gc.size:
            adr, vadr = m.jnt_qposadr[j], m.jnt_dofadr[j]
            t = m.jnt_type[j]
            if t == mujoco.mjtJoint.mjJNT_FREE:
                gc[gi:gi + 7] = d.qpos[adr:adr + 7]
                q = d.qpos[adr + 3:adr + 7]
                r = np.zeros(9)
                mujoco.mju_quat2Mat(r, q / np.linalg.norm(q))
                blocks[vadr + 3:vadr + 6, vadr + 3:vadr + 6] = r.reshape(3, 3).T
                gi += 7
            elif t == mujoco.mjtJoint.mjJNT_BALL:
                gc[gi:gi + 4] = d.qpos[adr:adr + 4]
                gi += 4
            else:
                gc[gi] = d.qpos[adr] - m.qpos0[adr]
                gi += 1
            j += 1
        gcs.append(gc)
    return gcs, blocks


@pytest.mark.parametrize("path", FILES, ids=[os.path.relpath(f, os.path.dirname(os.path.dirname(f))) for f in FILES])
def test_mjcf_matches_mujoco(path):
    m = mujoco.MjModel.from_xml_path(path)
    d = mujoco.MjData(m)
    world, systems, ignored, msgs = load(path)
    if ignored:
        print(f"\n{os.path.basename(path)}: loaded with ignore_unsupported=True:", *msgs, sep="\n  ")
    assert sum(s.get_dof() for s in systems) == m.nv
    rtol = 1e-6 if os.path.basename(path) in MASS_FROM_MESHES else 1e-9
    if m.nv == 0:  # lqr.xml: a template without bodies
        assert systems == []
        return
    ours = sorted(round(s.get_total_mass(), 9) for s in systems)
    # MuJoCo: the mass of each tree rooted at a child of the world that has dofs
    trees = {}
    for b in range(1, m.nbody):
        trees.setdefault(m.body_rootid[b], []).append(b)
    theirs = sorted(round(float(sum(m.body_mass[b] for b in bs)), 9) for r, bs in trees.items()
                    if any(m.body_dofnum[b] > 0 for b in bs))
    np.testing.assert_allclose(ours, theirs, rtol=rtol)
    rng = np.random.default_rng(4)
    for _ in range(3):
        d.qpos[:] = m.qpos0
        for j in range(m.njnt):
            adr = m.jnt_qposadr[j]
            t = m.jnt_type[j]
            if t == mujoco.mjtJoint.mjJNT_FREE:
                d.qpos[adr:adr + 3] = rng.uniform(-1, 1, 3)
                q = rng.normal(size=4)
                d.qpos[adr + 3:adr + 7] = q / np.linalg.norm(q)
            elif t == mujoco.mjtJoint.mjJNT_BALL:
                q = rng.normal(size=4)
                d.qpos[adr:adr + 4] = q / np.linalg.norm(q)
            else:
                d.qpos[adr] = m.qpos0[adr] + rng.uniform(-1, 1)
        mujoco.mj_forward(m, d)
        full = np.zeros((m.nv, m.nv))
        mujoco.mj_fullM(m, d, full)
        gcs, t = torsion_gc_and_t(m, d, systems)
        blocks = []
        for s, gc in zip(systems, gcs):
            s.set_state(gc, np.zeros(s.get_dof()))
            blocks.append(s.get_mass_matrix())
        ours_m = np.zeros((m.nv, m.nv))
        k = 0
        for b in blocks:
            ours_m[k:k + b.shape[0], k:k + b.shape[0]] = b
            k += b.shape[0]
        theirs_m = t.T @ full @ t
        scale = max(1.0, float(np.abs(theirs_m).max()))
        err = float(np.abs(ours_m - theirs_m).max())
        assert err <= rtol * scale, f"M(q) differs from MuJoCo's by {err:.3e} (scale {scale:.3e})"
