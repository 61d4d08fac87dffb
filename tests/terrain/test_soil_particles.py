"""Granular particles press a deformable terrain (docs/soil.md, "Particles on soil"): their
pushes on its surface are the soil's load, so a layer of known weight sinks it as Bekker's
pressure-sinkage formula says for that pressure, the soil takes exactly what the particles push
(action = reaction), and the particles stay on the sunk surface."""

import numpy as np
import pytest

import torsion

Material = torsion.DeformableTerrain.Material
DX = 0.01  # node spacing (m)
G = 9.81


def flat_terrain(world, size=0.3, soil=None):
    n = int(round(size / DX)) + 1
    return world.add_deformable_terrain(n, n, size, size, 0.0, 0.0, np.zeros(n * n),
                                        soil=soil if soil is not None else Material())


def bekker_sinkage(soil, pressure, b):
    """Bekker's plate sinkage z = (p / (k_c / b + k_phi))^(1/n)."""
    return (pressure / (soil.k_c / b + soil.k_phi)) ** (1.0 / soil.n)


# steel shot (a heavy layer) with a modulus lowered as DEM practice does
SHOT = dict(density=7800.0, youngs_modulus=1e7, poisson_ratio=0.3, restitution=0.3,
            friction=0.5, rolling_friction=0.05)


def layer_on_soil(soil, layers=3, half=0.1, r=0.01, ramp=300, hold=300):
    """A column of `layers` layers of particles (r = 1 cm, one diameter apart) filling a
    2 half x 2 half square box with frictionless walls (they carry no weight), resting on the soil
    at z = 0. Gravity is ramped up over `ramp` steps (a quasi-static load, as the plate test's
    force) and held for `hold` steps."""
    w = torsion.World()
    t = flat_terrain(w, soil=soil)
    grains = w.add_granular_box(box_lower=[-half, -half, 0.0],
                                box_upper=[half, half, 2 * r * layers],
                                particle_radius=r, material=torsion.GranularMaterial(**SHOT))
    grains.set_box_container([-half, -half, -1.0], [half, half, 1.0])
    grains.set_wall_material(torsion.GranularMaterial(**{**SHOT, "friction": 0.0,
                                                         "rolling_friction": 0.0}))
    for k in range(ramp + hold):
        w.set_gravity([0, 0, -G * min(1.0, (k + 1) / ramp)])
        w.integrate()
    return w, t, grains


@pytest.mark.parametrize("soil", [
    Material(),  # Wong's dry sand
    Material(k_c=20e3, k_phi=400e3, n=0.8, cohesion=4e3, friction_angle=np.radians(15)),  # clay
], ids=["dry_sand", "clay"])
def test_a_layer_of_particles_sinks_the_soil_as_bekker_says(soil):
    half = 0.1
    w, t, grains = layer_on_soil(soil, half=half)
    weight = G * np.sum(grains.get_masses())
    load = t.get_particle_load()
    # the soil carries the whole layer (the walls are frictionless): its push equals the weight
    assert load["force"][2] == pytest.approx(weight, rel=0.005)
    assert abs(load["force"][0]) == 0.0 and abs(load["force"][1]) == 0.0
    # the loaded patch is the box's footprint (its nodes from wall to wall: b one spacing wider)
    assert load["b"] == pytest.approx(2 * half + DX, rel=1e-9)
    pressure = weight / (2 * half) ** 2
    expected = bekker_sinkage(soil, pressure, 2 * half)
    # the nodes two particle diameters and more inside the walls carry the layer's pressure
    sink = t.get_sinkage_map()
    n = sink.shape[0]
    c = n // 2
    inner = sink[c - 6:c + 7, c - 6:c + 7]
    assert inner.mean() == pytest.approx(expected, rel=0.03)
    assert inner.max() - inner.min() < 0.1 * expected
    assert t.get_pressure_map()[c - 6:c + 7, c - 6:c + 7].mean() == pytest.approx(pressure,
                                                                                  rel=0.03)
    # outside the box the soil is untouched
    assert sink[:, :5].max() < 1e-9 and sink[:5, :].max() < 1e-9
    # the particles rest on the sunk surface, none in it deeper than the Hertz overlap
    pos = grains.get_positions()
    bottom = pos[:, 2] < 0.015
    assert bottom.sum() == 100
    gap = np.array([p[2] - 0.01 - t.get_height(p[0], p[1]) for p in pos[bottom]])
    assert gap.min() > -2e-4 and gap.max() < 2e-4
    assert np.all(np.abs(grains.get_velocities()) < 5e-3)


def dropped(seed):
    """Particles (r = 8 mm) on a jittered grid 2.5 cm apart, 5 x 5 x 3, from 2 cm up."""
    g = np.arange(-2, 3) * 0.025
    pts = np.array([(x, y, 0.02 + 0.025 * k) for k in range(3) for y in g for x in g])
    return pts + np.random.default_rng(seed).uniform(-0.003, 0.003, pts.shape)


def test_the_soil_takes_exactly_the_particles_push():
    # particles falling onto soil: in every step the soil's load is the mean push of the
    # particles on its surface over the DEM substeps (the granular stage's reaction on it)
    w = torsion.World()
    t = flat_terrain(w, soil=Material(k_phi=300e3))
    pts = dropped(4)
    grains = w.add_granular_particles(pts, np.full(len(pts), 0.008),
                                      torsion.GranularMaterial(**SHOT))
    steps_with_load = 0
    for _ in range(400):
        w.integrate()
        push = grains.get_stats()["shape_force"][2]  # the particles' push on the terrain
        load = t.get_particle_load()
        assert load["force"][2] == pytest.approx(-push, rel=1e-12, abs=1e-12)
        steps_with_load += load["nodes"] > 0
    assert steps_with_load > 300
    # at rest the soil holds their weight, and they lie in the dents they made
    weight = G * np.sum(grains.get_masses())
    for _ in range(600):
        w.integrate()
    assert t.get_particle_load()["force"][2] == pytest.approx(weight, rel=0.01)
    pos = grains.get_positions()
    under = np.array([t.get_height(p[0], p[1]) for p in pos])
    assert np.all(pos[:, 2] - 0.008 > under - 3e-4)  # none through the surface
    assert np.all(under < 0.0)  # each sits in a dent


def test_particles_on_soil_step_bitwise_on_any_thread_count_and_after_a_checkpoint():
    def run(threads, restore_at=None):
        w = torsion.World()
        t = flat_terrain(w, soil=Material(k_phi=300e3, elastic_rebound=False))
        pts = dropped(9)
        g = w.add_granular_particles(pts, np.full(len(pts), 0.008),
                                     torsion.GranularMaterial(**SHOT))
        g.num_threads = threads
        for k in range(200):
            if k == restore_at:
                cp = w.capture_checkpoint()
                w.integrate(7)
                w.restore_checkpoint(cp)
            w.integrate()
        return t.get_height_map(), g.get_positions(), w.state_hash()

    h1, p1, s1 = run(1)
    h2, p2, s2 = run(2, restore_at=120)
    assert np.array_equal(h1, h2) and np.array_equal(p1, p2) and s1 == s2
    assert h1.min() < 0.0


def test_without_particles_nothing_changes():
    w = torsion.World()
    t = flat_terrain(w)
    w.integrate(10)
    load = t.get_particle_load()
    assert load["nodes"] == 0 and np.all(load["force"] == 0.0)
    assert np.all(t.get_sinkage_map() == 0.0)


def test_world_xml_round_trip_of_particles_on_soil(tmp_path):
    # the soil's dents and state reload exactly with the particles; the reloaded particles (their
    # contact histories restart relaxed, docs/granular.md) keep pressing it as the source's do
    w = torsion.World()
    t = flat_terrain(w, soil=Material(k_phi=300e3))
    t.set_name("soil")
    pts = dropped(5)
    g = w.add_granular_particles(pts, np.full(len(pts), 0.008), torsion.GranularMaterial(**SHOT))
    w.integrate(600)
    path = tmp_path / "soil.xml"
    w.export_to_xml(str(path))
    w2 = torsion.World(str(path))
    t2 = w2.get_object("soil")
    assert np.array_equal(t2.get_height_map(), t.get_height_map())
    assert np.array_equal(t2.get_plastic_sinkage_map(), t.get_plastic_sinkage_map())
    path2 = tmp_path / "again.xml"
    w2.export_to_xml(str(path2))
    assert path2.read_text() == path.read_text()
    w.integrate(200)
    w2.integrate(200)
    g2 = w2.get_granular_systems()[0]
    # (restarted histories let a particle resting on a dent's side shift a little before its
    # springs hold again: within an eighth of a radius)
    np.testing.assert_allclose(g2.get_positions(), g.get_positions(), atol=1e-3)
    np.testing.assert_allclose(t2.get_height_map(), t.get_height_map(), atol=2e-4)
    assert t2.get_particle_load()["force"][2] == pytest.approx(t.get_particle_load()["force"][2],
                                                               rel=0.01)
