"""The Pinocchio oracle for the articulated-system tests.

Pinocchio's own URDF reader (urdfdom) knows no spherical joints and maps continuous joints to
(cos, sin) coordinates, so the oracle builds the Pinocchio model itself from the URDF with
xml.etree: one Pinocchio joint per movable URDF joint (RevoluteUnaligned, PrismaticUnaligned,
Spherical, FreeFlyer for a floating root), link inertias appended to their joint across fixed
joints, one frame per URDF joint (plus ROOT). None of torsion's code is used. The oracle itself
is cross-checked against pin.buildModelFromUrdf on the arm (test_pinocchio.py).

Conventions mapped explicitly (torsion -> Pinocchio):
- quaternions (w, x, y, z) -> (x, y, z, w);
- floating base gv (v world, omega world) -> (R^T v, R^T omega) (Pinocchio's local frame);
  with T the matrix of this map, v_pin = T u and a_pin = T du/dt + dT/dt u, so
  M_torsion = T^T M_pin T and h_torsion = T^T (h_pin + M_pin dT/dt u);
- Jacobians: torsion's world-frame J = J_pin(LOCAL_WORLD_ALIGNED) T.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

import numpy as np
import pytest

try:  # the oracle needs Pinocchio (PyPI `pin`, in the test extra); only its tests need it
    import pinocchio as pin
except ImportError:  # pragma: no cover
    pin = None


RTOL = 1e-9  # relative agreement with Pinocchio


def close(a, b, what):
    """|a - b| <= RTOL * max(1, |b|_max), with a message naming what was compared."""
    a, b = np.asarray(a), np.asarray(b)
    scale = max(1.0, float(np.max(np.abs(b))))
    err = float(np.max(np.abs(a - b))) if a.size else 0.0
    assert err <= RTOL * scale, f"{what}: max abs error {err:.3e} (scale {scale:.3e})"


def check_frame(system, frame, reference, gv, label):
    """Frame `frame` of `system` against Pinocchio's (position, rotation, linear Jacobian,
    angular Jacobian), and its velocities against the Jacobians times gv."""
    p, r, jl, ja = reference
    close(system.get_frame_position(frame), p, f"{label} {frame} position")
    close(system.get_frame_orientation(frame), r, f"{label} {frame} orientation")
    close(system.get_dense_frame_jacobian(frame), jl, f"{label} {frame} J")
    close(system.get_dense_frame_rotational_jacobian(frame), ja, f"{label} {frame} Jr")
    close(system.get_frame_velocity(frame), jl @ gv, f"{label} {frame} velocity")
    close(system.get_frame_angular_velocity(frame), ja @ gv, f"{label} {frame} angular velocity")


def _floats(text, n, default):
    if text is None:
        return np.array(default, dtype=float)
    v = np.array([float(x) for x in text.split()])
    assert v.size == n
    return v


def _rpy(r, p, y):
    cr, sr, cp, sp, cy, sy = math.cos(r), math.sin(r), math.cos(p), math.sin(p), math.cos(y), math.sin(y)
    rx = np.array([[1, 0, 0], [0, cr, -sr], [0, sr, cr]])
    ry = np.array([[cp, 0, sp], [0, 1, 0], [-sp, 0, cp]])
    rz = np.array([[cy, -sy, 0], [sy, cy, 0], [0, 0, 1]])
    return rz @ ry @ rx


def _origin(el):
    o = el.find("origin")
    if o is None:
        return pin.SE3.Identity()
    xyz = _floats(o.get("xyz"), 3, [0, 0, 0])
    rpy = _floats(o.get("rpy"), 3, [0, 0, 0])
    return pin.SE3(_rpy(*rpy), xyz)


def _link_inertia(link):
    inert = link.find("inertial")
    if inert is None:
        return pin.Inertia.Zero()
    m = float(inert.find("mass").get("value"))
    i = inert.find("inertia")
    g = lambda k: float(i.get(k, "0"))  # noqa: E731
    ic = np.array([[g("ixx"), g("ixy"), g("ixz")], [g("ixy"), g("iyy"), g("iyz")], [g("ixz"), g("iyz"), g("izz")]])
    return _origin(inert).act(pin.Inertia(m, np.zeros(3), ic))


class Oracle:
    """A Pinocchio model of a URDF plus the maps between torsion's and Pinocchio's coordinates."""

    def __init__(self, urdf_path: str, fixed_base=None):
        root_el = ET.parse(urdf_path).getroot()
        links = {l.get("name"): l for l in root_el.findall("link")}
        joints = root_el.findall("joint")
        children = {name: [] for name in links}
        has_parent = set()
        for j in joints:
            children[j.find("parent").get("link")].append(j)
            has_parent.add(j.find("child").get("link"))
        root = next(n for n in links if n not in has_parent)
        world_root = root == "world"
        fixed = world_root if fixed_base is None else fixed_base
        model = pin.Model()
        self.joint_types = {}
        # link name -> (pinocchio joint id, placement of the link frame in that joint's frame)
        where = {}
        if world_root:
            where["world"] = (0, pin.SE3.Identity())
            start = ["world"]
        else:
            if fixed:
                where[root] = (0, pin.SE3.Identity())
            else:
                jid = model.addJoint(0, pin.JointModelFreeFlyer(), pin.SE3.Identity(), "ROOT")
                self.joint_types["ROOT"] = "floating"
                where[root] = (jid, pin.SE3.Identity())
            model.appendBodyToJoint(where[root][0], _link_inertia(links[root]), where[root][1])
            model.addFrame(pin.Frame("ROOT", where[root][0], 0, where[root][1], pin.FrameType.OP_FRAME))
            start = [root]
        # depth-first preorder: Pinocchio needs every subtree's dofs contiguous
        def visit(name):
            parent_jid, parent_pl = where[name]
            for j in children[name]:
                child = j.find("child").get("link")
                kind = j.get("type")
                pl = parent_pl * _origin(j)
                ax = j.find("axis")
                axis = _floats(None if ax is None else ax.get("xyz"), 3, [1, 0, 0])
                axis = axis / np.linalg.norm(axis)
                if kind == "fixed":
                    where[child] = (parent_jid, pl)
                else:
                    jm = {
                        "revolute": lambda: pin.JointModelRevoluteUnaligned(axis),
                        "continuous": lambda: pin.JointModelRevoluteUnaligned(axis),
                        "prismatic": lambda: pin.JointModelPrismaticUnaligned(axis),
                        "spherical": pin.JointModelSpherical,
                    }[kind]()
                    jid = model.addJoint(parent_jid, jm, pl, j.get("name"))
                    self.joint_types[j.get("name")] = kind
                    where[child] = (jid, pin.SE3.Identity())
                model.appendBodyToJoint(where[child][0], _link_inertia(links[child]), where[child][1])
                model.addFrame(pin.Frame(j.get("name"), where[child][0], 0, where[child][1], pin.FrameType.OP_FRAME))
                visit(child)

        for name in start:
            visit(name)
        self.model = model
        self.data = model.createData()

    # --- coordinate maps, given the torsion system (for joint names and slices) ---
    def bind(self, system):
        """Index maps between this model and torsion's `system` (by joint name)."""
        names = system.get_movable_joint_names()
        self.slices = []  # (kind, torsion gc idx, torsion gv idx, pin q idx, pin v idx)
        gc = gv = 0
        for n in names:
            kind = self.joint_types[n]
            jid = self.model.getJointId(n)
            j = self.model.joints[jid]
            self.slices.append((kind, gc, gv, j.idx_q, j.idx_v))
            gc += {"floating": 7, "spherical": 4}.get(kind, 1)
            gv += {"floating": 6, "spherical": 3}.get(kind, 1)
        assert gc == system.get_generalized_coordinate_dim() and gv == system.get_dof()
        return self

    def q_pin(self, gc):
        q = np.zeros(self.model.nq)
        for kind, i, _, iq, _ in self.slices:
            if kind == "floating":
                q[iq:iq + 3] = gc[i:i + 3]
                q[iq + 3:iq + 7] = [gc[i + 4], gc[i + 5], gc[i + 6], gc[i + 3]]
            elif kind == "spherical":
                q[iq:iq + 4] = [gc[i + 1], gc[i + 2], gc[i + 3], gc[i]]
            else:
                q[iq] = gc[i]
        return q

    def T(self, gc):
        """v_pin = T gv."""
        nv = self.model.nv
        t = np.zeros((nv, nv))
        for kind, i, k, _, iv in self.slices:
            if kind == "floating":
                qw, qx, qy, qz = gc[i + 3:i + 7]
                r = pin.Quaternion(qw, qx, qy, qz).normalized().toRotationMatrix()
                t[iv:iv + 3, k:k + 3] = r.T
                t[iv + 3:iv + 6, k + 3:k + 6] = r.T
            else:
                n = 3 if kind == "spherical" else 1
                t[iv:iv + n, k:k + n] = np.eye(n)
        return t

    def Tdot_u(self, gc, gv):
        """dT/dt gv, in Pinocchio's v layout."""
        out = np.zeros(self.model.nv)
        t = self.T(gc)
        vp = t @ gv
        for kind, _, _, _, iv in self.slices:
            if kind == "floating":
                out[iv:iv + 3] = -np.cross(vp[iv + 3:iv + 6], vp[iv:iv + 3])
        return out

    def mass_matrix(self, gc):
        q = self.q_pin(gc)
        m = pin.crba(self.model, self.data, q)
        m = np.triu(m) + np.triu(m, 1).T
        t = self.T(gc)
        return t.T @ m @ t

    def nonlinear(self, gc, gv, gravity):
        self.model.gravity.linear = np.asarray(gravity, dtype=float)
        q = self.q_pin(gc)
        t = self.T(gc)
        vp = t @ gv
        m = pin.crba(self.model, self.data, q)
        m = np.triu(m) + np.triu(m, 1).T
        h = pin.rnea(self.model, self.data, q, vp, np.zeros(self.model.nv))
        return t.T @ (h + m @ self.Tdot_u(gc, gv))

    def frames(self, gc):
        """{name: (position, rotation, J_linear (3 x nv), J_angular (3 x nv))} in torsion's gv."""
        q = self.q_pin(gc)
        t = self.T(gc)
        pin.computeJointJacobians(self.model, self.data, q)
        pin.framesForwardKinematics(self.model, self.data, q)
        out = {}
        for fid, f in enumerate(self.model.frames):
            if f.type != pin.FrameType.OP_FRAME:
                continue
            j = pin.getFrameJacobian(self.model, self.data, fid, pin.LOCAL_WORLD_ALIGNED) @ t
            om = self.data.oMf[fid]
            out[f.name] = (om.translation.copy(), om.rotation.copy(), j[:3], j[3:])
        return out


@pytest.fixture
def oracle():
    if pin is None:
        pytest.fail("the Pinocchio oracle needs the `pin` package: pip install pin (test extra)")
    return Oracle


def standing_quadruped(w, height=0.33, kp=None, kd=None):
    """The bundled quadruped in its standing pose with its base at `height` in world `w`, with PD
    gains kp, kd (every dof; the base's are ignored) holding that pose when given. Returns
    (system, gc)."""
    import torsion

    q = w.add_articulated_system(torsion.robots.urdf_path("quadruped"))
    gc = q.get_generalized_coordinate()
    gc[2] = height
    gc[7:] = torsion.robots.QUADRUPED_STAND
    q.set_generalized_coordinate(gc)
    if kp is not None:
        q.set_pd_gains(np.full(18, kp), np.full(18, kd))
        q.set_pd_target(gc, np.zeros(18))
    return q, gc
