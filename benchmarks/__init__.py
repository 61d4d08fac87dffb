"""Side-by-side benchmarks of torsion against its peers (MuJoCo, PyBullet, Pinocchio).

The benchmark modules ship inside the package, in torsion/bench/ (run them from an installed
wheel with ``python -m torsion bench``). ``python -m benchmarks`` from the repository root is the
same command; this package's search path includes torsion/bench, so ``benchmarks._common`` and
``benchmarks.bench_<area>`` still import (a bench_<area>.py placed here is run too).
"""

from pathlib import Path

import torsion.bench as _bench

__path__.append(str(Path(_bench.__file__).parent))  # noqa: F821 (the package's own __path__)
