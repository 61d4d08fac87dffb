"""Command line: ``python -m torsion demo`` runs a short simulation and prints what happened."""

from __future__ import annotations

import argparse
import sys

from torsion import demo


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m torsion", description="torsion command line")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("demo", help="simulate a few scenes and print what happened")
    sub.add_parser("version", help="print the version")
    sub.add_parser("bench", add_help=False, help="run the benchmark suite (bench --help)")
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["bench"]:  # its own options: torsion/bench/run.py
        from torsion.bench.run import main as bench

        return bench(argv[1:], prog="python -m torsion bench")
    args = parser.parse_args(argv)
    if args.command == "version":
        import torsion

        print(torsion.__version__)
        return 0
    return demo.run(out=sys.stdout)


if __name__ == "__main__":
    raise SystemExit(main())
