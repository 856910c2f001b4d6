"""``rend-equiv theory``: which reading errors an edit suite cannot detect (paper §4, docs/design.md §3.6).

    rend-equiv theory --error-class {affine,permutation} [--labels M] --suite EDIT[,EDIT…] [--json]

Prints the undetectable set U_0(G), whether the suite is complete for the
error class, the single library edit whose addition shrinks U the most, and
what the suite's edits would leave if composed into one edit.
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.schema import EDIT_TYPES

if TYPE_CHECKING:
    from rend_equiv_dataset.theory.suite import Undetectable

HELP = "undetectable errors of an edit suite (joint centralizer), completeness and the best edit to add"

_EDITS = EDIT_TYPES
_MAX_LABELS = 1000  # 1000! has 2,568 digits, inside Python's 4,300-digit int-to-str limit
_OPTIONS = {"suite": "--suite", "labels": "--labels", "enumerate": "--enumerate"}  # library field -> option


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--error-class", required=True, choices=("affine", "permutation"), help="the error class E")
    parser.add_argument(
        "--labels", type=str, default=None, metavar="M", help="number of category labels (permutation class, M >= 2)"
    )
    parser.add_argument(
        "--suite", required=True, metavar="EDIT[,EDIT…]", help=f"comma-separated edits from: {', '.join(_EDITS)}"
    )
    parser.add_argument(
        "--enumerate",
        action="store_true",
        help="solve by enumerating all M! permutations (M <= 8) instead of the orbit method",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of sentences")


def run(args: argparse.Namespace) -> int:
    from rend_equiv_dataset.theory.suite import analyze_suite

    suite = _parse_suite(args.suite)
    m = _parse_labels(args.labels, args.error_class)
    try:
        analysis = analyze_suite(args.error_class, suite, m=m, enumerate_members=args.enumerate)
    except InputError as err:
        raise InputError(err.message, field=_OPTIONS.get(err.field or "", err.field)) from None
    if args.json:
        print(json.dumps(analysis.to_json_dict(), ensure_ascii=False))
    else:
        print(analysis.explain())
        if analysis.composed is not None:
            print(_composed_sentence(analysis.composed, analysis.result))
    return 0


def _composed_sentence(composed: Undetectable, separate: Undetectable) -> str:
    """The remark on composed edits (paper appendix): composition never detects more than its parts."""
    count = composed.undetectable_count
    left = str(count) if count is not None and count < 10**12 else composed.description
    if composed.size > separate.size:
        return f"Composed into one edit they would leave more undetectable ({left}): compose to save passes, not for coverage."
    return f"Composed into one edit they would leave the same set size ({left})."


def _parse_suite(text: str) -> list[str]:
    names = [part.strip() for part in text.split(",")]
    if not text.strip() or any(not name for name in names):
        raise InputError(f"expected comma-separated edit names from {', '.join(_EDITS)}, got {text!r}", field="--suite")
    return names  # the names themselves are checked by the theory, against its registered edits


def _parse_labels(text: str | None, error_class: str) -> int | None:
    if text is None:
        if error_class == "permutation":
            raise InputError("the permutation class needs the number of labels, e.g. --labels 6", field="--labels")
        return None
    if error_class != "permutation":
        raise InputError(f"--labels applies only to --error-class permutation, got it with {error_class}", field="--labels")
    try:
        m = int(text)
    except ValueError:
        raise InputError(f"expected an integer number of labels >= 2, got {text!r}", field="--labels") from None
    if not 2 <= m <= _MAX_LABELS:
        raise InputError(f"expected 2 <= M <= {_MAX_LABELS} labels, got {m}", field="--labels")
    return m
