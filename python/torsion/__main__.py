"""Command line: ``python -m torsion demo | version | bench | serve | view``.

``demo`` runs a short simulation and prints what happened; ``bench`` and ``serve`` parse their
own options (``python -m torsion bench --help``).
"""

from __future__ import annotations

import argparse
import importlib
import sys

from torsion import demo
from torsion.viewer import cli as viewer_cli

# Subcommands that parse their own options: name -> (module, function taking argv, help).
_DELEGATED = {
    "bench": ("torsion.bench.run", "main", "run the benchmark suite side by side with the peers"),
    "serve": ("torsion.simx.transport", "main", "serve a world over the simx remote API (or --zmq-compat)"),
}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] and argv[0] in _DELEGATED:
        module, function, _ = _DELEGATED[argv[0]]
        return getattr(importlib.import_module(module), function)(argv[1:])
    parser = argparse.ArgumentParser(prog="python -m torsion", description="torsion command line")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("demo", help="simulate a few scenes and print what happened")
    sub.add_parser("version", help="print the version")
    for name, (_, _, help_text) in _DELEGATED.items():
        sub.add_parser(name, add_help=False, help=f"{help_text} ({name} --help)")
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
