"""Canonical answer strings: one fixed rule, so the string-level law holds exactly.

The release stores every target as a string (docs/design.md §7.2) and promises that
applying an edit's transform to the base target gives the edit's target.
Numbers are therefore written by one rule: round to :data:`DECIMALS` decimal
places, strip trailing zeros, no thousands separators, no sign on zero.
The generator draws data with at most two decimals and edits with short
factors, so every exact answer has far fewer than six decimals and rounding
never changes it by more than float noise.

>>> format_answer(18.450000000000003, "number")
'18.45'
>>> format_answer(-0.0000001, "number")
'0'
>>> format_answer(1200.0, "number")
'1200'
>>> format_answer("Japan", "label")
'Japan'
>>> parse_target("18.45", "number")
18.45
"""

from __future__ import annotations

import math

from rend_equiv_dataset.transforms import Answer

DECIMALS = 6
"""Decimal places kept in a canonical number."""


def format_number(value: float) -> str:
    """Canonical string of a number: round to 6 decimals, strip trailing zeros.

    >>> format_number(2.5), format_number(3.0), format_number(0.1 + 0.2)
    ('2.5', '3', '0.3')
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"a canonical number must be finite, got {value!r}")
    text = f"{round(float(value), DECIMALS):.{DECIMALS}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def format_answer(value: Answer, answer_type: str) -> str:
    """Canonical target string of an answer of the given type (``number`` or ``label``)."""
    if answer_type == "number":
        if isinstance(value, str):
            raise TypeError(f"a number answer cannot be the label {value!r}")
        return format_number(value)
    if answer_type == "label":
        if not isinstance(value, str):
            raise TypeError(f"a label answer must be a string, got {value!r}")
        return value
    raise ValueError(f"answer_type must be 'number' or 'label', got {answer_type!r}")


def parse_target(target: str, answer_type: str) -> Answer:
    """Inverse of :func:`format_answer` for canonical targets (not for model outputs)."""
    if answer_type == "number":
        return float(target)
    if answer_type == "label":
        return target
    raise ValueError(f"answer_type must be 'number' or 'label', got {answer_type!r}")
