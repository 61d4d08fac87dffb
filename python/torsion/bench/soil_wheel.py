"""A driven rigid wheel on deformable soil (docs/soil.md): torsion's sinkage and drawbar pull
beside Wong's theory for the same wheel and soil.

`simulate_wheel` drives a cylinder (radius r, width b, vertical load W: its weight) at forward
speed v and slip i (angular velocity v / (r (1 - i))) over a flat DeformableTerrain, its height
free, and reports the steady sinkage and the soil's horizontal force on it (the drawbar pull).

`wong_front_arc` is Wong and Reece's rigid-wheel theory restricted to the loaded front arc, the
soil model torsion's terrain implements: normal stress sigma(theta) = (k_c / b + k_phi)
(r (cos theta - cos theta_1))^n on the rim, shear tau = (c + sigma tan phi)(1 - exp(-j / K)) with
j(theta) = r [(theta_1 - theta) - (1 - i)(sin theta_1 - sin theta)], theta_1 from the vertical
balance W = b r int (sigma cos + tau sin), drawbar pull DP = b r int (tau cos - sigma sin)
(J.Y. Wong, Theory of Ground Vehicles, 4th ed., section 2.4 and 2.5).

`bekker_closed_form` is Bekker's classic estimate (small angles, no shear in the balance):
sinkage z0 = (3 W / ((3 - n)(k_c + b k_phi) sqrt(D)))^(2 / (2n + 1)), compaction resistance
R_c = b (k_c / b + k_phi) z0^(n + 1) / (n + 1), thrust H = (A c + W tan phi)(1 - K / (i l)
(1 - exp(-i l / K))) over the contact length l = r theta_1, DP = H - R_c.

Run `python -m torsion.bench.soil_wheel` for the table of docs/soil.md.
"""

from __future__ import annotations

import math

import numpy as np

import torsion


def simulate_wheel(soil, radius=0.25, width=0.15, load=500.0, speed=0.2, slip=0.2,
                   spacing=0.005, settle=0.5, drive=2.5, dt=1e-3, average=1.0):
    """Sinkage (m) and drawbar pull (N) of the wheel, averaged over the last `average` s."""
    length = 0.5 + speed * drive + 0.6
    nx = int(round(length / spacing)) + 1
    ny = int(round(0.3 / spacing)) + 1
    xs = (nx - 1) * spacing
    ys = (ny - 1) * spacing
    w = torsion.World()
    w.set_time_step(dt)
    terrain = w.add_deformable_terrain(nx, ny, xs, ys, xs / 2 - 0.3, 0.0, np.zeros(nx * ny),
                                       soil=soil)
    wheel = w.add_cylinder(radius, width, load / 9.81)
    wheel.set_orientation([math.cos(math.pi / 4), math.sin(math.pi / 4), 0.0, 0.0])  # axis y
    wheel.set_position([0.0025, 0.0025, radius])
    wheel_id = wheel.get_id()
    w.integrate(int(round(settle / dt)))
    omega = speed / (radius * (1.0 - slip))
    steps = int(round(drive / dt))
    keep = int(round(average / dt))
    sinkage, pull = [], []
    for k in range(steps):
        vz = wheel.get_linear_velocity()[2]
        wheel.set_velocity([speed, 0.0, vz], [0.0, omega, 0.0])
        w.integrate()
        if k >= steps - keep:
            sinkage.append(radius - wheel.get_position()[2])
            f = [c["force"] for c in terrain.get_contacts() if c["object_id"] == wheel_id]
            pull.append(f[0][0] if f else 0.0)
    b_used = [c["b"] for c in terrain.get_contacts() if c["object_id"] == wheel_id]
    return float(np.mean(sinkage)), float(np.mean(pull)), (b_used[0] if b_used else width)


def _integrals(soil, radius, width, slip, theta1, b_bekker, shear="rim", rear=False):
    from scipy.integrate import quad

    mod = soil.k_c / b_bekker + soil.k_phi
    tan_phi = math.tan(soil.friction_angle)
    z0 = radius * (1.0 - math.cos(theta1))
    peak = mod * z0 ** soil.n
    # behind the bottom the soil unloads along its elastic stiffness k_e from the peak pressure:
    # sigma = peak - k_e r (1 - cos theta), down to 0 at theta_2
    theta2 = -math.acos(max(-1.0, 1.0 - peak / (soil.elastic_stiffness * radius))) if rear else 0.0

    def sigma(t):
        if t < 0.0:
            return max(0.0, peak - soil.elastic_stiffness * radius * (1.0 - math.cos(t)))
        return mod * max(0.0, radius * (math.cos(t) - math.cos(theta1))) ** soil.n

    def tau(t):
        if shear == "rim":  # Wong: the slip of a rim point, over the time it takes from theta_1
            j = radius * ((theta1 - t) - (1.0 - slip) * (math.sin(theta1) - math.sin(t)))
        else:  # the slip a column of soil at a fixed x sees while the rim passes over it
            j = radius * ((math.sin(theta1) - math.sin(t)) / (1.0 - slip) -
                          0.5 * (theta1 - t) - 0.25 * (math.sin(2 * theta1) - math.sin(2 * t)))
        return (soil.cohesion + sigma(t) * tan_phi) * (1.0 - math.exp(-max(j, 0.0) /
                                                                       soil.janosi_shear))

    vert = quad(lambda t: sigma(t) * math.cos(t) + tau(t) * math.sin(t), theta2, theta1,
                points=[0.0] if rear else None)[0]
    horiz = quad(lambda t: tau(t) * math.cos(t) - sigma(t) * math.sin(t), theta2, theta1,
                 points=[0.0] if rear else None)[0]
    return width * radius * vert, width * radius * horiz


def wong_front_arc(soil, radius=0.25, width=0.15, load=500.0, slip=0.2, b_bekker=None,
                   shear="rim", rear=False):
    """(sinkage m, drawbar pull N) of Wong's theory over the loaded front arc. shear="rim": his
    shear displacement (a rim point's slip since it entered the soil); "column": the slip a
    column of soil at a fixed place accumulates while the rim passes over it, which is what the
    terrain's nodes integrate: sliding at the same speed rw - v cos(theta), a column stays under
    the rim for r cos(theta) / v per radian instead of 1 / w, so its j is larger by up to
    1 / (1 - i) at the bottom. rear=True adds the arc behind the bottom where the soil unloads
    elastically (along elastic_stiffness from the peak pressure), as the terrain's does: with
    shear="column" this is the continuum limit of torsion's soil model for the wheel."""
    from scipy.optimize import brentq

    b = width if b_bekker is None else b_bekker
    theta1 = brentq(
        lambda t: _integrals(soil, radius, width, slip, t, b, shear, rear)[0] - load, 1e-4, 1.5)
    pull = _integrals(soil, radius, width, slip, theta1, b, shear, rear)[1]
    return radius * (1.0 - math.cos(theta1)), pull


def bekker_closed_form(soil, radius=0.25, width=0.15, load=500.0, slip=0.2):
    """(sinkage m, drawbar pull N) of Bekker's closed-form estimates."""
    n, d = soil.n, 2.0 * radius
    z0 = (3.0 * load / ((3.0 - n) * (soil.k_c + width * soil.k_phi) * math.sqrt(d))) ** (
        2.0 / (2.0 * n + 1.0))
    rc = width * (soil.k_c / width + soil.k_phi) * z0 ** (n + 1.0) / (n + 1.0)
    l = radius * math.acos(1.0 - z0 / radius)
    k = soil.janosi_shear
    h = (width * l * soil.cohesion + load * math.tan(soil.friction_angle)) * (
        1.0 - k / (slip * l) * (1.0 - math.exp(-slip * l / k)))
    return z0, h - rc


def main():
    # no damping: the theories are quasi-static
    soil = torsion.DeformableTerrain.Material(damping=0.0)
    print("dry sand (Wong, LLL): k_c 0.99 kN/m^(n+1), k_phi 1528.43 kN/m^(n+2), n 1.1, "
          "c 1.04 kPa, phi 28 deg, K 0.01 m, k_e 2e8 Pa/m; wheel r 0.25 m, b 0.15 m, W 500 N, "
          "v 0.2 m/s, grid 5 mm")
    print("| slip | torsion z0 (mm) | same model, continuum | Wong | Bekker closed form | "
          "torsion DP (N) | same model, continuum | Wong | Bekker closed form |")
    print("|---|---|---|---|---|---|---|---|---|")
    for slip in (0.1, 0.2, 0.4):
        z, dp, b_used = simulate_wheel(soil, slip=slip)
        zc, dpc = wong_front_arc(soil, slip=slip, b_bekker=b_used, shear="column", rear=True)
        zw, dpw = wong_front_arc(soil, slip=slip)
        zb, dpb = bekker_closed_form(soil, slip=slip)
        print(f"| {slip:.1f} | {1e3 * z:.1f} | {1e3 * zc:.1f} | {1e3 * zw:.1f} | {1e3 * zb:.1f} | "
              f"{dp:.0f} | {dpc:.0f} | {dpw:.0f} | {dpb:.0f} |")


if __name__ == "__main__":
    main()
