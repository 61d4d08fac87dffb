"""Free rigid bodies, no contacts: the cost of the integrator and of a step called from Python.

Workloads (same scene in every engine, dt = 1 ms, no gravity so nothing collides):
- 1000 free boxes tumbling with contacts off: bodies-steps/s of the bare integrator
  (MuJoCo with contact disabled; PyBullet with every collision filtered out).
- one free box, one step per Python call: the per-call overhead of stepping from Python.

It also prints torsion's step profile (World.get_step_profile()) of the settled 100-cube pile of
bench_contact.py: where a contact-heavy step spends its time, stage by stage.
"""

from __future__ import annotations

import numpy as np

import torsion
from torsion.bench._common import Result, best_rate, format_step_profile, optional_import

N_BODIES = 1000


def _torsion_world(n):
    world = torsion.World()
    world.set_gravity([0, 0, 0])
    rng = np.random.default_rng(0)
    for i in range(n):
        b = world.add_box(0.1, 0.2, 0.3, 1.0, collision_group=0, collision_mask=0)
        b.set_position([i * 1.0, 0.0, 0.0])
        b.set_angular_velocity(rng.normal(size=3))
    return world


def _mujoco_model(mujoco, n):
    bodies = "".join(
        f'<body pos="{i} 0 0"><freejoint/><geom type="box" size="0.05 0.1 0.15" mass="1"/></body>' for i in range(n)
    )
    xml = f"""<mujoco><option timestep="0.001" gravity="0 0 0"><flag contact="disable"/></option>
    <worldbody>{bodies}</worldbody></mujoco>"""
    model = mujoco.MjModel.from_xml_string(xml)
    data = mujoco.MjData(model)
    rng = np.random.default_rng(0)
    for i in range(n):
        data.qvel[6 * i + 3 : 6 * i + 6] = rng.normal(size=3)
    return model, data


def _pybullet_world(pybullet, n):
    client = pybullet.connect(pybullet.DIRECT)
    pybullet.setGravity(0, 0, 0, physicsClientId=client)
    pybullet.setTimeStep(1e-3, physicsClientId=client)
    shape = pybullet.createCollisionShape(pybullet.GEOM_BOX, halfExtents=[0.05, 0.1, 0.15], physicsClientId=client)
    rng = np.random.default_rng(0)
    for i in range(n):
        body = pybullet.createMultiBody(1.0, shape, basePosition=[i * 1.0, 0, 0], physicsClientId=client)
        pybullet.setCollisionFilterGroupMask(body, -1, 0, 0, physicsClientId=client)
        pybullet.resetBaseVelocity(body, [0, 0, 0], rng.normal(size=3).tolist(), physicsClientId=client)
    return client


def print_step_profile(quick: bool) -> None:
    """The step profile of bench_contact's 100-cube pile, settled, printed before the table."""
    from torsion.bench.bench_contact import make_torsion

    step = make_torsion(100)[0]
    world = step.__self__
    world.integrate(300 if quick else 1500)
    world.set_step_profile_enabled(True)
    steps = 50 if quick else 300
    world.integrate(steps)
    print(format_step_profile(world.get_step_profile(), "100 cubes, settled pile (bench_contact)"),
          flush=True)


def benchmarks(quick: bool) -> list[Result]:
    print_step_profile(quick)
    results = []
    steps = 10 if quick else 100
    min_time = 0.05 if quick else 0.3
    mujoco = optional_import("mujoco")
    pybullet = optional_import("pybullet")

    # 1000 free bodies
    name = f"{N_BODIES} free boxes, no contacts, dt 1 ms"
    world = _torsion_world(N_BODIES)
    rate = best_rate(lambda: world.integrate(steps), steps * N_BODIES, min_time=min_time)
    results.append(Result(name, "torsion", rate, "body-steps/s"))
    if mujoco is not None:
        model, data = _mujoco_model(mujoco, N_BODIES)
        rate = best_rate(lambda: mujoco.mj_step(model, data, nstep=steps), steps * N_BODIES, min_time=min_time)
        results.append(Result(name, "mujoco", rate, "body-steps/s"))
    else:
        results.append(Result(name, "mujoco", 0.0, "body-steps/s", note="not installed"))
    if pybullet is not None:
        client = _pybullet_world(pybullet, N_BODIES)

        def pb_steps():
            for _ in range(steps):
                pybullet.stepSimulation(physicsClientId=client)

        rate = best_rate(pb_steps, steps * N_BODIES, min_time=min_time)
        pybullet.disconnect(client)
        results.append(Result(name, "pybullet", rate, "body-steps/s"))

    # one body, one step per Python call
    name = "1 free box, one step per Python call"
    world = _torsion_world(1)
    rate = best_rate(world.integrate, 1, min_time=min_time)
    results.append(Result(name, "torsion", 1e6 / rate, "us/step", higher_is_better=False))
    if mujoco is not None:
        model, data = _mujoco_model(mujoco, 1)
        rate = best_rate(lambda: mujoco.mj_step(model, data), 1, min_time=min_time)
        results.append(Result(name, "mujoco", 1e6 / rate, "us/step", higher_is_better=False))
    if pybullet is not None:
        client = _pybullet_world(pybullet, 1)
        rate = best_rate(lambda: pybullet.stepSimulation(physicsClientId=client), 1, min_time=min_time)
        pybullet.disconnect(client)
        results.append(Result(name, "pybullet", 1e6 / rate, "us/step", higher_is_better=False))
    return results
