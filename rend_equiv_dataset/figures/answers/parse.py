"""Free-text model output → a number or one of the instance's labels (DESIGN §3.5).

The rules, in order:

1. If the text has an answer marker ("The answer is", "Answer:", "Final
   answer:"), only the text after the last marker is read.
2. Numbers: thousands separators (``1,234``), signs (``-``, ``+``, ``−``),
   decimals, scientific notation (``1.2e3``), a trailing percent sign (``45%``
   reads as 45; scoring compares in the question's own unit), a currency sign
   or unit around it (``$12``, ``12 kg``) and the scale words
   thousand/million/billion (``1.5 million``) or suffixes ``k``/``M``/``B``
   attached to the number. With a marker, the first number after it is read;
   otherwise the last number that follows a copula ("is", "=", ":" …), else
   the last number in the text. Number words zero–twenty are read too.
   When the question states its unit with a scale (", in thousand units?",
   ", in bn USD?"), the answer is read in that unit: "55 thousand" and "55"
   both read 55 for a question in thousands, "1.2 million" reads 1200.
3. Labels: matched against the instance's labels ignoring case and spaces
   (``"new york"`` matches ``New York`` and ``NewYork``), at word
   boundaries, longest label first; the first label mentioned (after the
   marker, if any) wins.

Anything else is unparseable and returns ``None`` — scored as wrong, never
an exception.

>>> parse_answer("The answer is 1,234.5.", "number")
1234.5
>>> parse_answer("About 45%", "number")
45.0
>>> parse_answer("Answer: new  york", "label", ("Boston", "New York"))
'New York'
>>> parse_answer("I cannot tell.", "number") is None
True
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from functools import lru_cache

ParsedAnswer = float | str | None

_MARKER = re.compile(
    r"(?:final\s+answer|the\s+answer\s+is|answer\s*(?:is)?\s*[:=]|answer\s+is|so\s+the\s+value\s+is)",
    re.IGNORECASE,
)
_NUMBER = re.compile(
    r"""
    (?<![\w.])
    (?P<sign>[-+\u2212]?)\s?
    [$€£¥]?\s?
    (?P<digits>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)
    (?P<exp>[eE][-+]?\d+)?
    (?:\s?(?P<suffix>[kKMB]|bn)(?![A-Za-z]))?
    (?:\s+(?P<word>thousand|million|billion)\b)?
    (?P<pct>\s?%)?
    """,
    re.VERBOSE,
)
_COPULA = re.compile(r"(?:\bis|\bare|\bwas|\bwere|=|:|\bequals|\bof|\babout|\baround|\bapproximately|≈)\s*$", re.IGNORECASE)
_SCALES = {"k": 1e3, "K": 1e3, "M": 1e6, "B": 1e9, "bn": 1e9, "thousand": 1e3, "million": 1e6, "billion": 1e9}
_WORDS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen "
    "fourteen fifteen sixteen seventeen eighteen nineteen twenty"
).split()
_NUMBER_WORD = re.compile(r"\b(" + "|".join(_WORDS) + r")\b", re.IGNORECASE)


def parse_answer(text: object, answer_type: str, labels: Sequence[str] = (), question: str | None = None) -> ParsedAnswer:
    """Parse ``text`` as a ``"number"`` or as one of ``labels``; ``None`` if it cannot be.

    ``question`` (optional) supplies the unit numbers are read in (see the module docstring).

    >>> parse_answer("About 55 thousand", "number", question="How many visitors in Q3, in thousand?")
    55.0
    >>> parse_answer("12 bn USD", "number", question="What are the exports of Chile, in bn USD?")
    12.0
    """
    if not isinstance(text, str) or not text.strip():
        return None
    tail = _after_marker(text)
    if answer_type == "label":
        return _parse_label(tail, tuple(labels)) if tail is not None else _parse_label(text, tuple(labels))
    parsed = _parse_number(tail, marked=True) if tail is not None else _parse_number(text, marked=False)
    if parsed is None:
        return None
    value, scale = parsed
    return value * scale / question_scale(question) if scale != 1.0 else value


_UNIT = re.compile(r",\s*in\s+([^?]*)\?\s*$", re.IGNORECASE)


def question_scale(question: str | None) -> float:
    """The scale of the unit a question asks in: 1e3 for ", in thousand units?", 1e9 for ", in bn USD?", else 1.

    >>> question_scale("What is the value, in k EUR?"), question_scale("Which is largest?")
    (1000.0, 1.0)
    """
    if not question:
        return 1.0
    match = _UNIT.search(question)
    if match is None:
        return 1.0
    first = match.group(1).split()[0] if match.group(1).split() else ""
    return _SCALES.get(first, _SCALES.get(first.lower(), 1.0))


def _after_marker(text: str) -> str | None:
    matches = list(_MARKER.finditer(text))
    if not matches:
        return None
    tail = text[matches[-1].end():]
    return tail if tail.strip() else None


def _parse_number(text: str, *, marked: bool) -> tuple[float, float] | None:
    """(value as written, the scale word or suffix written after it — 1 if none)."""
    text = text.replace("\u2212", "-").replace("\u2009", "").replace("\u00a0", " ")
    matches = list(_NUMBER.finditer(text))
    if not matches:
        word = _NUMBER_WORD.search(text)
        return (float(_WORDS.index(word.group(1).lower())), 1.0) if word else None
    if marked:
        chosen = matches[0]
    else:
        after_copula = [m for m in matches if _COPULA.search(text[: m.start()])]
        chosen = (after_copula or matches)[-1]
    return _number_value(chosen)


def _number_value(match: re.Match[str]) -> tuple[float, float] | None:
    value = float(match.group("digits").replace(",", "") + (match.group("exp") or ""))
    scale = 1.0
    for word in (match.group("suffix"), match.group("word")):
        if word:
            scale *= _SCALES[word]
    if match.group("sign") == "-":
        value = -value
    return (value, scale) if math.isfinite(value * scale) else None


@lru_cache(maxsize=4096)
def _label_pattern(labels: tuple[str, ...]) -> re.Pattern[str] | None:
    squeezed = sorted({"".join(label.split()) for label in labels if label.strip()}, key=lambda s: (-len(s), s))
    if not squeezed:
        return None
    alternatives = [r"\s*".join(re.escape(ch) for ch in label) for label in squeezed]
    return re.compile(r"(?<![^\W_])(?:" + "|".join(alternatives) + r")(?![^\W_])", re.IGNORECASE)


def _parse_label(text: str, labels: tuple[str, ...]) -> str | None:
    pattern = _label_pattern(labels)
    if pattern is None:
        return None
    match = pattern.search(text)
    if match is None:
        return None
    key = normalize_label(match.group(0))
    for label in labels:
        if normalize_label(label) == key:
            return label
    return None


def normalize_label(label: str) -> str:
    """Case- and space-insensitive form used to compare labels.

    >>> normalize_label(" New  York ") == normalize_label("newyork")
    True
    """
    return "".join(label.split()).casefold()
