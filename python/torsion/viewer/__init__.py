"""torsion.viewer: watch a World in a browser (viser), and record replays.

``Scene`` (the description of what is drawn) needs only NumPy; ``Viewer`` needs viser, from the
``viewer`` extra: ``pip install "torsion[viewer]"``.
"""

from __future__ import annotations

from .scene import Scene

__all__ = ["Scene"]
