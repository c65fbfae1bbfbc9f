"""The `gamao` command line: a thin dispatcher over `cli.*`."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from cli import COMMANDS


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="gamao", description="Gamão: a referee and recorder for backgammon on a real board.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module_name in COMMANDS:
        try:
            module = importlib.import_module(f"cli.{module_name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"cli.{module_name}":
                continue  # not built yet
            raise
        p = sub.add_parser(module.NAME, help=module.HELP, description=module.HELP)
        module.add_arguments(p)
        p.set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "_run"):
        parser.print_help()
        return 2
    try:
        return int(args._run(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
