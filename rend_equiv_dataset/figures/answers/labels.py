"""Category labels mentioned in a model output, by the aliases a human grader accepts.

A label is found by its word tokens, compared case- and space-insensitively
(``new york``, ``NewYork`` and ``New-York`` are ``New York``), and by these
aliases:

- singular and plural of the last word (``Apple`` for ``Apples``, ``buses``
  for ``Bus``, ``categories`` for ``Category``);
- month names, full or short (``Sep``/``Sept``/``September``), when the label
  is a month;
- quarters written ``Q3 2022``, ``Q3-2022``, ``2022 Q3`` or ``Q3'22``;
- ``FY2019`` / ``FY 2019`` for the year label ``2019``.

A label that is also an ordinary English word (``May``, ``Go``, ``Other``)
counts only where it stands as the answer: the whole answer text, written
as the label is written (``Go has the most stars``), or capitalised inside a
sentence; ``it may be`` and ``let's go`` are not mentions.

Matching walks the word tokens once, trying spans of at most
:data:`MAX_TOKENS` tokens at each one: linear in the text.

>>> index = label_index(("Apples", "New York", "Q3 2022", "Sep", "2019", "May"))
>>> [m.label for m in mentions("apple, newyork, 2022 Q3, September", index)]
['Apples', 'New York', 'Q3 2022', 'Sep']
>>> [m.label for m in mentions("FY2019", label_index(("2018", "2019")))]
['2019']
>>> [m.label for m in mentions("It may be May.", index)]
['May']
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

MAX_TOKENS = 8
"""Longest label, in word tokens, that is recognised."""
NOT_A_LABEL = "\x00"
"""The index's value for a name that holds a label's word but names something else (``North Korea``)."""

_CJK_CHARS = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
_TOKEN = re.compile(rf"[{_CJK_CHARS}]|[^\W_{_CJK_CHARS}]+(?:'(?:s|t|re|ve|ll|d|m)(?![^\W_]))?")
"""Word tokens; each Chinese, Japanese or Korean character is a token of its own (those scripts write no spaces),
and an elided article stays apart from its word (``l'Allemagne``, ``dell'Italia``)."""
_MONTHS = (
    ("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"), ("may",), ("june", "jun"),
    ("july", "jul"), ("august", "aug"), ("september", "sep", "sept"), ("october", "oct"),
    ("november", "nov"), ("december", "dec"),
)
_MONTH = {name: f"month:{i + 1}" for i, names in enumerate(_MONTHS) for name in names}
_DAYS = (
    ("monday", "mon"), ("tuesday", "tue", "tues"), ("wednesday", "wed"), ("thursday", "thu", "thur", "thurs"), ("friday", "fri"),
    ("saturday",), ("sunday",),
)
_DAY = {name: f"day:{i}" for i, names in enumerate(_DAYS) for name in names}
"""English weekday names and their short forms (not ``sat`` and ``sun``: everyday words)."""
CALENDAR_LANGUAGES = ("en", "de", "fr", "es", "it", "pt", "nl", "ru", "pl", "sv", "tr", "zh", "ja", "ko")
"""Languages whose CLDR month and quarter names (babel) match month and quarter labels."""
_CJK_LOCALES = ("zh", "ja", "ko")


def _latin_folds() -> dict[int, str]:
    """Latin letters with accents → the letter alone (``Zürich`` is ``Zurich``, ``Québec`` is ``Quebec``)."""
    folds = {}
    for code in range(0xC0, 0x250):
        base = unicodedata.normalize("NFKD", chr(code))[:1]
        if base.isascii() and base.isalpha() and base != chr(code):
            folds[code] = base
    return folds


_FOLD = _latin_folds()


_RUSSIAN_ENDINGS = tuple(sorted(
    "ами ями ого его ому ему ыми ими ой ей ом ем ах ях ам ям ою ею ую юю ая яя ое ее ые ие ый ий а я ы и е у ю о ь й".split(),
    key=len, reverse=True,
))
_CYRILLIC = re.compile(r"[\u0400-\u04ff]")
_ARABIC = re.compile(r"[\u0600-\u06ff]")
_ARABIC_PREFIX = re.compile(r"^(?:و|ف)?(?:ب|ك|ل)?(?=ال)|^(?:و|ف)(?=لل)")


def _low(token: str) -> str:
    """A token as labels and outputs are compared: lower case, Latin accents dropped, a Russian word by its stem
    (``Москве``, ``Москва``; ``Польши``, ``Польша``: Russian declines names, a grader reads them as one), an Arabic
    word without the prefixes before its article (``للمغرب``, ``المغرب``)."""
    token = token.lower()
    if token.isascii():
        return token
    if _ARABIC.match(token):  # "للمغرب", "والمغرب", "بالمغرب": the article's prefixes are not the name
        token = _ARABIC_PREFIX.sub("", token)
        return "ال" + token[2:] if token.startswith("لل") else token
    if _CYRILLIC.match(token):
        for ending in _RUSSIAN_ENDINGS:
            if token.endswith(ending) and len(token) - len(ending) >= 3:
                return token[:-len(ending)]
        return token
    return token.translate(_FOLD)


@lru_cache(maxsize=1)
def _calendar() -> tuple[dict[str, str], dict[str, str], frozenset[str]]:
    """CLDR month, weekday and quarter names in :data:`CALENDAR_LANGUAGES` (babel), read once.

    Returns month or weekday key → ``month:N`` or ``day:N`` (English short forms included; other
    languages' wide names only, and the abbreviated ones of Chinese, Japanese
    and Korean, ``5月``: short forms such as ``ago`` or ``mar`` are everyday
    words elsewhere), quarter name tokens → ``N`` (``3e trimestre``,
    ``3. Quartal``, ``第3四半期``), and the tokens either can start with.
    """
    from babel.dates import get_day_names, get_month_names, get_quarter_names

    months = dict(_MONTH) | _DAY
    quarters: dict[str, str] = {}
    starts = set(months)
    for code in CALENDAR_LANGUAGES:
        for context in ("format", "stand-alone"):
            for number, name in get_day_names("wide", context, code).items():
                tokens = [_low(t) for t in _TOKEN.findall(unicodedata.normalize("NFKC", name))]
                if tokens:
                    months.setdefault("".join(tokens), f"day:{number}")
                    starts.add(tokens[0])
            for width in ("wide", "abbreviated") if code in _CJK_LOCALES else ("wide",):
                for number, name in get_month_names(width, context, code).items():
                    tokens = [_low(t) for t in _TOKEN.findall(unicodedata.normalize("NFKC", name))]
                    if tokens:
                        months.setdefault("".join(tokens), f"month:{number}")
                        starts.add(tokens[0])
            for number, name in get_quarter_names("wide", context, code).items():
                tokens = [_low(t) for t in _TOKEN.findall(unicodedata.normalize("NFKC", name))]  # as outputs are read
                if tokens:
                    quarters.setdefault(" ".join(tokens), str(number))
                    starts.add(tokens[0])
    return months, quarters, frozenset(starts)
_ORDINARY = frozenset(
    """a an the and or but not no yes may can will go do did does is are was were be been it its this that these those
    in on at of to for by with from up down out over under off new old other others rest all any some none total sum mean
    average best top bottom high low more less most least first last next one well good bad us me we he she they you i
    so as if then than when while what which who how why also only just still even back end mid march""".split()
)


class Mention(NamedTuple):
    """A label found in text: which label, where, and whether it was written capitalised."""

    label: str
    start: int
    end: int
    capitalised: bool


@dataclass(frozen=True)
class LabelIndex:
    """Alias key → label, for one label set; ``ordinary`` holds labels that are everyday words."""

    keys: dict[str, str]
    ordinary: frozenset[str]
    years: bool
    longest: int
    prefixes: frozenset[str]
    cased: frozenset[str] = frozenset()
    acronyms: tuple[str, ...] = ()  # labels written as an acronym ("AWS", "BJP"): found also as the words they abbreviate
    titled: frozenset[str] = frozenset()  # keys that count only written with a capital: a label's own word alone ("Aramco")


@lru_cache(maxsize=65536)
def _singular(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("ses", "xes", "zes", "ches", "shes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def _keys(tokens: list[str], years: bool) -> list[str]:
    """Every alias key of a token span (lower-case tokens)."""
    joined = "".join(tokens)
    keys = [joined]
    if joined.endswith("s"):
        singular = "".join(tokens[:-1]) + _singular(tokens[-1])
        if singular != joined:
            keys.append(singular)
    months, quarters, _ = _calendar()
    if len(tokens) <= 3 and joined in months:
        keys.append(months[joined])
    elif 2 <= len(tokens) <= 4 and re.fullmatch(r"(?:19|20)\d\d", tokens[-1]) and "".join(tokens[:-1]) in months:
        keys.append(f"{months[''.join(tokens[:-1])]}:{tokens[-1]}")  # "June 2022" is the label "Jun 2022"
    if (len(tokens) <= 2 and "q" in (tokens[0][:1], tokens[-1][:1], tokens[0][1:2], joined[4:5])) or (len(tokens) in (2, 3, 4) and tokens[1] == "quarter") or (
        len(tokens) > 1 and (_QUARTER_WORDS.intersection(tokens) or tokens[1].startswith(_QUARTER_STEMS))
    ):
        quarter = _quarter(tokens)
        if quarter:
            keys.append(quarter)
            if not quarter.endswith(":"):
                keys.append(quarter.rsplit(":", 1)[0] + ":")  # "Q4" alone, when one year's quarters are the labels
    if years and joined.startswith("fy"):
        match = re.fullmatch(r"fy((?:19|20)\d\d|\d\d)", joined)
        if match:
            keys.append(match.group(1) if len(match.group(1)) == 4 else "20" + match.group(1))
    fiscal = re.fullmatch(r"(?:fy|fiscal(?:year)?)'?((?:19|20)\d\d|\d\d)", joined)
    if fiscal is not None:  # FY2021, FY21, fiscal 2021, fiscal year 2021: one fiscal year
        keys.append(f"fy:{fiscal.group(1)[-2:]}")
    return keys


@lru_cache(maxsize=65536)
def _span_keys(tokens: tuple[str, ...], years: bool) -> tuple[str, ...]:
    """:func:`_keys` of a span of an output, cached: outputs repeat the same few words."""
    return tuple(_keys(list(tokens), years))


_ORDINAL_QUARTER = re.compile(r"(first|second|third|fourth|1st|2nd|3rd|4th) quarter (?:of )?(?:fiscal (?:year )?|fy ?)?(\d{4})")
_ORDINALS = {"first": "1", "second": "2", "third": "3", "fourth": "4", "1st": "1", "2nd": "2", "3rd": "3", "4th": "4"}
_FOREIGN_ORDINALS = {
    word: str(number)
    for number, words in enumerate((
        "erste ersten erster erstes premier premiere primer primero primera primo prima primeiro первый первом первого первая",
        "zweite zweiten zweiter zweites deuxieme second seconde segundo segunda secondo seconda второй втором второго вторая",
        "dritte dritten dritter drittes troisieme tercer tercero tercera terzo terza terceiro третий третьем третьего третья",
        "vierte vierten vierter viertes quatrieme cuarto cuarta quarto quarta четвертый четвертом четвертого четвёртый четвёртом",
    ), start=1)
    for word in words.split()
}
_FOREIGN_ORDINALS |= {_low(word): number for word, number in _FOREIGN_ORDINALS.items()}  # as tokens are compared
"""Ordinal words before a quarter word in other languages ("im zweiten Quartal", "au deuxième trimestre", "во втором квартале")."""
_QUARTER_STEMS = ("quarter", "trimest", "quartal", "kwarta", "квартал", "ceyrek", "kvartal")


_QUARTER_WORDS = frozenset({"quarter", "trimestre", "quartal", "kwartaal", "квартал", "ceyrek", "kvartal", "kwartał", "期", "度", "분기"})
"""The words CLDR quarter names are built on: a span holding none of them is not tried as a quarter."""
_YEAR_LINK = frozenset({"of", "de", "del", "di", "des", "do", "da", "von", "van", "年"})


def _quarter(tokens: list[str]) -> str | None:
    joined = " ".join(tokens)
    table = _calendar()[1]
    if joined in table:
        return f"quarter:{table[joined]}:"
    if len(tokens) > 1:
        head, year = tokens[:-1], tokens[-1]
        if len(head) > 1 and head[-1] in _YEAR_LINK:
            head = head[:-1]
        if " ".join(head) in table and re.fullmatch(r"(?:19|20)\d\d", year):
            return f"quarter:{table[' '.join(head)]}:{year[-2:]}"
        head, year = tokens[1:], tokens[0]
        if head and head[0] == "年":
            head = head[1:]
        if " ".join(head) in table and re.fullmatch(r"(?:19|20)\d\d", year):
            return f"quarter:{table[' '.join(head)]}:{year[-2:]}"
    reversed_form = re.fullmatch(r"([1-4])q'?(\d{2}|(?:19|20)\d\d)|([1-4])q ((?:19|20)\d\d)", joined)  # 3Q22, 3Q 2022
    if reversed_form is not None:
        return f"quarter:{reversed_form.group(1) or reversed_form.group(3)}:{(reversed_form.group(2) or reversed_form.group(4))[-2:]}"
    glued = re.fullmatch(r"((?:19|20)\d\d)q([1-4])", joined)  # 2023Q3, as statistics offices write it
    if glued is not None:
        return f"quarter:{glued.group(2)}:{glued.group(1)[-2:]}"
    ordinal = _ORDINAL_QUARTER.fullmatch(joined)
    if ordinal is not None:
        return f"quarter:{_ORDINALS[ordinal.group(1)]}:{ordinal.group(2)[-2:]}"
    if 2 <= len(tokens) <= 4 and tokens[0] in _FOREIGN_ORDINALS and tokens[1].startswith(_QUARTER_STEMS):
        rest = [t for t in tokens[2:] if t not in _YEAR_LINK]
        if not rest:
            return f"quarter:{_FOREIGN_ORDINALS[tokens[0]]}:"
        if len(rest) == 1 and re.fullmatch(r"(?:19|20)\d\d", rest[0]):
            return f"quarter:{_FOREIGN_ORDINALS[tokens[0]]}:{rest[0][-2:]}"
    alone = re.fullmatch(r"q([1-4])|(first|second|third|fourth|1st|2nd|3rd|4th) quarter", joined)
    if alone is not None:
        return f"quarter:{alone.group(1) or _ORDINALS[alone.group(2)]}:"
    match = re.fullmatch(r"q([1-4]) (?:fy ?)?(\d{4}|'?\d{2})|(\d{4}) q([1-4])|q([1-4])'(\d{2})", joined)
    if match is None:
        return None
    quarter = match.group(1) or match.group(4) or match.group(5)
    year = (match.group(2) or match.group(3) or match.group(6)).lstrip("'")
    return f"quarter:{quarter}:{year[-2:]}"


@lru_cache(maxsize=4096)
def label_index(labels: tuple[str, ...]) -> LabelIndex:
    """The alias table of a label set; an alias shared by two labels is dropped.

    Besides the label's own words, a label gets the other names
    :func:`~rend_equiv_dataset.figures.answers.aliases.other_names` knows for
    it (country names, codes and translations, region abbreviations, pinyin).
    """
    from rend_equiv_dataset.figures.answers.aliases import names_a_country, other_names, rival_names

    years = bool(labels) and all(re.fullmatch(r"(?:19|20)\d\d", label.strip()) for label in labels)
    keys: dict[str, str] = {}
    clashes: set[str] = set()
    ordinary: set[str] = set()
    cased: set[str] = set()
    uncased: set[str] = set()
    own: set[str] = set()
    longest = 2 if labels else 0
    for label in labels:
        tokens = [_low(t) for t in _TOKEN.findall(label)]
        if not tokens or len(tokens) > MAX_TOKENS:
            continue
        if "".join(tokens) in _ORDINARY:
            ordinary.add(label)
        own.update(_keys(tokens, years))
        names = [(tokens, False)] + [([_low(t) for t in _TOKEN.findall(name)], upper) for name, upper in other_names(label)]
        if "and" in tokens or "&" in label:  # "Newfoundland & Labrador" is "Newfoundland and Labrador"
            names.append(([t for t in tokens if t != "and"] if "and" in tokens else [_low(t) for t in _TOKEN.findall(label.replace("&", " and "))], False))
        for name_tokens, upper in names:
            if not name_tokens or len(name_tokens) > MAX_TOKENS:
                continue
            longest = max(longest, len(name_tokens))
            for key in _keys(name_tokens, years):
                if keys.get(key, label) != label:
                    clashes.add(key)
                keys[key] = label
                (cased if upper else uncased).add(key)
    if any(_keys([_low(t) for t in _TOKEN.findall(label)], years)[-1].startswith(("month:", "day:")) for label in labels if _TOKEN.search(label)):
        longest = max(longest, 3)  # "十一月" and "火曜日" are three tokens
    if any(key.startswith("fy:") for key in keys):
        longest = max(longest, 3)  # "fiscal year 2020" is three tokens
    if any(_quarter([_low(t) for t in _TOKEN.findall(label)]) for label in labels):
        longest = max(longest, 7)  # "第3四半期 2022" is seven tokens
    titled = set()
    for word, label in _own_words(labels).items():  # "Aramco" for "Saudi Aramco": a word no other label has, capitalised
        if word not in keys and not names_a_country(word) and not names_a_country(label):  # "Sudan" is not "South Sudan"
            keys[word] = label
            titled.add(word)
    for label in labels:  # "North Korea" is not "Korea, Rep.": other countries' names holding a label's word are stop words
        for rival in rival_names(label):
            rival_tokens = [_low(t) for t in _TOKEN.findall(rival)]
            for key in _keys(rival_tokens, years):
                keys.setdefault(key, NOT_A_LABEL)
            longest = max(longest, len(rival_tokens))
    exact = {"".join(_low(t) for t in _TOKEN.findall(label)): label for label in labels}
    for key in clashes:
        if key in exact:
            keys[key] = exact[key]
        else:
            del keys[key]
    prefixes = frozenset(key[:i] for key in keys for i in range(1, len(key) + 1))
    acronyms = tuple(label for label in labels if _ACRONYM.fullmatch(label) and keys.get(_low(label)) == label)
    return LabelIndex(keys, frozenset(ordinary), years, min(MAX_TOKENS, longest), prefixes, frozenset(cased - uncased - own), acronyms,
                      frozenset(titled))


_ACRONYM = re.compile(r"[A-Z]{2,6}")
_CAPITALISED_RUN = re.compile(r"\b[A-Z][\w'’-]*(?:\s+(?:(?:of|and|the|for|&|de|du|la|des|del)\s+)?[A-Z][\w'’-]*){1,6}")
_RUN_WORD = re.compile(r"[A-Z][\w'’-]*")  # a hyphenated name gives each part's initial ("Paris Saint-Germain": PSG)


def _spelled_acronyms(text: str, index: LabelIndex, found: list[Mention]) -> list[Mention]:
    """Mentions of acronym labels by the words they abbreviate: "Amazon Web Services" for ``AWS``, "Bharatiya Janata Party"
    for ``BJP``, "AK Parti" for ``AKP`` (capitalised words, minor ones skipped; a word in capitals gives all its letters)."""
    taken = [(m.start, m.end) for m in found]
    spelled = []
    for run in _CAPITALISED_RUN.finditer(text):
        words = list(_RUN_WORD.finditer(run.group(0)))
        letters = [word.group(0) if word.group(0).isupper() else "".join(part[:1] for part in word.group(0).split("-")) for word in words]
        hit = None
        for first in range(len(words)):
            for last in range(len(words), first + 1, -1):
                initials = "".join(letters[first:last])
                if initials in index.acronyms:
                    hit = (index.acronyms[index.acronyms.index(initials)], run.start() + words[first].start(), run.start() + words[last - 1].end())
                    break
            if hit:
                break
        if hit and not any(start < hit[2] and hit[1] < end for start, end in taken):
            spelled.append(Mention(hit[0], hit[1], hit[2], True))
    return spelled


_GENERIC_WORDS = frozenset(
    """united states kingdom republic democratic people peoples federal national union north south east west central middle
    northern southern eastern western new great saint san santa city island islands party group company corporation bank
    international global world america american europe european asia asian africa african pacific atlantic energy power
    services service products product segment region regions rest other others total sector industry industrial
    government public private general royal state province county district area zone market markets capital""".split()
)
"""Words too generic to name one label alone, however unique to it in a label set."""


def _own_words(labels: tuple[str, ...]) -> dict[str, str]:
    """Word → label, for each word (five letters or more, not generic, not an everyday word) of a label of two or more
    words that no other label holds: an output naming "Aramco" names ``Saudi Aramco``."""
    words = {label: [_low(t) for t in _TOKEN.findall(label)] for label in labels}
    counts: dict[str, int] = {}
    for tokens in words.values():
        for token in set(tokens):
            counts[token] = counts.get(token, 0) + 1
    own = {}
    for label, tokens in words.items():
        if len(tokens) < 2:
            continue
        for token in tokens:
            if len(token) >= 5 and token.isalpha() and counts[token] == 1 and token not in _GENERIC_WORDS and token not in _ORDINARY:
                own[token] = label
    return own


def _may_start(token: str, index: LabelIndex) -> bool:
    """Whether an alias can start at this token (a cheap test before trying spans)."""
    return token in index.prefixes or _singular(token) in index.prefixes or _may_start_any(token)


@lru_cache(maxsize=65536)
def _may_start_any(token: str) -> bool:
    """Whether a month, quarter or fiscal-year alias can start at this token, whatever the labels (cached per token)."""
    return (
        token in _calendar()[2]
        or (token[:1] in "1234" and token[1:2] == "q")
        or token[:1] == "q"
        or token[:2] == "fy"
        or token == "fiscal"
        or token in _ORDINALS
        or token in _FOREIGN_ORDINALS
        or (len(token) == 4 and token.isdigit())
        or (len(token) == 6 and token[:4].isdigit() and token[4] == "q")
    )


_SEEN: dict[tuple[str, bool, int], tuple[LabelIndex, tuple[Mention, ...]]] = {}
"""Mentions already found in the output being read (one output asks for the same sentence several times)."""


def forget_mentions() -> None:
    """Start a new output: the mentions of the previous one are dropped (so each output costs what it costs)."""
    _SEEN.clear()


def mentions(text: str, index: LabelIndex, *, alone: bool = False) -> tuple[Mention, ...]:
    """Label mentions in ``text``, left to right, longest alias first at each token.

    ``alone`` says ``text`` is an answer on its own (after a marker, or a
    leading bare answer): an everyday-word label then counts without capitals.
    """
    key = (text, alone, id(index))
    seen = _SEEN.get(key)
    if seen is not None and seen[0] is index:
        return seen[1]
    found = _find_mentions(text, index, alone)
    _SEEN[key] = (index, found)
    return found


def _find_mentions(text: str, index: LabelIndex, alone: bool) -> tuple[Mention, ...]:
    tokens = [(m.group(0), m.start(), m.end()) for m in _TOKEN.finditer(text)]
    lowered = [_low(t[0]).removesuffix("'s") for t in tokens]
    if index.years:  # "'22" and "’22" for the year label 2022 (not "Q3'22": a quarter, read as such)
        for j, (token, begin, _) in enumerate(tokens):
            if len(token) == 2 and token.isdigit() and text[begin - 1:begin] in ("'", "\u2019") and not text[begin - 2:begin - 1].isalnum():
                lowered[j] = next((century + token for century in ("20", "19") if century + token in index.keys), lowered[j])
    found: list[Mention] = []
    i = 0
    while i < len(tokens):
        hit = None
        if not _may_start(lowered[i], index):
            i += 1
            continue
        for n in range(min(index.longest, len(tokens) - i), 0, -1):
            for key in _span_keys(tuple(lowered[i:i + n]), index.years):
                label = index.keys.get(key)
                if label is not None:
                    hit = (label, n, key)
                    break
            if hit:
                break
        if hit is None:
            i += 1
            continue
        label, n, key = hit
        if label == NOT_A_LABEL:
            i += n
            continue
        start, end = tokens[i][1], tokens[i + n - 1][2]
        written = text[start:end]
        bare = written.removesuffix("'s").removesuffix("\u2019s")  # "the UK's": the code in capitals, then a possessive
        if key in index.cased and not (bare.isupper() or "." in written) or key in index.titled and not written[:1].isupper():
            i += 1
            continue
        currency = _CURRENCY_AFTER.match(text, end)
        if currency is not None and (currency.group(0).strip() != "$" or text[end:end + 1] == "$" or (bare.isupper() and len(bare) <= 3)):
            # "US dollars", "Hong Kong dollars", "US$", "NZ $": a currency, not the category ("YouTube ads $29.2B" is an amount)
            i += n
            continue
        capitalised = written[:1].isupper() and (written == label or not _sentence_start(text, start))
        everyday = label in index.ordinary and "".join(lowered[i:i + n]) in _ORDINARY  # "may", not "mayo" or "марте"
        if not everyday or alone and len(tokens) <= n + 2 or capitalised:
            found.append(Mention(label, start, end, written[:1].isupper()))
        i += n
    if index.acronyms:
        found = sorted(found + _spelled_acronyms(text, index, found), key=lambda mention: mention.start)
    return tuple(found)


_CURRENCY_AFTER = re.compile(r"\s?(?:\$|dollars?\b|dólares\b|dollari\b|Dollar\b)", re.IGNORECASE)
"""After a country name or code: the words name its currency."""


def _sentence_start(text: str, start: int) -> bool:
    before = text[max(0, start - 4):start].rstrip(" *\"'(")
    return not before or before[-1] in ".!?:\n"


def normalize_label(label: str) -> str:
    """Case- and space-insensitive form used to compare labels.

    >>> normalize_label(" New  York ") == normalize_label("newyork")
    True
    """
    return "".join(label.split()).casefold()
