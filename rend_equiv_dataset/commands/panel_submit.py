"""``rend-equiv panel submit``: add a ``panel score`` report to the leaderboard's judge-panel table."""

from __future__ import annotations

import argparse

HELP = "add a panel report (from `panel score`) to a leaderboard folder's judge-panel table"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--report", required=True, help="report folder written by `rend-equiv panel score`")
    parser.add_argument("--panel-name", required=True, help="NAME or ORG/NAME shown on the leaderboard")
    parser.add_argument("--leaderboard", required=True, help="leaderboard folder (created if missing)")


def run(args: argparse.Namespace) -> int:
    from rend_equiv_dataset.panels.submission import submit_panel

    path = submit_panel(args.report, args.panel_name, args.leaderboard)
    print(f"submitted panel {args.panel_name}; results in {path}")
    return 0
