"""torsion's benchmark suite: each bench_<area>.py measures torsion and every installed peer
(MuJoCo, PyBullet, Pinocchio: the `bench` extra) on the same workloads in one run. Run it with
``python -m torsion bench [--quick] [--only AREA] [--json PATH]`` (see run.py)."""
