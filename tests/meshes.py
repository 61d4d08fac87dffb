"""Mesh builders and writers shared by the tests (imported as `from ..meshes import ...`)."""

import itertools

import numpy as np


def box_mesh(size=(1.0, 1.0, 1.0), centre=(0.0, 0.0, 0.0)):
    """A closed box: 8 vertices, 12 outward triangles."""
    h = 0.5 * np.asarray(size, dtype=float)
    v = np.array([[sx * h[0], sy * h[1], sz * h[2]] for sx, sy, sz in itertools.product((-1, 1), repeat=3)])
    v += np.asarray(centre, dtype=float)
    # corner index = 4 * (x > 0) + 2 * (y > 0) + (z > 0)
    quads = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
    tris = []
    for a, b, c, d in quads:
        tris += [(a, b, c), (a, c, d)]
    return v, np.array(tris, dtype=np.int64)


def icosphere(level=2, radius=1.0):
    """A closed, outward-oriented icosphere (subdivided icosahedron), vertices on the sphere."""
    t = (1.0 + 5 ** 0.5) / 2.0
    v = [(-1, t, 0), (1, t, 0), (-1, -t, 0), (1, -t, 0), (0, -1, t), (0, 1, t), (0, -1, -t), (0, 1, -t),
         (t, 0, -1), (t, 0, 1), (-t, 0, -1), (-t, 0, 1)]
    v = [np.array(p, dtype=float) / np.linalg.norm(p) for p in v]
    f = [(0, 11, 5), (0, 5, 1), (0, 1, 7), (0, 7, 10), (0, 10, 11), (1, 5, 9), (5, 11, 4), (11, 10, 2),
         (10, 7, 6), (7, 1, 8), (3, 9, 4), (3, 4, 2), (3, 2, 6), (3, 6, 8), (3, 8, 9), (4, 9, 5),
         (2, 4, 11), (6, 2, 10), (8, 6, 7), (9, 8, 1)]
    for _ in range(level):
        cache = {}

        def mid(a, b):
            key = (min(a, b), max(a, b))
            if key not in cache:
                p = v[a] + v[b]
                v.append(p / np.linalg.norm(p))
                cache[key] = len(v) - 1
            return cache[key]

        nf = []
        for a, b, c in f:
            ab, bc, ca = mid(a, b), mid(b, c), mid(c, a)
            nf += [(a, ab, ca), (b, bc, ab), (c, ca, bc), (ab, bc, ca)]
        f = nf
    return radius * np.array(v), np.array(f, dtype=np.int64)


def plane_mesh(n=10, size=4.0, z=0.0):
    """A flat square of n x n cells (2 triangles each, normal +z) at height z, centred at the
    origin."""
    xs = np.linspace(-size / 2, size / 2, n + 1)
    v = np.array([[x, y, z] for y in xs for x in xs])
    tris = []
    for j in range(n):
        for i in range(n):
            a, b = j * (n + 1) + i, j * (n + 1) + i + 1
            c, d = (j + 1) * (n + 1) + i + 1, (j + 1) * (n + 1) + i
            tris += [(a, b, c), (a, c, d)]
    return v, np.array(tris, dtype=np.int64)


def write_obj(path, vertices, triangles):
    """An OBJ file of the mesh (vertices at %.17g, 1-based faces); returns its path as str."""
    with open(path, "w") as fh:
        for p in vertices:
            fh.write("v %.17g %.17g %.17g\n" % tuple(p))
        for t in triangles:
            fh.write("f %d %d %d\n" % tuple(np.asarray(t) + 1))
    return str(path)


def write_stl_ascii(path, vertices, triangles):
    with open(path, "w") as fh:
        fh.write("solid test\n")
        for t in triangles:
            fh.write(" facet normal 0 0 0\n  outer loop\n")
            for i in t:
                fh.write("   vertex %.17g %.17g %.17g\n" % tuple(vertices[i]))
            fh.write("  endloop\n endfacet\n")
        fh.write("endsolid test\n")
    return str(path)


def write_stl_binary(path, vertices, triangles):
    rec = np.zeros(len(triangles), dtype=[("n", "<f4", 3), ("v", "<f4", (3, 3)), ("attr", "<u2")])
    rec["v"] = np.asarray(vertices)[np.asarray(triangles)]
    with open(path, "wb") as fh:
        fh.write(b"\0" * 80)
        fh.write(np.uint32(len(triangles)).tobytes())
        fh.write(rec.tobytes())
    return str(path)
