"""The `boston-analyser` command: one subcommand per module `analyser.cmd_<name>`.

Each subcommand module defines `HELP` (one line), `DESCRIPTION` (the --help text),
`add_arguments(parser)` and `run(args) -> int`. A `UserError` (bad input) is printed as
one line and exits with code 2, never as a traceback.
"""

import argparse
import sys
from importlib import import_module

from analyser.errors import UserError

SUBCOMMANDS = ("run", "report", "hand", "shapes")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="boston-analyser",
        description=(
            "Monte Carlo strategy analyser for Boston (American decimal settlement, "
            "Foster's Complete Hoyle). Deals random hands, solves them double-dummy and "
            "reports how often each contract is made and what each bid earns."
        ),
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMANDS:
        module = import_module(f"analyser.cmd_{name}")
        p = sub.add_parser(
            name,
            help=module.HELP,
            description=module.DESCRIPTION,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        module.add_arguments(p)
        p.set_defaults(_module=module)
    return parser


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "_module", None) is None:
        parser.print_help()
        return 2
    try:
        return int(args._module.run(args) or 0)
    except UserError as exc:
        print(f"boston-analyser {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"boston-analyser {args.command}: interrupted", file=sys.stderr)
        return 130
