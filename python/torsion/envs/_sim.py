"""What a task sees of the simulation: N robots, read and driven through (N, ...) arrays.

Two backends share one interface, so a task's NumPy code runs unchanged on both:

- :class:`WorldSim` drives one ``torsion.World`` (N = 1): the single Gymnasium environments.
- :class:`BatchSim` drives a ``torsion.WorldBatch`` (N worlds stepped in C++ threads): the
  vector environment.

After :meth:`read`, ``gc`` (N, gc_dim), ``gv`` (N, dof), ``frame_pos`` (N, F, 3) (the task's
``frames``) and ``frame_rot`` (N, G, 3, 3) (its ``orientation_frames``, frame to world) hold the
robots' state; the arrays are preallocated and overwritten in place by every read.
"""

from __future__ import annotations

from typing import Optional, Sequence

import numpy as np


class WorldSim:
    """One World and one robot in it, seen as a batch of one."""

    num_worlds = 1

    def __init__(self, world, robot_name: str, frames: Sequence[str] = (),
                 orientation_frames: Sequence[str] = ()):
        self._world = world
        self._robot = world.get_object(robot_name)
        self._frames = [self._robot.get_frame_index_by_name(f) for f in frames]
        self._rot_frames = [self._robot.get_frame_index_by_name(f) for f in orientation_frames]
        # the state every reset starts from: the lean WorldState (motion only; the configuration
        # set at build never changes), much cheaper to restore than a full Checkpoint
        self._initial = world.capture_state()
        self.gc = np.empty((1, self._robot.get_generalized_coordinate_dim()))
        self.gv = np.empty((1, self._robot.get_dof()))
        self._zero_gv = np.zeros((1, self._robot.get_dof()))
        self.frame_pos = np.empty((1, len(self._frames), 3))
        self.frame_rot = np.empty((1, len(self._rot_frames), 3, 3))

    def world(self, index: int = 0):
        if index != 0:
            raise IndexError(f"index must be 0 for a single world, got {index}")
        return self._world

    def read(self) -> None:
        self.gc[0] = self._robot.get_generalized_coordinate()
        self.gv[0] = self._robot.get_generalized_velocity()
        for k, f in enumerate(self._frames):
            self.frame_pos[0, k] = self._robot.get_frame_position(f)
        for k, f in enumerate(self._rot_frames):
            self.frame_rot[0, k] = self._robot.get_frame_orientation(f)

    def set_pd_targets(self, positions: np.ndarray, velocities: Optional[np.ndarray] = None) -> None:
        """positions (1, gc_dim); velocities (1, dof), None for zero."""
        if velocities is None:
            velocities = self._zero_gv
        self._robot.set_pd_target(positions[0], velocities[0])

    def set_generalized_forces(self, tau: np.ndarray) -> None:
        self._robot.set_generalized_force(tau[0])

    def integrate(self, steps: int) -> None:
        self._world.integrate(steps)

    def reset(self, indices: np.ndarray, gc: np.ndarray, gv: np.ndarray) -> None:
        """Back to the captured initial state, then the robot to (gc, gv)."""
        self._world.restore_state(self._initial)
        self._robot.set_state(gc[0], gv[0])

    def ray_distances(self, starts: np.ndarray, directions: np.ndarray, lengths: np.ndarray,
                      collision_mask: int) -> np.ndarray:
        """(1, R) hit distances (inf where nothing is hit) of rays given as (1, R, 3) arrays."""
        hits = self._world.ray_test_batch(starts[0], directions[0], lengths[0], collision_mask,
                                          num_threads=1)
        return hits.distance[None, :]


class BatchSim:
    """``num_worlds`` worlds built by ``task.build`` in one ``torsion.WorldBatch``, the robot in
    each read and written through one ArticulatedView (no per-world Python on the hot path)."""

    def __init__(self, task, num_worlds: int, num_threads: int = 0):
        import torsion

        self._batch = torsion.WorldBatch(task.build, num_worlds, num_threads)
        self._view = self._batch.articulated(task.robot_name)
        first = self._batch.world(0)
        # frame indices, not names: the view then skips a name lookup per frame and call
        robot = first.get_object(task.robot_name)
        self._frames = [robot.get_frame_index_by_name(f) for f in task.frames]
        self._rot_frames = [robot.get_frame_index_by_name(f) for f in task.orientation_frames]
        # every world starts from the same built state: world 0's WorldState restores any of them
        self._initial = first.capture_state()
        self.robot_index = first.get_object(task.robot_name).get_index_in_world()
        self.num_worlds = n = len(self._batch)
        self.gc = np.empty((n, self._view.gc_dim))
        self.gv = np.empty((n, self._view.dof))
        self.frame_pos = np.empty((n, len(self._frames), 3))
        self.frame_rot = np.empty((n, len(self._rot_frames), 3, 3))
        self._dist = None

    @property
    def batch(self):
        """The torsion.WorldBatch (for inspection: state_hashes(), world(i))."""
        return self._batch

    def world(self, index: int):
        return self._batch.world(index)

    def read(self) -> None:
        # gc, gv and the orientations in one visit of every world (each visit of the N worlds
        # after a step is mostly cache misses)
        self._view.read_state(self.gc, self.gv, self._rot_frames, self.frame_rot)
        if self._frames:
            self._view.get_frame_positions(self._frames, self.frame_pos)

    def set_pd_targets(self, positions: np.ndarray, velocities: Optional[np.ndarray] = None) -> None:
        """positions (N, gc_dim); velocities (N, dof), None for zero."""
        self._view.set_pd_targets(positions, velocities)

    def set_generalized_forces(self, tau: np.ndarray) -> None:
        self._view.set_generalized_forces(tau)

    def integrate(self, steps: int) -> None:
        self._batch.integrate(steps)

    def reset(self, indices: np.ndarray, gc: np.ndarray, gv: np.ndarray) -> None:
        self._batch.restore(indices, self._initial)
        self._view.set_states(indices, gc, gv)

    def ray_distances(self, starts, directions, lengths, collision_mask: int) -> np.ndarray:
        if self._dist is None or self._dist.shape != lengths.shape:
            self._dist = np.empty(lengths.shape)
        return self._batch.ray_test_batch(starts, directions, lengths, collision_mask, out=self._dist)
