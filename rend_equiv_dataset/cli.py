"""The ``rend-equiv`` command (docs/design.md §7.1).

Each subcommand lives in its own module under :mod:`rend_equiv_dataset.commands`
with three names: ``HELP`` (one line), ``configure(parser)`` (its options) and
``run(args) -> int``. This file only wires them together and owns the exit
statuses: 0 success, 2 bad input (:class:`~rend_equiv_dataset.errors.InputError`
or an argparse error), 1 an internal error. Command modules import heavy
libraries inside ``run``, so ``rend-equiv --help`` stays fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import NoReturn

from rend_equiv_dataset import __version__
from rend_equiv_dataset.errors import InputError

# name -> module under rend_equiv_dataset.commands
COMMANDS: dict[str, str] = {
    "build": "build",
    "merge": "merge",
    "digitize": "digitize",
    "theory": "theory",
    "score": "score",
    "grade": "grade",
    "simulate": "simulate",
    "submit": "submit",
    "run": "run",
    "tiny-model": "tiny_model",
    "export": "export",
    "import-predictions": "import_predictions",
}

# `rend-equiv panel NAME` -> module under rend_equiv_dataset.commands
PANEL_COMMANDS: dict[str, str] = {
    "build": "panel_build",
    "exec": "panel_exec",
    "score": "panel_score",
    "judge": "panel_judge",
    "solve": "panel_solve",
    "submit": "panel_submit",
}

# `rend-equiv leaderboard NAME` -> module under rend_equiv_dataset.commands
LEADERBOARD_COMMANDS: dict[str, str] = {
    "serve": "leaderboard_serve",
}


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (``rend-equiv COMMAND: error: ...``), exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {one_line(message)} (see {self.prog} --help)\n")


def _add_commands(subparsers: argparse._SubParsersAction, table: dict[str, str]) -> None:
    for name, module_name in table.items():
        module = importlib.import_module(f"rend_equiv_dataset.commands.{module_name}")
        parser = subparsers.add_parser(name, help=module.HELP, description=module.HELP)
        module.configure(parser)
        parser.set_defaults(_run=module.run)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="rend-equiv",
        description="REND-EQUIV figure reading (ECS) and pivotal-vote code-judge panels.",
    )
    parser.add_argument("--version", action="version", version=f"rend-equiv {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    _add_commands(subparsers, COMMANDS)
    if PANEL_COMMANDS:
        panel = subparsers.add_parser("panel", help="code-judge panel records, execution and metrics")
        _add_commands(panel.add_subparsers(dest="panel_command", metavar="COMMAND"), PANEL_COMMANDS)
    board = subparsers.add_parser("leaderboard", help="the leaderboard web page (Gradio)")
    _add_commands(board.add_subparsers(dest="leaderboard_command", metavar="COMMAND"), LEADERBOARD_COMMANDS)
    return parser


def one_line(message: str) -> str:
    r"""``message`` as one printable line: newlines folded, unencodable characters escaped.

    >>> one_line("a\nb \udc80")
    'a b \\udc80'
    """
    return " ".join(message.encode("utf-8", "backslashreplace").decode("utf-8").split("\n"))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    run = getattr(args, "_run", None)
    if run is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(run(args) or 0)
    except InputError as err:
        print(f"rend-equiv: error: {one_line(str(err))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("rend-equiv: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
