"""The `boston-analyser` command: one subcommand per module `analyser.cmd_<name>`.

Each subcommand module defines `HELP` (one line), `DESCRIPTION` (the --help text),
`add_arguments(parser)` and `run(args) -> int`. Bad input, whether argparse finds it or
an option's check (analyser/options.py, run as the options are parsed) or the command
raises `UserError`, is printed as one line and exits with code 2, never as a traceback;
so is a file the system refuses (OSError). Before the first kernel work of a command that
compiles kernels, a cold kernel cache is announced on stderr (analyser/jit_notice.py).
"""

import argparse
import sys
from importlib import import_module

from analyser import jit_notice
from analyser.errors import UserError

SUBCOMMANDS = ("run", "report", "hand", "shapes", "estimate", "session", "optimise")


class _Parser(argparse.ArgumentParser):
    """argparse with its errors as one line (`boston-analyser run: error: ...`)."""

    def error(self, message):
        raise UserError(f"{message} (see {self.prog} --help)")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
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
    argv = sys.argv[1:] if argv is None else list(argv)
    command = next((a for a in argv if a in SUBCOMMANDS), None)
    prefix = f"boston-analyser {command}" if command else "boston-analyser"
    try:
        args = parser.parse_args(argv)
        if getattr(args, "_module", None) is None:
            parser.print_help()
            return 2
        prefix = f"boston-analyser {args.command}"
        real = getattr(args, "play", None) == "real"
        jit_notice.arm(f"{args.command} real" if real else args.command)
        return int(args._module.run(args) or 0)
    except UserError as exc:
        print(f"{prefix}: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        where = f": {exc.filename}" if exc.filename else ""
        print(f"{prefix}: error: {exc.strerror or exc}{where}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{prefix}: interrupted", file=sys.stderr)
        return 130
    finally:
        jit_notice.arm("")
