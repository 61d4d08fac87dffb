"""Side-by-side benchmarks of torsion against its peers (MuJoCo, PyBullet, Pinocchio).

Run all of them with ``python -m benchmarks`` from the repository root (see run.py).
"""
