"""Other names of a chart label that a human grader accepts, from maintained data where it exists.

- **Countries** (``pycountry``: ISO 3166 names, official and common names,
  alpha-2/alpha-3 codes, and the names in :data:`LANGUAGES` from the iso-codes
  translations it ships): ``United States`` is also ``United States of America``,
  ``USA``, ``U.S.``, ``Vereinigte Staaten``, ``美国``, ``アメリカ合衆国`` … Codes count
  only written in capitals (``US``, not the pronoun ``us``).
- **Country names in other languages from CLDR** (``babel``: the territory
  names of :data:`TERRITORY_LANGUAGES`): ``Fransa``, ``فرنسا``, ``Estados Unidos``, ``イギリス``;
  world regions CLDR names too: ``Lateinamerika``, ``欧洲``, ``Amérique du Nord``.
- **Everyday country names** ISO does not list (:data:`COLLOQUIAL`: ``Britain``,
  ``UK``, ``America``, ``Holland``, ``Russia``, ``Ivory Coast``, ``DR Congo`` …), the World Bank's
  inverted names (``Korea, Rep.``, ``Congo, Dem. Rep.``, ``Egypt, Arab Rep.``) and **business regions**
  (:data:`REGIONS`: ``APAC`` for Asia-Pacific, ``LatAm``, ``EMEA``, ``MEA``).
- **Chinese labels** in pinyin (``pypinyin``): ``北京`` is also ``Beijing``.
- **Cities** by CLDR's names of the time zones' exemplar cities in English and
  :data:`TERRITORY_LANGUAGES` (``babel``): ``Tokyo`` is also ``東京``, ``Moscow`` is ``Москва``,
  ``New York`` is ``纽约`` (a name two cities share is dropped).
- **Languages** by CLDR's language names: ``Spanish`` is also ``español``, ``espagnol``,
  ``西班牙语`` (and a label in another language, ``Español``, is ``Spanish``).
- **A label's own parts**: the words before and inside parentheses (``X (Twitter)`` is also
  ``Twitter``, ``Atlanta (ATL)`` is ``Atlanta`` and ``ATL``), each with its own other names, and
  the initials of a name of two or more capitalised words (``AWS`` for ``Amazon Web Services``,
  in capitals only).

Everything is loaded on first use and cached per label, so a label set that
names no country costs one failed lookup per label.

>>> ("USA", True) in other_names("United States") and ("Britain", False) in other_names("United Kingdom")
True
>>> ("Beijing", False) in other_names("北京"), ("APAC", True) in other_names("Asia-Pacific")
(True, True)
"""

from __future__ import annotations

import gettext

import re
from functools import lru_cache, cache

LANGUAGES = ("de", "fr", "es", "it", "pt", "nl", "ru", "zh_CN", "ja", "ko")
"""Languages whose country names are accepted (the iso-codes translations shipped with pycountry)."""

TERRITORY_LANGUAGES = ("de", "fr", "es", "it", "pt", "nl", "ru", "pl", "sv", "tr", "ar", "hi", "zh", "zh_Hant", "ja", "ko", "id", "vi")
"""Languages whose CLDR territory names (babel) are accepted for a country label."""

COLLOQUIAL: dict[str, tuple[str, ...]] = {
    "GB": ("UK", "U.K.", "Britain", "Great Britain"),
    "US": ("America", "U.S.", "U.S.A.", "the States"),
    "NL": ("Holland",),
    "RU": ("Russia",),
    "KR": ("Korea", "ROK"),
    "KP": ("DPRK", "D.P.R.K."),
    "AE": ("UAE", "U.A.E.", "Emirates"),
    "SA": ("KSA", "Saudi"),
    "CZ": ("Czech Republic",),
    "TR": ("Turkey", "Turkiye"),
    "CI": ("Ivory Coast",),
    "CD": ("DR Congo", "DRC", "D.R. Congo", "Congo-Kinshasa"),
    "CG": ("Congo-Brazzaville",),
    "LA": ("Lao PDR", "Laos"),
    "SK": ("Slovak Republic",),
    "KG": ("Kyrgyz Republic",),
}
"""Everyday names ISO 3166 does not give, by alpha-2 code."""

REGIONS: tuple[tuple[tuple[str, bool], ...], ...] = (
    (("Asia-Pacific", False), ("Asia Pacific", False), ("APAC", True), ("APJ", True)),
    (("Latin America", False), ("LatAm", False), ("LATAM", True)),
    (("Middle East and Africa", False), ("Middle East & Africa", False), ("MEA", True)),
    (("Europe, Middle East and Africa", False), ("EMEA", True)),
    (("North America", False), ("NAM", True), ("NA", True)),
    (("Middle East and North Africa", False), ("Middle East & North Africa", False), ("MENA", True)),
    (("Sub-Saharan Africa", False), ("SSA", True)),
    (("Europe & Central Asia", False), ("Europe and Central Asia", False), ("ECA", True)),
    (("East Asia & Pacific", False), ("East Asia and Pacific", False), ("EAP", True)),
    (("European Union", False), ("EU", True), ("EU-27", False), ("EU27", False), ("EU-28", False)),
)
"""Business regions and their abbreviations (an abbreviation counts only in capitals, ``LatAm`` aside)."""
PARTIES: tuple[tuple[tuple[str, bool], ...], ...] = (
    (("Republicans", False), ("Republican", False), ("Republican Party", False), ("GOP", True)),
    (("Democrats", False), ("Democratic", False), ("Democratic Party", False), ("Dems", False), ("Dem", False)),
    (("Conservative", False), ("Conservatives", False), ("Conservative Party", False), ("Tories", False), ("Tory", False)),
    (("Labour", False), ("Labour Party", False)),
    (("Liberal Democrats", False), ("Lib Dems", False), ("Lib Dem", False), ("LibDems", False), ("Liberal Democrat", False)),
)
"""The parties a US or UK chart names, by the names and nicknames the press gives them (``GOP``, ``Tories``)."""

YES_NO_WORDS: dict[str, tuple[str, ...]] = {
    "yes": ("ja", "oui", "sí", "si", "sì", "sim", "да", "tak", "evet", "はい", "예"),
    "no": ("nein", "non", "não", "nee", "нет", "nie", "hayır", "いいえ", "아니요", "아니오"),
}
"""Yes and no in German, French, Spanish, Italian, Portuguese, Dutch, Russian, Polish, Turkish, Japanese and Korean
(not Chinese 是, which is also the copula, nor Arabic and Hindi, whose no is also their not)."""

_HAN = re.compile(r"[\u4e00-\u9fff]")
_KEY = re.compile(r"[^\W_]+")


def _key(name: str) -> str:
    return "".join(_KEY.findall(name.casefold()))


@lru_cache(maxsize=8192)
def other_names(label: str) -> tuple[tuple[str, bool], ...]:
    """(name, counts only in capitals) for each other name of ``label`` (see the module docstring)."""
    names: list[tuple[str, bool]] = []
    key = _key(label)
    names.extend((word, False) for word in YES_NO_WORDS.get(key, ()))
    for group in REGIONS + PARTIES:
        if any(_key(name) == key for name, _ in group):
            names.extend((name, upper) for name, upper in group if _key(name) != key)
    country = _country(label)
    if country is not None:
        names.extend(_country_names(country))
    else:
        names.extend((name, False) for name in _territory_names().get(_world_region(key), ()))
        names.extend((name, False) for name in _named(_city_names(), key))
        names.extend((name, False) for name in _named(_language_names(), key))
    if _HAN.search(label):
        names.extend(_pinyin(label))
    names.extend((name, False) for name in _age_group_names(label))
    outer, inner = _parts(label)
    for part in (outer, inner):
        if part and len(_key(part)) >= 2:
            names.append((part, part.isupper() and len(part) <= 5))
            names.extend(other_names(part))
    initials = _initials(outer or label)
    if initials:
        names.append((initials, True))
    return tuple(dict.fromkeys(name for name in names if _key(name[0]) and _key(name[0]) != key))


_AGE_RANGE = re.compile(r"\s*(?:ages?\s+)?(\d{1,3})\s*(?:-|–|to)\s*(\d{1,3})\s*(?:years?)?\s*")
_AGE_OVER = re.compile(r"\s*(?:ages?\s+)?(\d{1,3})\s*(?:\+|and\s+(?:over|older|above)|or\s+older)\s*(?:years?)?\s*")


def _age_group_names(label: str) -> list[str]:
    """How an age group's label is written in prose: ``18-29`` is also "18 to 29", "18- to 29-year-olds",
    "ages 18 to 29"; ``65+`` is "65 and older", "65 and over", "65 or older", "65-plus"."""
    span = _AGE_RANGE.fullmatch(label)
    if span is not None:
        low, high = span.groups()
        return [f"{low}-{high}", f"{low} to {high}", f"{low}- to {high}-year-olds", f"{low} to {high} year olds",
                f"ages {low} to {high}", f"aged {low} to {high}", f"{low}-{high} year olds", f"{low}-{high}-year-olds"]
    over = _AGE_OVER.fullmatch(label)
    if over is not None:
        age = over.group(1)
        return [f"{age}+", f"{age} and older", f"{age} and over", f"{age} or older", f"{age}-plus", f"{age} plus",
                f"{age} and above", f"ages {age} and older", f"aged {age} and over"]
    return []


_PARENTHESES = re.compile(r"\s*(.*?)\s*\(\s*([^()]+?)\s*\)\s*")
_MINOR_WORDS = frozenset({"and", "of", "the", "for", "&", "de", "du", "la"})


def _parts(label: str) -> tuple[str, str]:
    """The words before and inside a label's closing parentheses (``X (Twitter)``: ``X``, ``Twitter``), or two empty strings."""
    match = _PARENTHESES.fullmatch(label)
    return (match.group(1), match.group(2)) if match else ("", "")


def _initials(name: str) -> str:
    """The initials of a name of two to five capitalised words (``Amazon Web Services``: ``AWS``), or ``""``."""
    words = [word for word in re.findall(r"[^\W\d_][\w'’-]*", name) if word.casefold() not in _MINOR_WORDS]
    if not 2 <= len(words) <= 5 or not all(word[0].isupper() and word.isascii() for word in words):
        return ""
    return "".join(word[0] for word in words)


def _named(table: tuple[dict[str, str], dict[str, tuple[str, ...]]], key: str) -> tuple[str, ...]:
    """The names of what ``key`` names in a (name key → code, code → names) table, or none."""
    codes, names = table
    return names.get(codes.get(key, ""), ())


def _one_name_each(named: dict[str, list[str]]) -> tuple[dict[str, str], dict[str, tuple[str, ...]]]:
    """(name key → code, code → names) with every name two codes share dropped."""
    codes: dict[str, str] = {}
    shared: set[str] = set()
    for code, found in named.items():
        for name in found:
            if codes.setdefault(_key(name), code) != code:
                shared.add(_key(name))
    for key in shared:
        del codes[key]
    return codes, {code: tuple(dict.fromkeys(found)) for code, found in named.items()}


@lru_cache(maxsize=1)
def _city_names() -> tuple[dict[str, str], dict[str, tuple[str, ...]]]:
    """Exemplar cities of the IANA time zones by their CLDR names in English and :data:`TERRITORY_LANGUAGES`, read once."""
    from zoneinfo import available_timezones

    from babel import Locale
    from babel.dates import get_timezone_location

    zones = sorted(zone for zone in available_timezones()
                   if "/" in zone and zone.split("/")[0] in {"Africa", "America", "Asia", "Atlantic", "Australia", "Europe", "Indian", "Pacific"})
    named: dict[str, list[str]] = {}
    for language in ("en", *TERRITORY_LANGUAGES):
        locale = Locale.parse(language)
        for zone in zones:
            try:
                named.setdefault(zone, []).append(get_timezone_location(zone, locale=locale, return_city=True))
            except (LookupError, ValueError):
                continue
    return _one_name_each(named)


@lru_cache(maxsize=1)
def _language_names() -> tuple[dict[str, str], dict[str, tuple[str, ...]]]:
    """Languages by their CLDR names in English and :data:`TERRITORY_LANGUAGES` (each of those also by its own:
    ``español``), read once."""
    from babel import Locale

    named: dict[str, list[str]] = {code: [name] for code, name in Locale.parse("en").languages.items()
                                   if "_" not in code and len(code) <= 3}
    for language in TERRITORY_LANGUAGES:
        for code, name in Locale.parse(language).languages.items():
            if code in named:
                named[code].append(name)
    return _one_name_each(named)


@lru_cache(maxsize=8192)
def rival_names(label: str) -> tuple[str, ...]:
    """English names of other countries that hold one of a country label's one-word names (``North Korea`` for
    ``Korea, Rep.``, ``Equatorial Guinea`` for ``Guinea``): a mention of them is not a mention of the label."""
    country = _country(label)
    if country is None:
        return ()
    code = getattr(country, "alpha_2", "")
    single = {_key(name) for name, _ in (*other_names(label), (label, False)) if len(_KEY.findall(name.casefold())) == 1}
    return tuple(name for territory, name in _english_territories().items()
                 if territory != code and single & set(_KEY.findall(name.casefold())))


@lru_cache(maxsize=1)
def _english_territories() -> dict[str, str]:
    from babel import Locale

    return {code: name for code, name in Locale.parse("en").territories.items() if len(code) == 2 and code.isalpha()}


def names_a_country(name: str) -> bool:
    """Whether ``name`` is a country's name, code or everyday name (``Sudan``, ``Guinea``, ``UK``)."""
    return _country(name) is not None


def _country(label: str) -> object | None:
    """The pycountry country a label names, or ``None`` (``Russia`` and ``UK`` through :data:`COLLOQUIAL`)."""
    import pycountry

    text = label.strip()
    if len(text) < 2 or (len(text) <= 3 and text.isascii() and not text.isupper()):  # "No" is an answer, not Norway's code
        return None
    for code, names in COLLOQUIAL.items():
        if any(_key(name) == _key(text) for name in names):
            return pycountry.countries.get(alpha_2=code)
    for name in (text, *_uninverted(text)):
        try:
            return pycountry.countries.lookup(name)
        except LookupError:
            continue
    other = _territory_codes().get(_key(text))  # a label in another language: "مصر", "Allemagne"
    return pycountry.countries.get(alpha_2=other) if other else None


_INVERTED_TAILS = {
    "rep": "Republic of", "dem rep": "The Democratic Republic of the", "islamic rep": "Islamic Republic of",
    "arab rep": "", "rb": "Bolivarian Republic of", "the": "", "fed sts": "Federated States of", "dem people s rep": "Democratic People's Republic of",
}
"""The World Bank's inverted qualifiers ("Korea, Rep.", "Congo, Dem. Rep.", "Egypt, Arab Rep.", "Gambia, The") as ISO 3166 writes them."""


def _uninverted(name: str) -> tuple[str, ...]:
    """ISO 3166 spellings of a World Bank country name with an inverted qualifier, or none."""
    head, comma, tail = name.partition(",")
    if not comma:
        return ()
    qualifier = _INVERTED_TAILS.get(" ".join(re.findall(r"[^\W\d_]+", tail.casefold())))
    if qualifier is None:
        return ()
    return (f"{head.strip()}, {qualifier}", head.strip()) if qualifier else (head.strip(),)


@lru_cache(maxsize=1)
def _territory_codes() -> dict[str, str]:
    """A country's CLDR name in any of :data:`TERRITORY_LANGUAGES` → its alpha-2 code (names two countries share dropped)."""
    codes: dict[str, str] = {}
    shared: set[str] = set()
    for code, names in _territory_names().items():
        if len(code) != 2 or not code.isalpha():
            continue
        for name in names:
            key = _key(name)
            if codes.get(key, code) != code:
                shared.add(key)
            codes[key] = code
    return {key: code for key, code in codes.items() if key not in shared}


def _country_names(country: object) -> list[tuple[str, bool]]:
    names: list[tuple[str, bool]] = []
    for field in ("name", "official_name", "common_name"):
        value = getattr(country, field, None)
        if value:
            names.append((value, False))
            if "," in value:
                names.append((value.split(",")[0], False))
    alpha_2, alpha_3 = getattr(country, "alpha_2", ""), getattr(country, "alpha_3", "")
    names.extend([(alpha_3, True), (alpha_2, True)])
    names.extend((name, name.isupper() and len(name) <= 4) for name in COLLOQUIAL.get(alpha_2, ()))
    for language in LANGUAGES:
        translation = _translations(language)
        if translation is None:
            continue
        for field in ("name", "common_name"):
            value = getattr(country, field, None)
            if value:
                translated = translation.gettext(value)
                if translated != value:
                    names.append((translated, False))
                    if "," in translated:
                        names.append((translated.split(",")[0], False))
    names.extend((name, False) for name in _territory_names().get(alpha_2, ()))
    return names


@lru_cache(maxsize=1)
def _territory_names() -> dict[str, tuple[str, ...]]:
    """Alpha-2 code (or a world region's number) → its CLDR names in :data:`TERRITORY_LANGUAGES` (babel), read once."""
    from babel import Locale

    names: dict[str, list[str]] = {}
    for code in TERRITORY_LANGUAGES:
        for territory, name in Locale.parse(code).territories.items():
            names.setdefault(territory, []).append(name)
    return {territory: tuple(dict.fromkeys(found)) for territory, found in names.items()}


def _world_region(key: str) -> str:
    """The CLDR code of a world region named in English (``Latin America`` → ``419``), or ``""``."""
    return _world_regions().get(key, "")


@lru_cache(maxsize=1)
def _world_regions() -> dict[str, str]:
    from babel import Locale

    return {_key(name): code for code, name in Locale.parse("en").territories.items() if code.isdigit()}


@cache
def _translations(language: str) -> gettext.NullTranslations | None:
    import pycountry

    try:
        return gettext.translation("iso3166-1", pycountry.LOCALES_DIR, languages=[language])
    except OSError:
        return None


def _pinyin(label: str) -> list[tuple[str, bool]]:
    try:
        from pypinyin import lazy_pinyin
    except ImportError:  # pragma: no cover - pypinyin is a core dependency; a bare install still grades
        return []
    syllables = lazy_pinyin(label)
    return [("".join(syllables).capitalize(), False)]
