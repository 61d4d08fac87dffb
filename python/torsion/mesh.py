"""Mesh helpers that live in Python: reading formats other than OBJ/STL through trimesh, and the
CoACD convex decomposition behind ``MeshCollisionMode.CONVEXIFY``.

Both packages are optional (``pip install trimesh`` / ``pip install coacd``); a missing one gives
a clear ImportError naming it. World.add_mesh calls into this module; users rarely need it.
"""

from __future__ import annotations

import dataclasses
import warnings

import numpy as np

__all__ = ["CoacdOptions"]


@dataclasses.dataclass
class CoacdOptions:
    """Parameters of the CoACD convex decomposition (Wei et al., SIGGRAPH 2022), passed to
    ``coacd.run_coacd``. Defaults are CoACD's own.

    threshold: concavity threshold (0.01..1); lower gives more, tighter parts.
    max_convex_hull: maximum number of parts (-1: no limit).
    preprocess_mode: "auto", "on" or "off" (manifold preprocessing).
    preprocess_resolution: voxel resolution of the preprocessing.
    resolution: sampling resolution of the Hausdorff distance.
    mcts_nodes, mcts_iterations, mcts_max_depth: the Monte-Carlo tree search.
    pca: align with principal axes first. merge: merge parts afterwards.
    decimate, max_ch_vertex: limit the vertices of each part.
    extrude, extrude_margin: extrude neighbouring parts. apx_mode: "ch" or "box".
    seed: random seed (decompositions are repeatable for a fixed seed).
    """

    threshold: float = 0.05
    max_convex_hull: int = -1
    preprocess_mode: str = "auto"
    preprocess_resolution: int = 50
    resolution: int = 2000
    mcts_nodes: int = 20
    mcts_iterations: int = 150
    mcts_max_depth: int = 3
    pca: bool = False
    merge: bool = True
    decimate: bool = False
    max_ch_vertex: int = 256
    extrude: bool = False
    extrude_margin: float = 0.01
    apx_mode: str = "ch"
    seed: int = 0


def _load_with_trimesh(path: str):
    """(vertices (n, 3) float64, faces (m, 3) int64) of any format trimesh reads."""
    try:
        import trimesh
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError(
            f"mesh file {path!r}: torsion reads .obj and .stl itself; other formats need the "
            "trimesh package (pip install trimesh)"
        ) from e
    try:
        loaded = trimesh.load(path, force="mesh", process=False)
    except Exception as e:
        raise ValueError(f"mesh file {path!r} could not be read by trimesh: {e}") from e
    vertices = np.asarray(getattr(loaded, "vertices", np.empty((0, 3))), dtype=np.float64)
    faces = np.asarray(getattr(loaded, "faces", np.empty((0, 3))), dtype=np.int64)
    if vertices.size == 0 or faces.size == 0:
        raise ValueError(f"mesh file {path!r}: the mesh is empty (no vertices or faces)")
    return vertices.reshape(-1, 3), faces.reshape(-1, 3)


def _referenced_only(vertices, faces):
    """The vertices the faces use, in their first-use order, and the faces renumbered (as
    World.add_mesh builds the body: a vertex no face uses is not part of it, so CoACD must not
    see it either, or its parts would reach out to the stray point)."""
    vertices = np.asarray(vertices, dtype=np.float64).reshape(-1, 3)
    faces = np.asarray(faces, dtype=np.int64).reshape(-1, 3)
    flat = faces.reshape(-1)
    _, first = np.unique(flat, return_index=True)
    used = flat[np.sort(first)]  # first-use order, as the C++ side renumbers
    index = np.full(len(vertices), -1, dtype=np.int64)
    index[used] = np.arange(len(used))
    return vertices[used], index[faces].astype(np.int32)


def _convexify(vertices, faces, options):
    """The convex parts of a mesh as a list of (k, 3) vertex arrays, or [] after a warning when
    the decomposition fails (World.add_mesh then uses one convex hull, as the seed says)."""
    if options is None:
        options = CoacdOptions()
    if not isinstance(options, CoacdOptions):
        raise ValueError(f"coacd_options must be a torsion.CoacdOptions, got {type(options).__name__}")
    try:
        import coacd
    except ImportError as e:
        raise ImportError(
            "MeshCollisionMode.CONVEXIFY needs the coacd package (pip install coacd)"
        ) from e
    try:
        coacd.set_log_level("error")  # CoACD logs every step at "info"
        vertices, faces = _referenced_only(vertices, faces)
        mesh = coacd.Mesh(vertices, faces)
        parts = coacd.run_coacd(mesh, **dataclasses.asdict(options))
        out = [np.asarray(p[0], dtype=np.float64).reshape(-1, 3) for p in parts]
        if not out:
            raise RuntimeError("no parts")
        return out
    except Exception as e:  # CoACD failed: one hull instead, as the seed says
        warnings.warn(
            f"convex decomposition failed ({e}); using one convex hull instead",
            RuntimeWarning,
            stacklevel=3,
        )
        return []
