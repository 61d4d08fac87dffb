// torsion world XML: a readable config of a whole world (World seed: World(configFile, params),
// exportToXml, getConfigFile). Parse with pugixml, build through the World's public API.
//
//   <torsion version="1">
//     <world time_step="0.001" gravity="0 0 -9.81" time="0" sensor_noise_seed="0"/>
//     <contact margin=".." max_points_per_pair=".." .../>      (optional: ContactSettings)
//     <solver alpha_init=".." ... fixed_order="false" max_depenetration_velocity="1 (inf: no cap)"
//             position_correction="0.2"
//             compact_kernel="true" articulated_contact_space="true"/>  (optional: the solver)
//     <sleeping enabled="false" linear_threshold=".." angular_threshold=".." quiet_steps=".."/>
//     <materials>
//       <default friction=".." restitution=".." .../>
//       <pair material1="steel" material2="rubber" friction=".." .../>
//     </materials>
//     <objects>
//       <sphere name="ball" radius="0.1" mass="1" material="default" collision_group="1"
//               collision_mask="18446744073709551615" body_type="dynamic">
//         <state position="x y z" orientation="w x y z" linear_velocity=".." angular_velocity=".."/>
//         <inertia value="9 numbers, row-major (kg m^2, body frame about the COM)"/>
//         <damping linear=".." angular="x y z"/>
//       </sphere>
//       <box size="lx ly lz" mass=".."/>  <cylinder radius=".." height=".." mass=".."/>
//       <capsule radius=".." height=".." mass=".."/>
//       <ground z_height="0" material=".." collision_group=".." collision_mask=".."/>
//       <heightmap x_samples="nx" y_samples="ny" x_size=".." y_size=".." center_x=".."
//                  center_y=".." material="..">
//         <heights>nx*ny numbers, x fastest; nan or inf are holes</heights>
//       </heightmap>
//       <deformable_terrain (as heightmap: its initial heights)>
//         <heights>..</heights>
//         <soil k_c k_phi n cohesion friction_angle janosi_shear elastic_stiffness damping
//               elastic_rebound bulldozing bulldozing_flow erosion_angle erosion_iterations/>
//         <soil_state level reference plastic pressure shear in_contact/>  (per node, x fastest;
//               optional: absent, the soil is undisturbed)
//       </deformable_terrain>
//       <compound mass=".." material="..">   (state, inertia, damping as for a sphere)
//         <child shape="sphere|box|cylinder|capsule" size="3 numbers: r - - | lx ly lz | r h -"
//                position="x y z (body frame: origin at the COM)" rotation="9 numbers,
//                row-major" material=".."/>
//       </compound>
//       <mesh mode="convex_hull|convexify|original_mesh" com="x y z (mesh frame)" scale=".."
//             source="file it came from" mass=".." material=".." ...>  (state, inertia, damping
//                                                    as for a sphere; inertia required)
//         <asset file="stem_meshes/mesh_<index>_<k>.obj" material=".."/>  (one per convex part;
//               OBJ in the body frame: origin at the centre of mass, written beside the XML)
//       </mesh>
//       <articulated urdf="robot.urdf" res_path="" fixed_base="auto|true|false" joint_order=""
//                    collision_group="1" collision_mask=".." self_collision="false"
//                    do_not_collide_with_parent="true">
//         <link index="body index" name="its URDF link" material=".." collision_group=".."
//               collision_mask=".."/>   (links whose properties differ from the system's)
//         <urdf_text>...</urdf_text>    (instead of urdf=: the URDF itself; split CDATA pieces
//                                        are joined)
//         <state gc=".." gv=".."/>
//         <control mode="force_and_torque|pd" kp=".." kd=".." q_ref=".." u_ref=".."
//                  feedforward=".."/>
//       </articulated>
//     </objects>
//     <granular>                       (optional: granular systems, in the order they were added)
//       <system num_threads="1" substep_factor="1" collision_group="1" collision_mask="..">
//         <material density=".." youngs_modulus=".." poisson_ratio=".." restitution=".."
//                   friction=".." rolling_friction=".."/>   (one per material id, in order)
//         <wall_material .../>  <ground_plane enabled="true" height="0"/>
//         <box_container enabled="false" lower="x y z" upper="x y z"/>
//         <particles radii=".." material_ids=".." fixed="indices of fixed particles"/>
//         <state positions=".." velocities=".." angular_velocities=".."/>   (3 per particle)
//       </system>                      (contact histories are not written: they start relaxed)
//     </granular>
//   </torsion>
//
// Every attribute but the shape sizes and masses is optional (defaults as the API's). Relative
// URDF paths are relative to the XML file. Any text may hold @@name tokens, replaced by the
// params given with the file before parsing; the writer escapes "@@" in what it writes (the first
// '@' as &#64;, or a CDATA section split between the two), so written names come back as they
// were. Numbers are written with %.17g, so a reloaded world is bit-for-bit the exported one
// (objects get ids in document order). Mesh objects' collision geometry is written to
// OBJ files in "<file stem>_meshes/" beside the XML, in the body frame and with 17 digits, and
// rebuilt from them bit for bit (hull vertices keep their order through quickhull).
// Integer attributes (counts, iterations, seeds) must be whole decimal numbers in range; the
// version must be 1, and a file without one is read as version 1.
#pragma once

#include <map>
#include <string>

namespace torsion {

class World;

// Replaces every @@name token (name: letters, digits, '_') by params[name]; std::invalid_argument
// naming every missing parameter.
std::string substitute_template_params(const std::string& text,
                                       const std::map<std::string, std::string>& params);

// Builds `world` (a fresh one) from the file: std::invalid_argument for an unreadable or
// malformed file (naming the element), or an MJCF file ("not yet supported").
void load_world_xml(World& world, const std::string& path,
                    const std::map<std::string, std::string>& params);

// Writes the world's configuration and current state. std::invalid_argument if the file cannot
// be written; std::logic_error mid-step.
void export_world_xml(World& world, const std::string& path);

}  // namespace torsion
