// World's methods: one place that says where they are defined and in which order.
//
// bind_world() (bind_world.cpp) registers the class early, so every class bound after it can name
// World in its signatures. Once every area has bound its own classes, module.cpp calls
// bind_world_methods(), which adds World's methods by calling one helper per area in this fixed
// order (the order of the declarations below). The order matters only for overloads defined in
// two areas (__init__: the core's World() first, then bind_state's World(path, ...)); within an
// area a helper keeps its definitions in their order. thread_guard::install runs after it and
// wraps every one of them; a raw fast-call method (integrate, capture_state, restore_state)
// takes thread_guard::CallUse itself and is declared with declare_self_guarded in its helper.
#pragma once

#include <pybind11/pybind11.h>

#include <memory>

#include "world/world.hpp"

namespace torsion::bindings {

using WorldClass = pybind11::class_<World, std::shared_ptr<World>>;

void world_methods_core(WorldClass& world);         // bind_world.cpp: time, gravity, objects, step
void world_methods_articulated(WorldClass& world);  // bind_articulated.cpp: add_articulated_system
void world_methods_query(WorldClass& world);        // bind_query.cpp: rays, depth camera, noise
// bind_collision.cpp: settings, filters, contacts (m: the module, for its record dtypes)
void world_methods_collision(pybind11::module_& m, WorldClass& world);
void world_methods_contact(WorldClass& world);      // bind_contact.cpp: materials, solver, ERP
void world_methods_mesh(WorldClass& world);         // bind_mesh.cpp: add_mesh, add_compound
void world_methods_terrain(WorldClass& world);      // bind_terrain.cpp: add_height_map
void world_methods_mjcf(WorldClass& world);         // bind_mjcf.cpp: load_mjcf_file
void world_methods_state(WorldClass& world);        // bind_state.cpp: checkpoints, XML, lock
void world_methods_batch(WorldClass& world);        // bind_batch.cpp: capture/restore_state
void world_methods_wires(WorldClass& world);        // bind_wires.cpp: wires, remove_object(wire)
void world_methods_tendons(WorldClass& world);      // bind_tendons.cpp: tendons, couplings
void world_methods_deformable(WorldClass& world);   // bind_deformable.cpp: cloth and solids
void world_methods_granular(WorldClass& world);     // bind_granular.cpp: granular systems

// every helper above, in that order (bind_world.cpp); after every bind_<area>()
void bind_world_methods(pybind11::module_& m);

}  // namespace torsion::bindings
