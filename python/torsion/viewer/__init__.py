"""torsion.viewer: watch a World in a browser (viser), and record replays.

``Scene`` (the description of what is drawn) needs only NumPy; ``Viewer`` needs viser, from the
``viewer`` extra: ``pip install "torsion[viewer]"``.
"""

from __future__ import annotations

from .scene import Scene

__all__ = ["Scene", "Viewer", "Recorder", "OVERLAYS"]


def __getattr__(name):
    # Viewer and Recorder import viser / Pillow lazily: the scene description needs NumPy only
    if name == "Viewer":
        from .viewer import Viewer

        return Viewer
    if name == "Recorder":
        from .recorder import Recorder

        return Recorder
    if name == "OVERLAYS":
        from .viewer import OVERLAYS

        return OVERLAYS
    raise AttributeError(f"module 'torsion.viewer' has no attribute {name!r}")
