"""Where the answer is in a model output: normalisation, reasoning blocks, markers, sentences.

Every function here runs in time linear in the text: one pass of a regex
without nested quantifiers, ``str.find`` loops, or work bounded by a fixed
window (:data:`LOOK_BACK` characters at the end, :data:`SPAN` after a marker).

>>> visible_text("<think>maybe 12?</think>The answer is 42.")
'The answer is 42.'
>>> marked_span("Reasoning... Final answer: **42**")
'**42**'
>>> sentences("It is 30.5 bn. France is 12.\\nDone")
['It is 30.5 bn.', 'France is 12.', 'Done']
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

LOOK_BACK = 2500
"""Characters at the end of the output searched for the last committed statement."""
SPAN = 300
"""Characters after an answer marker that hold the answer."""
LEAD = 200
"""Characters at the start of the output searched for a leading bare answer."""

class TailPattern:
    """A pattern anchored at the end (``...$``), searched in the text just before a position.

    Python's ``re`` tries such a pattern at every start in the window; it is
    tried here only where one of ``words`` occurs in the case-folded window.
    Each word must be part of every match (a necessary test, so the answer is
    the pattern's own), and it costs a tenth of the search.
    """

    def __init__(self, pattern: re.Pattern[str], words: tuple[str, ...]):
        self.pattern = pattern
        self._words = re.compile("|".join(re.escape(word) for word in words))

    def search(self, window: str) -> re.Match[str] | None:
        if self._words.search(window.casefold()) is None:
            return None
        return self.pattern.search(window)


_GROUP_SPACE = re.compile(r"(?<=\d)[\u00a0\u2009\u202f\u2007](?=\d{3}(?!\d))")
_DASH_SIGN = re.compile(r"[\u2212\u2013\u2012\u2010\u2011\ufe63\uff0d]")


_VULGAR = re.compile(r"(\d?)\s?([½¼¾])")
_VULGAR_VALUE = {"½": "5", "¼": "25", "¾": "75"}


_SEPARATORS = {"\u066b": ".", "\u066c": ",", "\u060c": ",", "\u2e41": ",", "\u200e": "", "\u200f": "", "\u061c": ""}
"""Arabic decimal and group separators, the Arabic and reversed commas, and bidi marks (dropped)."""


@lru_cache(maxsize=1)
def _other_digits() -> re.Pattern[str]:
    """One character class of every non-ASCII decimal digit (Unicode category Nd), plus :data:`_SEPARATORS`.

    Built once from :mod:`unicodedata` (all such digits lie below U+1FC00).
    """
    ranges: list[str] = []
    code = 0x80
    while code < 0x1FC00:
        if unicodedata.category(chr(code)) == "Nd":
            start = code
            while code + 1 < 0x1FC00 and unicodedata.category(chr(code + 1)) == "Nd":
                code += 1
            ranges.append(f"{chr(start)}-{chr(code)}" if code > start else chr(start))
        code += 1
    return re.compile("[" + "".join(ranges) + "".join(_SEPARATORS) + "]")


def _ascii_digit(match: re.Match[str]) -> str:
    """Any script's decimal digit (Arabic-Indic, Devanagari, Thai …) as ASCII; Arabic separators as ``.``/``,``; bidi marks out."""
    char = match.group(0)
    return _SEPARATORS[char] if char in _SEPARATORS else str(unicodedata.decimal(char))


def prepare(text: str) -> str:
    """Thin/non-breaking spaces in digit groups dropped, ½ ¼ ¾ as decimals, any script's digits as ASCII, NFKC, dashes as ``-``.

    >>> prepare("１２３．５"), prepare("1\\u202f234"), prepare("\\u221212"), prepare("12½"), prepare("-٨٫٩")
    ('123.5', '1234', '-12', '12.5', '-8.9')
    >>> prepare("net income was $(412) million")  # an amount in brackets after its currency: negative, as accounts write it
    'net income was $-412 million'
    """
    if "(" in text and _CURRENCY_BRACKETS.search(text):
        text = _CURRENCY_BRACKETS.sub(r"\1-\2", text)
    if "(" in text and _STATED_BRACKETS.search(text):
        text = _STATED_BRACKETS.sub(r"\1-\2", text)  # "cash flow was (238)": the accounts' negative
    if text.isascii():
        return text
    text = _other_digits().sub(_ascii_digit, text)
    if "\u00a0" in text or "\u2009" in text or "\u202f" in text or "\u2007" in text:
        text = _GROUP_SPACE.sub("", text)
    if "½" in text or "¼" in text or "¾" in text:
        text = _VULGAR.sub(lambda m: f"{m.group(1) or '0'}.{_VULGAR_VALUE[m.group(2)]}", text)
    if "10" in text and _POWER_OF_TEN.search(text):
        text = _POWER_OF_TEN.sub(_exponent, text)
    text = unicodedata.normalize("NFKC", text)
    return _DASH_SIGN.sub("-", text)


_CURRENCY_BRACKETS = re.compile(r"([$€£¥₹])\s?\((\d[\d,]*(?:\.\d+)?)\)")
_STATED_BRACKETS = re.compile(r"(\b(?:was|is|were|are|of|at|totall?ed|stood\s+at)\s)\((\d[\d,]*(?:\.\d+)?)\)(?=[\s,.;]|$)")
_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_POWER_OF_TEN = re.compile(r"\s?[×xX*·]\s?10([⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)")
"""``× 10⁶`` with a superscript exponent (NFKC alone would make it ``106``)."""


def _exponent(match: re.Match[str]) -> str:
    return "e" + match.group(1).translate(_SUPERSCRIPT)


_THINK_OPEN = re.compile(r"<(?:think|thinking|reasoning)>", re.IGNORECASE)
_THINK_CLOSE = re.compile(r"</(?:think|thinking|reasoning)>", re.IGNORECASE)


def visible_text(text: str) -> str:
    """The output with reasoning blocks removed.

    ``<think>…</think>`` blocks are dropped; a closing tag without an opening
    one (the chat template opened the block) drops everything before it; an
    unclosed block drops everything after its opening tag.

    >>> visible_text("step 1, step 2</think>\\n\\n42")
    '\\n\\n42'
    >>> visible_text("<think>still thinking about 12")
    ''
    """
    parts: list[str] = []
    position = 0
    first_close = _THINK_CLOSE.search(text)
    first_open = _THINK_OPEN.search(text)
    if first_close is not None and (first_open is None or first_close.start() < first_open.start()):
        position = first_close.end()
    while True:
        opening = _THINK_OPEN.search(text, position)
        if opening is None:
            parts.append(text[position:])
            break
        parts.append(text[position:opening.start()])
        closing = _THINK_CLOSE.search(text, opening.end())
        if closing is None:
            break
        position = closing.end()
    visible = "".join(parts)
    return _STRUCK.sub("", visible) if "~~" in visible else visible


_STRUCK = re.compile(r"~~[^~\n]{1,200}~~")
"""Markdown strikethrough: text the writer crossed out (``~~11.3~~ **13.1**``) is not what it says."""


def reasoning_text(text: str) -> str:
    """The text inside reasoning blocks (read only when nothing outside them remains)."""
    opening = _THINK_OPEN.search(text)
    start = opening.end() if opening is not None else 0
    closing = _THINK_CLOSE.search(text, start)
    return text[start:closing.start() if closing is not None else len(text)]


_AFTER_ANSWER = re.compile(
    r"answer\b(?:\s+is\b\s*:?|[\"']?\s*[:=]|\s+(?:would|should|must|will)\s+be\b\s*:?)", re.IGNORECASE
)
_FINAL = re.compile(r"\b(?:final|correct)\s+$", re.IGNORECASE)
_FINAL_KEY = re.compile(r"[\"'{,\s](?:final|correct|corrected|revised|updated)_$")
_AFTER_FINAL = re.compile(r"answer\b(?:\s+is\b)?\s*[:=]?", re.IGNORECASE)
_SO_THE = re.compile(r"so\s+the\s+(?:value|result)\s+is\b", re.IGNORECASE)
_GO_WITH = re.compile(
    r"\b(?:(?:i(?:'ll|\s+will|'d|\s+would)|i'm|i\s+am|let's|let\s+us)\s+(?:go(?:ing)?\s+with|settle\s+(?:on|for)|stick(?:ing)?\s+with|say)"
    r"|me\s+quedo\s+con|je\s+retiens|je\s+garde|ich\s+bleibe\s+bei|resto\s+con|rimango\s+su|fico\s+com|остановлюсь\s+на)\b\s*:?\s*"
)
"""A first-person commitment ("I'll go with 9.8", "I'd settle on 50", "I'd say Dubai"): the answer follows, as after a marker."""
_HEADING_BEFORE = re.compile(r"(?:^|\n)[ \t]*(?:#{1,6}[ \t]*|\*\*)(?:(?:final|the)[ \t]+)?$")
_HEADING_AFTER = re.compile(r"answer(?:\*\*)?[ \t]*:?[ \t]*(?:\*\*)?[ \t]*\n")
"""A heading that names the answer ("## Answer", "**Final answer**") with the answer on the lines below it."""
_FINAL_LINE = re.compile(r"(?:^|\n)[ \t*#>•-]*(?:final|result)[ \t*]*[:：][ \t*]*", re.IGNORECASE)
"""A line that opens with "Final:" or "Result:" (a bullet or emphasis before it), the answer following on it."""
_BOLD_END = re.compile(r"\*\*([^*\n]{1,120})\*\*[\s.!)\]]*$")


def _lowered(text: str) -> str:
    """``text.lower()`` with the same length (the few characters whose lower case is longer stay as they are)."""
    lowered = text.lower()
    if len(lowered) == len(text):
        return lowered
    return "".join(c.lower() if len(c.lower()) == 1 else c for c in text)


OTHER_MARKER_WINDOW = 4000
"""Characters at the end of an output searched for an answer marker in another language."""

_OTHER_MARKER = re.compile(
    r"(?:\b(?:(?:die\s+)?(?:endg[üu]ltige\s+|richtige\s+)?antwort(?:\s+lautet|\s+ist)?|(?:la\s+)?(?:bonne\s+)?r[ée]ponse(?:\s+(?:finale|correcte))?(?:\s+est)?"
    r"|(?:la\s+)?respuesta(?:\s+(?:final|correcta))?(?:\s+es)?|(?:la\s+)?risposta(?:\s+(?:finale|corretta|giusta))?(?:\s+[èe])?"
    r"|(?:a\s+)?resposta(?:\s+(?:final|correta|certa))?(?:\s+[ée])?"
    r"|(?:het\s+)?(?:juiste\s+)?antwoord(?:\s+is)?|(?:окончательный\s+|правильный\s+)?ответ|cevap|yan[ıi]t|odpowied[źz]|jawaban"
    r"|(?:c[âa]u\s+tr[ảa]\s+l[ờo]i|[đd][áa]p\s+[áa]n)(?:\s+[đd][úu]ng)?(?:\s+l[àa])?)\s*[:：\u2014\u2013]?"
    r"|(?:الإجابة|الاجابة|الجواب)(?:\s+النهائية)?\s*[:：]|उत्तर\s*[:：]"
    r"|(?:最终)?答案(?:是|为|：|:)|回答(?:：|:|は)|答え(?:は|：|:)|정답(?:은|:|：)|답(?::|：))\s*",
    re.IGNORECASE,
)


_OTHER_MARKER_STEMS = ("antw", "pons", "spue", "spos", "cevap", "yanit", "odpowied", "jawab", "dap an", "cau tra loi")
"""Every ASCII spelling :data:`_OTHER_MARKER` matches holds one of these (antwort, antwoord, reponse, respuesta, risposta, resposta,
cevap, yanit, odpowiedz, jawaban, dap an, cau tra loi)."""


def _other_language_marker(text: str, start: int) -> int | None:
    """Where the answer starts after the last marker in German, French, Spanish, Italian, Portuguese, Dutch, Russian, Turkish,
    Polish, Indonesian, Vietnamese, Arabic, Hindi, Chinese, Japanese or Korean."""
    end = None
    for match in _OTHER_MARKER.finditer(text, start):
        if match.group(0).rstrip()[-1:] in ":：是为はは은\u2014\u2013" or re.search(r"(?:ist|lautet|est|es|è|é|is|là|la)\s*$", match.group(0), re.IGNORECASE):
            end = match.end()
    return end


def last_marker(text: str) -> tuple[int, bool] | None:
    """(where the answer starts, whether it is boxed) for the last marker; ``None`` without one.

    Scans back from the end with ``str.rfind`` for the word ``answer`` (and
    ``\\boxed``, ``so the value is``), checking a short window at each hit:
    linear in the text, however many times it says "answer".
    """
    lowered = _lowered(text)
    boxed = lowered.rfind("\\boxed")
    if boxed >= 0:
        brace = re.compile(r"\\boxed\s*\{").match(text, boxed)
        if brace is not None:
            return brace.end(), True
    best = -1
    position = len(lowered)
    while True:
        hit = lowered.rfind("answer", 0, position)
        if hit < 0:
            break
        position = hit
        if hit > 0 and (lowered[hit - 1].isalnum() or lowered[hit - 1] == "_") and not _FINAL_KEY.search(lowered, max(0, hit - 12), hit):
            continue  # "reanswer", "my_answer"; but a JSON key "final_answer" is a marker
        final = _FINAL.search(lowered, max(0, hit - 12), hit)
        match = (_AFTER_FINAL if final else _AFTER_ANSWER).match(lowered, hit)
        if match is None and _HEADING_BEFORE.search(lowered, max(0, hit - 16), hit):
            match = _HEADING_AFTER.match(lowered, hit)  # "## Answer" or "**Answer**" on a line of its own: the next line answers
        if match is not None:
            best = match.end()
            break
    other = None
    if not lowered.isascii() or any(stem in lowered for stem in _OTHER_MARKER_STEMS):  # most outputs: one cheap test, no regex pass
        other = _other_language_marker(text, max(0, len(text) - OTHER_MARKER_WINDOW))
    if other is not None and other > best:
        best = other
    if "final" in lowered or "result" in lowered:
        for line in _FINAL_LINE.finditer(lowered, max(0, len(lowered) - OTHER_MARKER_WINDOW)):
            if line.end() > best:
                best = line.end()
    for commitment in _GO_WITH.finditer(lowered, max(0, len(lowered) - OTHER_MARKER_WINDOW)):
        if commitment.end() > best:
            best = commitment.end()
    arrow = max(lowered.rfind("→"), lowered.rfind("⇒"), lowered.rfind("=>"))
    if arrow > best and "\n" not in text[arrow:].strip():  # "Japan (30.5) vs France (12) → Japan": the conclusion ends the output
        best = arrow + (2 if text.startswith("=>", arrow) else 1)
    for phrase in ("so the value", "so the result"):
        hit = lowered.rfind(phrase)
        if hit >= 0 and hit >= best:
            match = _SO_THE.match(lowered, hit)
            if match is not None:
                best = match.end()
    return (best, False) if best >= 0 else None


def marked_span(text: str, marker: tuple[int, bool] | None | bool = False) -> str | None:
    """The text after the last explicit answer marker, or ``None`` without one.

    ``\\boxed{…}`` wins over every other marker (its braces bound the answer);
    otherwise the last of ``Final answer``, ``Answer:``, ``The answer is`` …;
    otherwise a ``**bold**`` phrase that ends the output. ``marker`` is
    :func:`last_marker`'s result when the caller already has it.

    >>> marked_span("The answer is 30, no wait. Answer: 31 (approx)")
    '31 (approx)'
    >>> marked_span("... so the total is **12.5 bn**.")
    '12.5 bn'
    >>> marked_span("To answer this, look at the bars.") is None
    True
    """
    if marker is False:
        marker = last_marker(text)
    if isinstance(marker, tuple):
        start, boxed = marker
        if boxed:
            return _boxed_content(text, start)
        span = text[start:start + SPAN].strip()
        if span.strip("*:#`'\""):
            return span
    tail = text[-SPAN:]
    bold = _BOLD_END.search(tail)
    return bold.group(1) if bold is not None else None


def _boxed_content(text: str, start: int) -> str:
    depth = 1
    end = min(len(text), start + SPAN)
    for index in range(start, end):
        char = text[index]
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return text[start:index]
    return text[start:end]


_SENTENCE_END = re.compile(
    r"(?<=[.!?])(?<![A-Z]\.[A-Z]\.)(?<!\bi\.e\.)(?<!\be\.g\.)(?<!\bvs\.)(?<!\bca\.)(?<!approx\.)(?<!\bapprox\.)(?:\*\*|[\"')\]])?[ \t]+(?![a-z])"
    r"|(?<=[.!?])(?:\*\*|[\"')\]])?[ \t]*\n\s*|\n+|(?<=[。！？])\s*"
)


def sentences(text: str) -> list[str]:
    """Sentences and lines, stripped, empty ones dropped (decimal points and ``i.e.``, ``e.g.``, ``vs.``, ``approx.`` do not split)."""
    return [s.strip() for s in _SENTENCE_END.split(text) if s and s.strip()]


def tail_window(text: str) -> str:
    """The last :data:`LOOK_BACK` characters, starting at a sentence boundary where one is near."""
    if len(text) <= LOOK_BACK:
        return text
    window = text[-LOOK_BACK:]
    cut = window.find("\n")
    return window[cut + 1:] if 0 <= cut < 400 else window


_LEAD_END = re.compile(r"\n|(?<=[.!?])\s|(?<=\S)(?<![-+*/×÷=])\s+(?:-\s(?![-$€£¥\d(])|\()|,\s")


def lead_segment(text: str) -> tuple[str, str]:
    """(first line or sentence, the rest) within the first :data:`LEAD` characters."""
    head = text.lstrip()
    match = _LEAD_END.search(head[:LEAD])
    if match is None:
        return (head, "") if len(head) <= LEAD else ("", head)
    return head[:match.start()], head[match.end():]
