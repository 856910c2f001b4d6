"""What every report writer shares: JSON-safe values and Markdown tables.

Both products write a ``report.json`` and a ``report.md``; the score report,
the panel report, the dataset card and the leaderboard take these two helpers
from here instead of each keeping its own.

>>> json_ready({"auroc": float("nan"), "ci": (0.5, 0.75)})
{'auroc': None, 'ci': [0.5, 0.75]}
>>> print("\\n".join(markdown_table(["edit", "n"], [["scale", 3], ["zoom", 4]])))
| edit | n |
| --- | --- |
| scale | 3 |
| zoom | 4 |
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any


def json_ready(value: Any) -> Any:
    """A JSON-safe copy: NaN and ±inf become ``None`` (JSON has neither), tuples lists, numpy scalars Python ones.

    Mapping keys become strings, recursively.

    >>> import numpy as np
    >>> json_ready({1: [np.float64(2.5), np.int64(3)], "b": float("-inf")})
    {'1': [2.5, 3], 'b': None}
    """
    if isinstance(value, Mapping):
        return {str(key): json_ready(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_ready(item) for item in value]
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def markdown_table(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> list[str]:
    """The lines of a Markdown table: header, separator, one line per row (cells with ``str``)."""
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join("---" for _ in header) + " |"]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return lines
