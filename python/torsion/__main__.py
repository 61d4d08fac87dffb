"""Command line: ``python -m torsion demo`` runs a short simulation and prints what happened."""

from __future__ import annotations

import argparse
import sys

from torsion import demo
from torsion.viewer import cli as viewer_cli


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m torsion", description="torsion command line")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("demo", help="simulate a few scenes and print what happened")
    sub.add_parser("version", help="print the version")
    viewer_cli.register(sub)  # view PATH, demo --view
    args = parser.parse_args(argv)
    if getattr(args, "func", None) is not None:
        return args.func(args)
    if args.command == "version":
        import torsion

        print(torsion.__version__)
        return 0
    return demo.run(out=sys.stdout)


if __name__ == "__main__":
    raise SystemExit(main())
