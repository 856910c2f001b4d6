"""``rend-equiv leaderboard serve``: the leaderboard Space (Gradio) on a local port, the same app as ``space/app.py``."""

from __future__ import annotations

import argparse

from rend_equiv_dataset.commands import non_negative

HELP = "serve the leaderboard folder as a web page (Gradio; needs the [space] extra)"


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a port number, got {text!r}") from None
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"must be in 1..65535, got {value}")
    return value


def _megabytes(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number of megabytes, got {text!r}") from None
    if not 0 < value <= 4096:
        raise argparse.ArgumentTypeError(f"must be in (0, 4096] megabytes, got {text}")
    return value


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--leaderboard", required=True, help="leaderboard folder (as `rend-equiv submit` writes it; created if missing)")
    parser.add_argument("--data", default=None, help="release folder; enables the submission tab (uploads are scored against it)")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1; 0.0.0.0 for a Space)")
    parser.add_argument("--port", type=_port, default=7860, help="port (default 7860)")
    parser.add_argument("--max-upload-mb", type=_megabytes, default=50.0, help="largest predictions upload, in MB (default 50)")
    parser.add_argument("--resamples", type=non_negative, default=10_000,
                        help="bootstrap resamples when scoring an upload; 0 reports no intervals (default 10000)")


def run(args: argparse.Namespace) -> int:
    from rend_equiv_dataset.board.app import AppSettings, serve
    settings = AppSettings.checked(args.leaderboard, args.data, max_upload_bytes=int(args.max_upload_mb * 2**20), resamples=args.resamples)
    serve(settings, host=args.host, port=args.port)
    return 0
