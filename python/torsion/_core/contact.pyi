"""
The contact solver's building blocks, exposed for tests and experiments.
"""
from __future__ import annotations
import numpy
import numpy.typing
import typing
__all__: list[str] = ['contact_frame', 'solve_single_contact']
def contact_frame(normal: typing.Any) -> numpy.typing.NDArray[numpy.float64]:
    """
    The contact frame of a unit normal (3,): a (3, 3) array whose rows are the frame's x, y and z (= normal) axes in world coordinates (x = normalize(n_y, -n_x, 0) for a normal leaning more than 30 degrees from the vertical, else (1, 0, 0) projected onto the tangent plane and normalized, continuous through the vertical; y = z cross x).
    """
def solve_single_contact(G: typing.Any, c: typing.Any, mu: typing.SupportsFloat | typing.SupportsIndex, hint: typing.Any = None) -> tuple[numpy.typing.NDArray[numpy.float64], str]:
    """
    Solve one contact exactly: v = G @ lam + c in the contact frame (x, y tangential, z the normal), G (3, 3) symmetric positive definite (m/s per N s), c (3,) (m/s), friction coefficient mu >= 0. Returns (lam, mode): the impulse (3,) in N s (fresh array) and 'opening' (c_z >= 0, lam = 0), 'sticking' (v = 0 inside the cone) or 'sliding' (lam on the cone surface, v_z = 0, slip anti-parallel to lam's tangential part). hint (3,) (N s, optional): an impulse near the expected one, as the solver passes the previous sweep's; the sliding search starts from its direction (the result is the same root).
    """
