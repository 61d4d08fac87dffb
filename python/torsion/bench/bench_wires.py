"""Wire benchmark: a 100-segment rope, torsion vs MuJoCo.

The same rope in both engines: N = 100 spheres (radius 0.02 m, 0.05 kg) in a horizontal line,
the first hung from a fixed point 0.05 m away, each joined to the next by an inextensible cable
of 0.05 m attached at the centres; no collisions (the rope falls and swings freely), dt = 1 ms,
gravity -9.81 m/s^2.
  - torsion: stiff wires (World.add_stiff_wire) between the spheres, a static anchor;
  - MuJoCo: free-jointed spheres with a site at each centre and one spatial tendon per segment,
    limited to range [0, 0.05] (MuJoCo's unilateral length limit: the rope's equivalent), default
    solver (Newton) and, as a labelled variant, CG.
Measured: steps/s over the swing (the rope released from horizontal; `warm` steps first, then
timed), and the largest segment stretch at the end (m, in the note): how well each keeps the
cable's length.
"""

from __future__ import annotations

import numpy as np

from torsion.bench._common import Result, best_rate, optional_import

N = 100
SEG = 0.05
RADIUS = 0.02
MASS = 0.05
DT = 1e-3
Z = 6.0  # the anchor's height: the rope (5 m) never reaches the ground


def make_torsion():
    import torsion

    w = torsion.World()
    w.set_time_step(DT)
    anchor = w.add_sphere(RADIUS, 1.0, collision_mask=0)
    anchor.set_position([0.0, 0.0, Z])
    anchor.set_body_type(torsion.BodyType.STATIC)
    prev = anchor
    balls = []
    for k in range(N):
        b = w.add_sphere(RADIUS, MASS, collision_mask=0)
        b.set_position([(k + 1) * SEG, 0.0, Z])
        w.add_stiff_wire(prev, 0, [0, 0, 0], b, 0, [0, 0, 0], SEG)
        balls.append(b)
        prev = b

    def stretch():
        p = np.array([[0.0, 0.0, Z]] + [b.get_position() for b in balls])
        return float((np.linalg.norm(np.diff(p, axis=0), axis=1) - SEG).max())

    return w.integrate, stretch


def make_mujoco(solver):
    mujoco = optional_import("mujoco")
    if mujoco is None:
        return None
    bodies = "".join(
        f'<body pos="{(k + 1) * SEG} 0 {Z}"><freejoint/>'
        f'<geom type="sphere" size="{RADIUS}" mass="{MASS}" contype="0" conaffinity="0"/>'
        f'<site name="s{k + 1}"/></body>' for k in range(N))
    tendons = "".join(
        f'<spatial limited="true" range="0 {SEG}"><site site="s{k}"/><site site="s{k + 1}"/>'
        f'</spatial>' for k in range(N))
    xml = f"""<mujoco><option timestep="{DT}" solver="{solver}" gravity="0 0 -9.81"/>
      <worldbody><site name="s0" pos="0 0 {Z}"/>{bodies}</worldbody>
      <tendon>{tendons}</tendon></mujoco>"""
    m = mujoco.MjModel.from_xml_string(xml)
    d = mujoco.MjData(m)

    def step():
        mujoco.mj_step(m, d)

    def stretch():
        return float((d.ten_length - SEG).max())

    return step, stretch


def benchmarks(quick: bool) -> list[Result]:
    workload = f"rope of {N} spheres, stiff wires / limited tendons, swing"
    warm = 200 if quick else 1000
    out = []
    engines = [("torsion", make_torsion())]
    for name, solver in (("mujoco", "Newton"), ("mujoco-cg", "CG")):
        made = make_mujoco(solver)
        if made is not None:
            engines.append((name, made))
    for name, (step, stretch) in engines:
        for _ in range(warm):
            step()
        rate = best_rate(step, 1.0, repeats=3 if quick else 5, min_time=0.2 if quick else 0.5)
        out.append(Result(workload, name, rate, "steps/s",
                          note=f"max segment stretch {stretch():.2e} m"))
    return out
