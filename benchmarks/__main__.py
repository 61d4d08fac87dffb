from torsion.bench.run import main

raise SystemExit(main(prog="python -m benchmarks"))
