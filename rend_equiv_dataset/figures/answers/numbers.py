"""Numbers written in a model output, with what a reader needs to judge each one.

:func:`numbers_in` finds every number in a piece of text (already passed
through :func:`~rend_equiv_dataset.figures.answers.text.prepare`) in one
regex pass, and marks the ones that are not answers on their own: operands
of written arithmetic (``30.5 - 12``: neither is the answer, a result after
``=`` is), the two ends of a hedge (``30 or 40``, ``between 30 and 40``),
numbers after a negation (``not 42``) and years (``in 2019``).

Formats: thousands separators (``1,234``; thin and non-breaking spaces are
removed earlier), a decimal comma only where it cannot be a thousands
separator (``12,5`` and ``1.234,5``; ``1,234`` is one thousand two hundred
thirty-four), scientific notation, a currency sign, ``%``/``percent``, the
suffixes ``k``/``M``/``B``/``bn`` and the words thousand/million/billion/trillion.
A minus sign (``-``, and the en dash or ``−`` mapped to it earlier, or the word
``minus``) is a sign only where no operand stands before it.

Number words (``twenty-five``, ``one hundred and five``, ``three point five``)
are read by :func:`number_words`; a run of number words that does not form
one number (``twenty twenty``) is refused rather than misread.

>>> [(n.value, n.scale, n.percent) for n in numbers_in("Japan: $1,234.5; France 12,5 %; 3.4 million")]
[(1234.5, 1.0, False), (12.5, 1.0, True), (3.4, 1000000.0, False)]
>>> [n.value for n in numbers_in("30.5 - 12 = 18.5") if n.standalone]
[18.5]
>>> [n.value for n in numbers_in("The change is -12 (minus 3 on 2019)")]
[-12.0, -3.0, 2019.0]
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from typing import NamedTuple

from rend_equiv_dataset.figures.answers.text import TailPattern

_SCALES = {
    "k": 1e3, "K": 1e3, "M": 1e6, "B": 1e9, "T": 1e12, "bn": 1e9, "mn": 1e6, "mln": 1e6, "tn": 1e12,
    "thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12, "lakh": 1e5, "crore": 1e7,
}

# A letter or digit that would glue onto a number ("x2", "2b"). Chinese, Japanese and Korean
# characters do not: that text writes numbers without spaces ("2019年", "约42%", "42개").
_GLUED = r"[^\W\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]"

_NUMBER = re.compile(
    r"""
    (?<!GLUED)(?<![.])(?<!\d,)
    (?P<cur>[$€£¥₹]\s?)?
    (?P<digits>
        \d{1,2}(?:,\d\d)+,\d{3}(?:\.\d+)?(?!\d|,\d)
      | \d{1,3}(?:\.\d{3})+,\d+(?!\d|,\d)
      | \d{1,3}(?:\.\d{3}){2,}(?!\d|,\d|\.\d)
      | \d{1,3}(?:,\d{3})+(?:\.\d+)?(?!\d|,\d)
      | \d{1,3}(?P<group>[ '’])\d{3}(?:(?P=group)\d{3})*(?:[.,]\d+)?(?![\d'’]|\s\d)
      | \d{4,}(?P<apostrophe>['’])\d{3}(?:(?P=apostrophe)\d{3})*(?:[.,]\d+)?(?![\d'’])
      | \d+,\d{4,}(?!\d|,\d)
      | \d+,\d{1,2}(?!\d|,\d)
      | \d+(?:\.\d+)?
      | \.\d+
    )
    (?P<exp>[eE][-+]?\d+|\s?[×x*]\s?10\s?(?:\^|\*\*)\s?[-+]?\d+)?
    (?:\s?(?P<suffix>[kKMBT]|bn|mn|mln|tn)(?![A-Za-z]))?
    (?:\s+(?P<word>(?i:thousand|million|billion|trillion|lakh|crore))s?\b)?
    (?P<pct>\s?%|\s+(?i:per\s?cent)\b)?
    (?P<times>\s?[x×](?![A-Za-z\d]|\s*[$€£¥]?\d))?
    (?!GLUED)
    """.replace("GLUED", _GLUED),
    re.VERBOSE,
)

_OPERATORS = frozenset({"-", "+", "*", "/", "x", "×", "÷", "minus", "plus", "times", "divided by", "multiplied by", "over"})
_EQUALS = frozenset({"=", "≈", "~", "~=", "equals", "is equal to", "gives", "makes"})
_YEAR_BEFORE = re.compile(
    r"(?:\b(?:in|since|from|to|of|year|years|during|between|and|until|till|by|for|fy|q[1-4]|h[12]|through|after|before|fiscal|en|em|im|seit|depuis|desde|voor|van|f[üu]r|pour|para|per|del|nel|dal|w|za|в|во|с|до|عام|سنة|năm|tahun)|[,(/،])\s*$",
    re.IGNORECASE,
)
_YEAR_AFTER = re.compile(r"\s?(?:году|года|год\b|г\.|में(?![\w\u0900-\u097f])|yılında|yılı\b)")
"""After a year written the Russian, Hindi or Turkish way ("в 2023 году", "2017 में", "2023 yılında")."""
_NEGATION_BEFORE = TailPattern(re.compile(
    r"(?:\bnot|n't|\bnever|\brather\s+than|\binstead\s+of|\bother\s+than|\bexcept|\bexcluding)\s+(?:be\s+|equal\s+to\s+|exactly\s+|the\s+)?$",
    re.IGNORECASE,
), ("not", "n't", "never", "rather", "instead", "other", "except", "excluding"))
_OR_BETWEEN = re.compile(
    r"(?:(?:[^\W\d_]+\s+)?[^\W\d_]+\s*[,;\u2014]\s*|[,;\u2014-]\s*)?\(?(?:or|oder|ou|o|of|или|либо|또는|혹은|或者?|または|か|soit|أو|या|veya|ya\s+da|hoặc|lub|albo|tai|eller)(?:\s+(?:maybe|perhaps|possibly|probably|about|around|even|closer|close|nearer|to|more|like|rather|vielleicht|eher|peut-être|plutôt|quizás|tal\s+vez)){0,3}|/",
    re.IGNORECASE,
)
_HEDGE_BEFORE = re.compile(
    r"\b(?:(?:somewhere|anywhere)\s+(?:from|between)|between|about|around|approximately|roughly|somewhere|range\s+of|zwischen|entre|tra|fra|tussen|между|от|soit)\s+(?:(?:the|el|la|los|las|le|les|il|lo|der|die|das|den|dem)\s+)?$|介于|在$",
    re.IGNORECASE,
)
_ARTICLE_AFTER = re.compile(r"(?<=\S)\s+(?:the|el|la|los|las|le|les|il|lo|der|die|das|den|dem)$")
"""An article between the two numbers of a range, after its conjunction ("y el", "et le"): dropped before the conjunction is read."""
_CJK_RANGE_BETWEEN = frozenset({"から", "에서", "와", "과", "と", "与", "和", "到", "至", "～", "~"})
_RANGE_AFTER = re.compile(r"\s*(?:[%万億亿억만千]\s*)?(?:[円元圆원]|ドル|美元|달러)?\s*(?:之间|之間|の間|사이|間)|\s*(?:[^\W\d_]+\s+){0,2}aras[ıi]nda\b")
"""After the second number of a range written the East Asian or Turkish way ("30到40之间", "30から40の間", "30에서 40 사이",
"30 ila 40 milyar arasında")."""
_RANGE_BETWEEN = frozenset({"and", "to", "und", "bis", "y", "a", "et", "à", "e", "en", "и", "до", "~", "到", "至", "和", "-", "ila", "ile"})


class Number(NamedTuple):
    """One number as written.

    ``value`` carries the sign; ``scale`` is the scale word or suffix written
    after it (1 without one); ``role`` is ``answer``, or ``operand``, ``hedge``
    or ``negated`` for a number that cannot be the answer on its own; ``year``
    marks a four-digit integer in a date context. A decrease stated in words
    before a positive number ("fell by 8.9%", "a deficit of 845") makes it negative.
    """

    value: float
    scale: float
    percent: bool
    start: int
    end: int
    role: str = "answer"
    year: bool = False
    measure: tuple[str, float] | None = None  # a unit of measure written after it: ("W", 1e9) for "GW" (:func:`measure_at`)
    spread: float = 0.0  # a narrow range read as its midpoint: half its width (:data:`NARROW_RANGE`)

    @property
    def standalone(self) -> bool:
        """Whether the number can be the answer on its own."""
        return self.role == "answer"


def numbers_in(text: str) -> list[Number]:
    """Every number in ``text``, left to right (see the module docstring).

    >>> [n.value * n.scale for n in numbers_in("2億8460万人, 약 3억 2천만 명")]
    [284600000.0, 320000000.0]
    """
    found: list[Number] = []
    for match in _NUMBER.finditer(text):
        number = _read(text, match)
        if number is None:
            continue
        if found and _compound(text, found[-1], number):
            last = found.pop()
            number = last._replace(value=(last.value * last.scale + number.value * number.scale) / last.scale, end=number.end)
        found.append(number)
    return _judge(text, found)


def _compound(text: str, first: Number, second: Number) -> bool:
    """Whether two numbers are one East Asian amount written in parts (``2億 8460万``: the larger unit first)."""
    return (
        first.scale > second.scale
        and first.scale >= 1e4
        and _CJK.match(text, first.end - 1) is not None
        and text[first.end:second.start].strip() == ""
        and (second.scale == 1.0 or _CJK.match(text, second.end - 1) is not None)
    )


def _digits_value(digits: str) -> str:
    """The digits of one written number as Python reads a float: group separators out, the decimal mark a point.

    The last of ``.`` and ``,`` is the decimal mark when both are written; a lone
    comma with one or two digits after it is a decimal comma; otherwise commas,
    spaces, apostrophes and repeated dots group thousands (or lakhs).

    >>> [_digits_value(d) for d in ("1.234,5", "1,234.5", "12,5", "1.234.567", "1 234,56", "1'234.5", "12,34,567")]
    ['1234.5', '1234.5', '12.5', '1234567', '1234.56', '1234.5', '1234567']
    """
    for group in (" ", "'", "\u2019"):
        digits = digits.replace(group, "")
    if "," in digits and "." in digits:
        decimal = "," if digits.rfind(",") > digits.rfind(".") else "."
        group = "." if decimal == "," else ","
        return digits.replace(group, "").replace(decimal, ".")
    if digits.count(".") > 1:
        return digits.replace(".", "")
    if digits.count(",") == 1 and re.fullmatch(r"\d+,\d{1,2}", digits):
        return digits.replace(",", ".")
    if digits.count(",") == 1 and re.fullmatch(r"\d+,\d{4,}|0,\d+", digits):
        return digits.replace(",", ".")
    return digits.replace(",", "")


def _read(text: str, match: re.Match[str]) -> Number | None:
    digits = _digits_value(match.group("digits"))
    try:
        exponent = match.group("exp") or ""
        if exponent and exponent[:1] not in "eE":
            exponent = "e" + re.sub(r"^.*?10\s?(?:\^|\*\*)\s?", "", exponent)
        value = float(digits + exponent)
    except (OverflowError, ValueError):
        return None
    scale = 1.0
    for word in (match.group("suffix"), match.group("word")):
        if word == "T" and not match.group("cur"):
            continue  # "3T" is a trillion only after a currency sign ("$3.57T"); alone it may be a unit
        if word:
            scale *= _SCALES.get(word, _SCALES.get(word.lower(), 1.0))
    end = match.end()
    if scale == 1.0 and not match.group("pct") and not match.group("times"):
        local = scale_word_after(text, end)
        if local is not None:
            scale, end, dot_groups = local
            if dot_groups and re.fullmatch(r"\d{1,3}\.\d{3}", match.group("digits")):
                value *= 1000
    if scale in (1e3, 1e5):  # stacked scale words multiply: "1.2 thousand million", "3,1 mil milhões", "9.77 lakh crore"
        stacked = scale_word_after(text, end)
        short = _SHORT_SCALE_AFTER.match(text, end) if stacked is None else None
        if short is not None:
            stacked = (_SCALES[short.group(1)], short.end(), False)
        if stacked is not None and stacked[0] >= 1e6:
            scale, end = scale * stacked[0], stacked[1]
    percent = match.group("pct") is not None
    points = _BASIS_POINTS.match(text, end) if not percent and scale == 1.0 else None
    if points is not None:  # "525 bps", "25 basis points": hundredths of a percentage point, in percent
        value, percent, end = value / 100, True, points.end()
    start = match.start()
    if _negative(text, start):
        value = -value
        start -= 1 if text[start - 1] == "-" else 0
    elif value > 0 and (_WORDED_DECREASE.search(text[max(0, start - 40):start]) or _WORDED_DECREASE_AFTER.match(text, end, end + 40)
                        or (_DEFICIT_SUBJECT.search(text[max(0, start - 90):start])
                            and not re.fullmatch(r"(?:19|20)\d\d", match.group("digits")))):
        value = -value
    if not math.isfinite(value * scale):
        return None
    plain = not (match.group("cur") or match.group("exp") or scale != 1.0 or percent or match.group("times"))
    year = plain and re.fullmatch(r"(?:19|20)\d\d", match.group("digits")) is not None
    measure = BASIS_POINT if points is not None else measure_at(text, end) if scale == 1.0 and not percent else None
    return Number(value, scale, percent, start, end, "answer", year, measure)


BASIS_POINT = ("%", 1.0)
"""The measure of a number written in basis points, read in percent (a question asked in basis points has ``("%", 0.01)``)."""
_BASIS_POINTS = re.compile(r"\s?(?:bps?|basis\s+points?|Basispunkte\w*|points\s+de\s+base|puntos\s+b[áa]sicos|pontos[\s-]+base)\b", re.IGNORECASE)


_WORDED_DECREASE = TailPattern(re.compile(
    r"(?:\b(?:deficit|loss|decline|decrease|drop|fall|shortfall|contraction|reduction)\s+(?:of|:)|\b(?:deficit|net\s+loss)\s*[:=]"
    r"|\b(?:fell|falls|fall|dropped|drops|declined|declines|decreased|decreases|shrank|shrunk|contracted|lost|down|sank|slipped)"
    r"(?:\s+by)?"
    r"|\b(?:baj[oó]|bajaron|cay[oó]|cayeron|disminuy[oó]|disminuyeron|sank|sanken|gesunken|r[üu]ckgang\s+(?:von|um)|um|a\s+baiss[ée]|baiss[ée]e?s?|diminu[ée]|baisse\s+de|calo\s+del?|diminuito\s+del?|снизил\w*|сократил\w*|упал[аио]?|уменьшил\w*"
    r"|d[ée]fici[td](?:\s+[^\W\d_]+)?\s+(?:de|von|di|do|of)|defizit\s+(?:von|in\s+h[öo]he\s+von)|perte\s+de|p[ée]rdida\s+de|verlust\s+von|perdita\s+di|preju[íi]zo\s+de"
    r"|disavanzo(?:\s+[^\W\d_]+)?\s+di|дефицит\w*(?:\s+[^\W\d_]+){0,3}\s+(?:в\s+размере|на\s+уровне|составил\w*)|recul[ée]e?s?\s+de"
    r"|انخفض\w*(?:\s+[^\W\d_]+){0,2}\s+بنسبة|تراجع\w*(?:\s+[^\W\d_]+){0,2}\s+بنسبة|عجز\w*(?:\s+[^\W\d_]+){0,2}\s+(?:بقيمة|قدره)"
    r"|negative(?:\s+(?:in|for)\s+(?:19|20)\d\d)?,?\s+(?:at|of|with)|calat[oa]\s+del?|diminuit[oa]\s+del?"
    r"|queda\s+de|recuo\s+de|retra[çc][ãa]o\s+de|ca[íi]da\s+del?|contracci[óo]n\s+del?|recul\s+de|contraction\s+de|contrazione\s+del?|a[çc][ıi]k\w*|a[çc][ıi][ğg][ıi]))"
    r"\s+(?:(?:un|una|el|la|le|del|de|en|um|uno|an?|на)\s+)?(?:(?:about|around|approximately|roughly|some|nearly|almost|just|only|merely|a\s+mere)\s+)?[*_]{0,2}[$€£¥]?\s?$"
    r"|(?:零下|負|负|マイナス|赤字|亏损|虧損|(?:下降|减少|減少|下跌|下滑|降低|减|降|跌)了?(?:约|約)?)\s?$",
    re.IGNORECASE,
), ("fici", "defizit", "sunken", "loss", "declin", "decreas", "drop", "fall", "fell", "contract", "reduction", "shrank", "shrunk", "lost", "down", "sank", "slipped", "baj", "cay", "disminu", "ckgang", "um", "baiss", "diminu", "calo", "perte", "rdida", "verlust", "perdita", "preju", "queda", "recuo", "retra", "negative", "calat", "caíd", "caid", "contrac", "recul", "contrazione", "açı", "aci", "снизил", "сократил", "упал", "уменьшил", "дефицит", "disavanzo", "انخفض", "تراجع", "عجز", "零下", "負", "负", "マイナス", "赤字", "亏损", "虧損", "下", "减", "減", "降", "跌"))
_WORDED_DECREASE_AFTER = re.compile(
    r"\s?(?:(?:°\s?[CF]|[^\W\d_]{1,12})\s+)?(?:deficit|d[ée]ficit|defizit|shortfall|decline|decrease|drop|contraction|below\s+zero|under\s+zero|sous\s+z[ée]ro|bajo\s+cero"
    r"|unter\s+null|abaixo\s+de\s+zero|sotto\s+(?:lo\s+)?zero|ниже\s+нуля)\b|\s?(?:की\s+)?गिरावट"
    r"|\s?(?:[^\s\d]+\s+){0,3}(?:का\s+|की\s+)?(?:व्यापार\s+)?घाटा|\s?(?:घटा|घटी|घटे|घट\s+गया|घट\s+गई)",
    re.IGNORECASE,
)
_DEFICIT_SUBJECT = TailPattern(re.compile(
    r"(?:\b(?:deficits?|shortfall|net\s+loss|d[ée]ficits?|disavanzo|d[ée]fice)|defizit|дефицит\w*|赤字|逆差|亏损|적자|عجز)"
    r"(?:(?!surplus|[üu]berschuss|exc[ée]dent|super[áa]vit|avanzo|профицит|盈余|顺差|黒字|흑자|فائض)[^.;!?\n]){0,60}?"
    r"(?:\b(?:was|is|were|are|stood\s+at|amounted\s+to|came\s+(?:in\s+)?(?:at|to)|totall?ed|reached|hit|widened\s+to|narrowed\s+to"
    r"|(?:appears|appeared|seems|seemed|looks)\s+to\s+be|betrug|lag\s+bei|belief\s+sich\s+auf|erreichte|составил[аио]?|достиг\w*"
    r"|s'(?:est\s+)?[ée]lev\w*\s+[àa]|[ée]tait\s+de|a\s+atteint|atteint|fue\s+de|ascendi[óo]\s+a|alcanz[óo]|foi\s+de|atingiu"
    r"|[èe]\s+stato\s+di|ammontava\s+a|era\s+de|era\s+di)|[:=]|为|は|은|는|이|가|بلغ)"
    r"\s*(?:(?:in\s+|im\s+(?:jahr\s+)?|en\s+|в\s+)?(?:19|20)\d\d(?:\s+г(?:од[уа]?)?\.?)?,?\s+)?"
    r"(?:(?:about|around|approximately|roughly|nearly|some|almost|rund|etwa|ca\.|environ|pr[èe]s\s+de|aproximadamente|cerca\s+de"
    r"|около|примерно|почти|约|約|약|حوالي|nahezu|circa)\s*)?[$€£¥]?\s?$",
    re.IGNORECASE,
), ("defici", "defizit", "shortfall", "net loss", "disavanzo", "déficit", "deficit", "дефицит", "赤字", "逆差", "亏损", "적자", "عجز", "défic"))
"""A deficit named as the sentence's subject, the number its size after a copula ("The federal budget deficit in fiscal
2023 was about 1.7 trillion", "Das Handelsbilanzdefizit betrug 845 Mio.", "Дефицит бюджета составил 3,2 трлн"): the number
is the balance read negative (a question that names the deficit itself still takes its size)."""
"""A deficit or a temperature below zero stated in words after a positive number ("845 million deficit",
"6.5 degrees below zero"): the number is read negative."""
"""A decrease stated in words before a positive number ("fell by 8.9%", "a deficit of 845"): the number is read negative."""


@lru_cache(maxsize=1)
def _cldr_scales() -> tuple[re.Pattern[str], dict[str, tuple[float, bool]]]:
    """Scale words after a number, from CLDR's compact decimal formats (babel), e.g. ``Millionen``, ``milliards``, ``万``, ``억``.

    Each word maps to (scale, whether its language groups thousands with ``.``).
    English comes first and wins a word two languages share ("billion" is 1e9);
    short forms under three letters are taken from English only (and never one
    letter: ``42 m`` is metres; ``k``/``M``/``B`` are read by the number pattern).
    """
    from babel import Locale
    from babel.numbers import get_group_symbol

    table: dict[str, tuple[float, bool]] = {}
    for code in SCALE_LANGUAGES:
        locale = Locale.parse(code)
        dot_groups = get_group_symbol(locale) == "."
        for kind in ("long", "short"):
            for by_magnitude in locale.compact_decimal_formats.get(kind, {}).values():
                for magnitude, form in by_magnitude.items():
                    form_text = str(getattr(form, "pattern", form))
                    zeros = form_text.count("0")
                    word = " ".join(form_text.replace("0", "").replace("'", "").split()).strip()
                    if not word or not zeros or (len(word.rstrip(".")) < 3 and not (code == "en" and len(word) > 1) and not _CJK.match(word)):
                        continue
                    scale = float(magnitude) / 10 ** (zeros - 1)
                    if scale <= 1:
                        continue
                    for key in (word.lower(), word.lower().rstrip(".")):
                        table.setdefault(key, (scale, dot_groups))
    for word, scale in _SOUTH_ASIAN.items():  # written in English text too: "₹452 crore"
        table.setdefault(word, (scale, False))
    words = sorted(table, key=len, reverse=True)
    pattern = re.compile(
        r"[ \u00a0]?(" + "|".join(re.escape(w) for w in words) + r")(?:(?<=\.)|(?![^\W\d_])|(?<=[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]))",
        re.IGNORECASE,
    )
    return pattern, table


SCALE_LANGUAGES = ("en", "de", "fr", "es", "it", "pt", "nl", "ru", "pl", "sv", "tr", "zh", "ja", "ko", "hi")
_SOUTH_ASIAN = {"lakh": 1e5, "lakhs": 1e5, "crore": 1e7, "crores": 1e7}
"""Languages whose CLDR scale words (thousand … trillion, 万, 億) are read after a number."""

_CJK = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]")
_SCALE_START = re.compile(r"[ \u00a0]?[^\W\d_]")


def scale_word_after(text: str, end: int) -> tuple[float, int, bool] | None:
    """(scale, new end, dot groups) when scale words in any of :data:`SCALE_LANGUAGES` follow a number ending at ``end``.

    Chinese, Japanese and Korean scale characters stack (``2천만`` is 2 × 1000 × 10⁴).
    ``dot groups`` says the word's language writes ``1.186`` for one thousand one hundred eighty-six.

    >>> scale_word_after("42 Millionen Euro", 2), scale_word_after("3,5 milliards", 3), scale_word_after("42万人", 2)
    ((1000000.0, 12, True), (1000000000.0, 13, False), (10000.0, 3, False))
    >>> scale_word_after("2천만", 1)
    (10000000.0, 3, False)
    """
    if not _SCALE_START.match(text, end):
        return None
    pattern, table = _cldr_scales()
    match = pattern.match(text, end)
    if match is None:
        return None
    word = match.group(1).lower()
    scale, dot_groups = table.get(word, table.get(word.rstrip("."), (1.0, False)))
    position = match.end()
    while _CJK.match(word) and position < len(text) and _CJK.match(text, position):
        more = pattern.match(text, position)
        if more is None or not _CJK.match(more.group(1)):
            break
        word = more.group(1).lower()
        scale *= table.get(word, (1.0, False))[0]
        position = more.end()
    return scale, position, dot_groups


_SHORT_SCALE_AFTER = re.compile(r"[ \u00a0](M|B|bn|mn|mln|million|billion)\b")
"""An English scale word or letter after ``thousand`` ("1.2 thousand M EUR")."""


_PREFIXES = {"k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "m": 1e-3, "c": 1e-2,
             "kilo": 1e3, "mega": 1e6, "giga": 1e9, "tera": 1e12, "milli": 1e-3, "centi": 1e-2}
_MEASURE_WORDS = {"watt-hour": "Wh", "watt hour": "Wh", "watthour": "Wh", "watt": "W", "metre": "m", "meter": "m", "gram": "g",
                  "gramme": "g", "tonne": "t", "ton": "t"}
_MEASURE = re.compile(
    r"(?P<prefix>[kMGT]|m|c)?(?P<symbol>Wh|W|t|g|m)(?![\w/])"
    r"|(?i:(?P<word_prefix>kilo|mega|giga|tera|milli|centi)?-?(?P<word>watt[- ]?hours?|watts?|met(?:re|er)s?|gram(?:me)?s?|tonnes?|tons?))\b"
)
"""A unit of measure with an SI prefix, as a symbol (``GW``, ``mm``, ``Mt``, ``TWh``; prefixes and symbols by case) or a word
(``gigawatts``, ``millimetres``, ``terawatt-hours``, ``tonnes``)."""


def measure_at(text: str, position: int) -> tuple[str, float] | None:
    """(base unit, factor) of a unit of measure at ``position`` after an optional space ("1.23 GW": ("W", 1e9)), or None."""
    start = position + 1 if text[position:position + 1] in (" ", "\u00a0") else position
    match = _MEASURE.match(text, start)
    if match is None:
        return None
    if match.group("symbol"):
        if match.group("symbol") == "m" and match.group("prefix") in (None, "m") and not match.group("prefix"):
            return "m", 1.0
        return match.group("symbol"), _PREFIXES.get(match.group("prefix") or "", 1.0)
    word = match.group("word").lower().rstrip("s").replace("-", " ")
    base = next(symbol for stem, symbol in _MEASURE_WORDS.items() if word.startswith(stem.replace("-", " ")))
    return base, _PREFIXES.get((match.group("word_prefix") or "").lower(), 1.0)


def _negative(text: str, start: int) -> bool:
    if start > 0 and text[start - 1] == "-":
        before = start - 2
    elif text[max(0, start - 6):start].lower() == "minus ":
        before = start - 7
    elif text[max(0, start - 9):start].lower() == "negative ":
        before = start - 10
    else:
        return False
    while before >= 0 and text[before] == " ":
        before -= 1
    return before < 0 or not (text[before].isdigit() or text[before] in ")%")


def _judge(text: str, found: list[Number]) -> list[Number]:
    roles = ["answer"] * len(found)
    for i in range(len(found) - 1):
        left, right = found[i], found[i + 1]
        between = _ARTICLE_AFTER.sub("", " ".join(text[left.end:right.start].split()).lower())  # "entre el 15 % y el 17 %"
        between = _CURRENCY_AFTER.sub("", between)  # "between 12.4 and $12.9 billion"
        if between.strip("() ") in _OPERATORS:  # "(55 + 52) / 2"
            between = between.strip("() ")
        before = text[max(0, left.start - 20):left.start]
        if text[left.end:right.start] == "-" and not _followed_by_operator(text, right.end) and not _EQUALS_AFTER.match(text, right.end) and (
            _HEDGE_BEFORE.search(before) or (right.percent and not left.percent) or _RANGE_WORD_AFTER.match(text, right.end)
        ):  # "approximately 60-62%", "in the range of 170-175%": a range written with a hyphen, not a subtraction
            roles[i] = roles[i + 1] = "range"
        elif between in _OPERATORS:
            roles[i] = roles[i + 1] = "operand"
        elif between in _EQUALS:
            roles[i] = "operand"
            roles[i + 1] = "operand" if _followed_by_operator(text, right.end) else "answer"
        elif _OR_BETWEEN.fullmatch(between):
            roles[i] = roles[i + 1] = "hedge"
        elif (
            (between in _RANGE_BETWEEN and _HEDGE_BEFORE.search(before))
            or (between in _RANGE_BETWEEN | _CJK_RANGE_BETWEEN and _RANGE_AFTER.match(text, right.end))
        ):
            roles[i] = roles[i + 1] = "range"
    judged = []
    for i, number in enumerate(found):
        if roles[i] == "answer" and _NEGATION_BEFORE.search(text[max(0, number.start - 30):number.start]):
            roles[i] = "negated"
        year = number.year and (
            _YEAR_BEFORE.search(text[max(0, number.start - 12):number.start]) is not None
            or re.match(r"\s*[-/]\s*\d", text[number.end:number.end + 4]) is not None
            or _YEAR_AFTER.match(text, number.end) is not None
        ) or (number.scale == 1.0 and not number.percent and text[number.end:number.end + 1] in ("月", "日", "年", "号", "월", "일"))
        # "1月" (January), "3日", "2019年": a date, not a quantity
        judged.append(number._replace(role=roles[i], year=year))
    return _narrow_ranges(judged)


NARROW_RANGE = 0.05
"""A range no wider than this share of its midpoint (the numbers' tolerance: "between 42 and 43", "170-175%",
"1,200 to 1,250") is read as that midpoint, carrying half its width (``spread``): it is correct only where both
ends are within the tolerance (:func:`~rend_equiv_dataset.figures.answers.grade.compare`). A wider range
("entre 60 et 65 %", ``zwischen 30 und 40``) is no answer."""


def _narrow_ranges(judged: list[Number]) -> list[Number]:
    """Each pair of range ends (role ``range``) narrow enough to be one answer, merged into its midpoint."""
    out: list[Number] = []
    i = 0
    while i < len(judged):
        left = judged[i]
        right = judged[i + 1] if i + 1 < len(judged) else None
        if left.role == "range" and right is not None and right.role == "range" and not left.year and not right.year:
            scale = right.scale if left.scale == 1.0 else left.scale  # "12.4 and 12.9 billion": one scale word for both
            low, high = (left.value if left.scale == 1.0 else left.value * left.scale / scale), right.value * right.scale / scale
            middle = (low + high) / 2
            if low < high and middle and high - low <= NARROW_RANGE * abs(middle) + 1e-12:
                out.append(right._replace(value=middle, scale=scale, percent=left.percent or right.percent, start=left.start,
                                          role="answer", spread=(high - low) / 2))
                i += 2
                continue
        out.append(left)
        i += 1
    return out


_CURRENCY_AFTER = re.compile(r"(?<=\S)\s*[$€£¥]$")
_RANGE_WORD_AFTER = re.compile(r"\s?(?:%|°\s?[CF]|[^\W\d_]{1,6})?\s*(?:range|band|bracket)\b", re.IGNORECASE)
"""A unit and "range" after a hyphenated pair ("in the 31.7–32.8°C range", "the 292–302 TWh range")."""
_EQUALS_AFTER = re.compile(r"\s*[%]?\s*(?:=|≈|equals\b|is\b)")


def _followed_by_operator(text: str, end: int) -> bool:
    return re.match(r"\s*(?:[-+*/×÷]|minus|plus|times)\s*[$€£¥]?\d", text[end:end + 16]) is not None


_UNITS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen".split()
)}
_TENS = {w: 10 * (i + 2) for i, w in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split())}
_BIG = {"thousand": 1e3, "million": 1e6, "billion": 1e9}
_WORD_RUN = re.compile(
    r"\b(?:(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|"
    r"seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|"
    r"billion|point)(?:[\s-]+(?:and[\s-]+)?(?=[a-z])|\b))+",
    re.IGNORECASE,
)
_NOT_A_NUMBER_AFTER = re.compile(r"\s+(?:of|with|that|which|who|another|in\s+which)\b", re.IGNORECASE)
_NOT_A_NUMBER_BEFORE = re.compile(r"\b(?:the|which|each|any|every|no|this|that|only|single)\s+$", re.IGNORECASE)


def number_words(text: str) -> list[tuple[float | None, int, int]]:
    """(value, start, end) of each run of number words; value ``None`` where the run is not one number.

    >>> [v for v, _, _ in number_words("twenty-five, one hundred and five, three point five, twenty twenty")]
    [25.0, 105.0, 3.5, None]
    >>> number_words("the one with the highest value")
    []
    """
    runs = []
    for match in _WORD_RUN.finditer(text):
        words = [w for w in re.split(r"[\s-]+", match.group(0).lower()) if w and w != "and"]
        if words == ["one"] and (
            _NOT_A_NUMBER_AFTER.match(text, match.end()) or _NOT_A_NUMBER_BEFORE.search(text[max(0, match.start() - 12):match.start()])
        ):
            continue
        value, end = _words_value(words), match.end()
        if value is not None:
            value, end = _with_fraction(text, value, end)
        runs.append((value, match.start(), end))
    return runs


_AND_A = re.compile(r"(?:\s*and\s+)?a\s+(half|quarter)\b", re.IGNORECASE)
_DENOMINATOR = re.compile(r"[\s-]*(half|halves|thirds?|quarters?|fourths?|fifths?|sixths?|sevenths?|eighths?|ninths?|tenths?)\b", re.IGNORECASE)
_DENOMINATORS = {"half": 2, "halve": 2, "third": 3, "quarter": 4, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8, "ninth": 9,
                 "tenth": 10}


def _with_fraction(text: str, value: float, end: int) -> tuple[float, int]:
    """A run of number words with the fraction after it: "two and a half" is 2.5, "one-eighth" 0.125, "three quarters" 0.75."""
    half = _AND_A.match(text, end)
    if half is not None and value == int(value):
        return value + (0.5 if half.group(1).lower() == "half" else 0.25), half.end()
    denominator = _DENOMINATOR.match(text, end)
    if denominator is not None and 0 < value <= 10 and value == int(value):
        word = denominator.group(1).lower().removesuffix("s")
        return value / _DENOMINATORS[word], denominator.end()
    return value, end


def _words_value(words: list[str]) -> float | None:
    if len(words) > 1 and words[-1] in _BIG and "point" in words:
        inner = _words_value(words[:-1])
        return inner * _BIG[words[-1]] if inner is not None else None
    if "point" in words:
        index = words.index("point")
        whole = _words_value(words[:index]) if index else 0.0
        digits = words[index + 1:]
        if whole is None or not digits or any(w not in _UNITS or _UNITS[w] > 9 for w in digits):
            return None
        return whole + float("0." + "".join(str(_UNITS[w]) for w in digits))
    total, current, last = 0.0, 0.0, ""
    for word in words:
        if word in _UNITS:
            if last in ("unit", "teen") or (last == "tens" and _UNITS[word] >= 10) or (last == "tens" and _UNITS[word] == 0):
                return None
            current += _UNITS[word]
            last = "teen" if _UNITS[word] >= 10 else "unit"
        elif word in _TENS:
            if last in ("unit", "teen", "tens"):
                return None
            current += _TENS[word]
            last = "tens"
        elif word == "hundred":
            if last not in ("unit", "teen") or current >= 100:
                return None
            current *= 100
            last = "hundred"
        elif word in _BIG:
            if last in ("", "big"):
                return None
            total += max(current, 1.0) * _BIG[word]
            current, last = 0.0, "big"
        else:
            return None
    return total + current if last else None


WORD_LANGUAGES = ("fr", "de", "es", "it", "pt", "nl")
"""Languages whose number words are read by ``text2num`` (English words by :func:`number_words`)."""

_FOREIGN_HINT = re.compile(
    r"(?:un|deux|trois|quatre|cinq|six|sept|huit|neuf|dix|onze|douze|vingt|trente|quarante|cinquante|soixante|cent|mille"
    r"|eins|zwei|drei|vier|fünf|sechs|sieben|acht|neun|zehn|elf|zwölf|zig|ßig|hundert|tausend"
    r"|uno|dos|tres|cuatro|cinco|seis|siete|ocho|nueve|diez|veint|treinta|cuarenta|cincuenta|sesenta|setenta|ochenta|noventa|cien|mil"
    r"|due|quattro|sette|otto|nove|dieci|vent|trenta|quaranta|cinquanta|sessanta|settanta|ottanta|novanta"
    r"|dois|três|oito|dez|trinta|quarenta|cinquenta|sessenta|oitenta"
    r"|twee|drie|zeven|negen|tien|twintig|dertig|veertig|vijftig|zestig|tachtig|negentig|honderd|duizend)",
    re.IGNORECASE,
)
"""A cheap test that a piece may hold number words in :data:`WORD_LANGUAGES` before ``text2num`` is asked."""
_WORD_PERCENT = re.compile(r"\b(?:pour\s?cent|por\s?ciento|per\s?cento|por\s?cento|prozent|procent)\b", re.IGNORECASE)


_HAN_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "兩": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_HAN_UNITS = {"十": 10, "百": 100, "千": 1000}
_HAN_SECTIONS = {"万": 10_000, "萬": 10_000, "亿": 100_000_000, "億": 100_000_000}
_HAN_NUMERAL = re.compile(
    "[零〇一二两兩三四五六七八九十百千万萬亿億]{2,}(?:[点點][零〇一二三四五六七八九]+)?|[零〇一二两兩三四五六七八九十][点點][零〇一二三四五六七八九]+"
)
"""A number written in Chinese numerals (``四十二点七``, ``三千五百万``); one character alone is a word, not a number."""


def han_numerals(text: str) -> list[Number]:
    """Numbers written in Chinese numerals, for text without digits (the positional grammar of 十 百 千 万 亿 and 点).

    >>> [n.value for n in han_numerals("四十二点七，三千五百万，两百零五，二〇二二")]
    [42.7, 35000000.0, 205.0, 2022.0]
    """
    found = []
    for match in _HAN_NUMERAL.finditer(text):
        whole, _, decimals = match.group(0).replace("點", "点").partition("点")
        total, section, digit = 0, 0, 0
        if all(char in _HAN_DIGITS for char in whole):  # 二〇二二: digit by digit
            whole, digit = "", int("".join(str(_HAN_DIGITS[char]) for char in whole))
        for char in whole:
            if char in _HAN_DIGITS:
                digit = _HAN_DIGITS[char]
            elif char in _HAN_UNITS:
                section += (digit or 1) * _HAN_UNITS[char]
                digit = 0
            else:
                total += (section + digit) * _HAN_SECTIONS[char]
                section = digit = 0
        value = total + section + digit + (float("0." + "".join(str(_HAN_DIGITS[c]) for c in decimals)) if decimals else 0.0)
        found.append(Number(float(value), 1.0, False, match.start(), match.end()))
    return found


def foreign_number_words(text: str) -> list[Number]:
    """Numbers written in French, German, Spanish, Italian, Portuguese or Dutch words (``text2num``), for text without digits.

    The first language whose reading turns words into digits wins; positions
    refer to the converted text.

    >>> [(n.value, n.percent) for n in foreign_number_words("Il s'agit de quarante-deux pour cent.")]
    [(42.0, True)]
    >>> [n.value for n in foreign_number_words("Der Wert beträgt vierundsechzig Tausend Tonnen.")]
    [64000.0]
    """
    if not _FOREIGN_HINT.search(text):
        return []
    try:
        from text_to_num import alpha2digit
    except ImportError:  # pragma: no cover - text2num is a core dependency; a bare install still grades
        return []
    marked = _WORD_PERCENT.sub("%", text)
    for language in WORD_LANGUAGES:
        try:
            converted = alpha2digit(marked, language)
        except (ValueError, IndexError):  # pragma: no cover - text2num refuses some inputs
            continue
        if converted != marked and any(c.isdigit() for c in converted):
            return [n for n in numbers_in(converted) if n.standalone]
    return []
