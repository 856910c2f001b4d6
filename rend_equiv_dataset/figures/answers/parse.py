"""Free-text model output → a number or one of the instance's labels: the one extraction rule.

Every caller (``score``, ``grade``, the ``evaluate`` modules, digitisation)
reads answers through :func:`parse_answer`. The rules, in order:

1. **Normalise**: thin and non-breaking spaces inside digit groups dropped,
   NFKC (full-width digits and points), minus-like dashes as ``-``
   (:func:`~rend_equiv_dataset.figures.answers.text.prepare`).
2. **Skip reasoning**: ``<think>…</think>`` blocks are removed (an unclosed
   one at the start too); if nothing else is left, only an explicit marker
   inside the reasoning counts.
3. **Where the answer is**: the last explicit marker wins (``\\boxed{}``
   first, then ``Final answer``, ``Answer:``, ``The answer is`` and their
   equivalents in ten other languages, then a ``**bold**`` phrase that ends
   the output) — unless a correction follows it ("Answer: 30.5? No, 42.7."),
   when the corrected statement wins; without one, a leading bare
   answer (``42.`` or ``Japan`` on the first line) unless a correction
   follows; otherwise the last committed statement in the final
   :data:`~rend_equiv_dataset.figures.answers.text.LOOK_BACK` characters:
   sentences that conclude ("so", "therefore"), correct themselves
   ("actually", "on closer inspection") or name the question's category
   outrank working and axis descriptions written after the answer.
4. **Inside that text** (the claims of a sentence): numbers copied from the
   question and years are skipped while another number is there (a lone year
   answers only a question about years); numbers in clauses about another
   category or period are skipped ("Japan is 30.5, while France is 12" → 30.5
   for Japan), and where a clause names several, a number belongs to the
   nearest ("from 48 in 2019 to 40 in 2020"); numbers given as a point of
   comparison ("up from 274.5") are context; operands of written arithmetic are not answers (``30.5 − 12``
   is not −12; ``30 + 12 = 42`` is 42); after a correction cue the later
   value wins; a hedge (``30 or 40``, ``Japan or France``, "30 is also
   possible") is no answer.
   Labels: a comparison reads by the question's direction ("France has
   lower exports than Japan", asked for the higher → Japan); a negated label
   (``not Japan``) is never the answer; several labels without a deciding
   comparison are no answer, never the first one mentioned.
5. **Units**: scale words and suffixes are read relative to the question's
   unit (", in thousands?": ``55 thousand`` and ``55,000`` read 55); ``%``
   is divided by 100 only when the question asks for a fraction or proportion.

Anything else is unparseable and returns ``None`` — scored as wrong, never
an exception. Every step is linear in the output's length.
:func:`read_answer` returns the same answer as a :class:`Reading` with the
rule that decided, a confidence and the evidence (``rend-equiv grade``
reports them).

>>> parse_answer("The answer is 1,234.5.", "number")
1234.5
>>> parse_answer("About 45%", "number")
45.0
>>> parse_answer("Answer: new  york", "label", ("Boston", "New York"))
'New York'
>>> parse_answer("I cannot tell.", "number") is None
True
>>> parse_answer("Japan is 30.5 bn USD, while France is 12 bn USD.", "number", ("Japan", "France"),
...              "What are the exports of Japan, in bn USD?")
30.5
>>> parse_answer("France has lower exports than Japan.", "label", ("Japan", "France"),
...              "Which has the higher exports: Japan or France?")
'Japan'
>>> parse_answer("Japan or France.", "label", ("Japan", "France")) is None
True
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

from rend_equiv_dataset.figures.answers.labels import LabelIndex, Mention, forget_mentions, label_index, mentions, normalize_label
from rend_equiv_dataset.figures.answers.numbers import (
    Number,
    foreign_number_words,
    han_numerals,
    measure_at,
    number_words,
    numbers_in,
    scale_word_after,
)
from rend_equiv_dataset.figures.answers.text import (
    SPAN,
    TailPattern,
    last_marker,
    lead_segment,
    marked_span,
    prepare,
    reasoning_text,
    sentences,
    tail_window,
    visible_text,
)

ParsedAnswer = float | str | None

__all__ = ["HIGH", "LOW", "LOW_CONFIDENCE", "MEDIUM", "ParsedAnswer", "Reading", "normalize_label", "parse_answer", "question_scale", "read_answer"]

MAX_SENTENCES = 40
"""Sentences of the look-back window considered for the last committed statement."""

_CLAUSE = re.compile(
    r",\s|,(?=[^\W\d])|;|:\s|\s-\s|\u2014|\u2015|\((?=[^)]*\))|\)|、|而|但|，"
    r"|\b(?:while|whereas|but|however|and|compared\s+(?:to|with)|versus|vs\.?|followed\s+by|then|than|after|before"
    r"|und|aber|während|et|mais|tandis\s+que|y|pero|mientras|e|ma|mentre|mas|и|а|но)\b",
    re.IGNORECASE,
)
_LABEL_CLAUSE = re.compile(
    r",\s|,(?=[^\W\d])|、|而|但|;|\s-\s|\u2014|\u2015|\b(?:while|whereas|but|however|and|compared\s+(?:to|with)|versus|vs\.?|followed\s+by|then"
    r"|und|aber|während|et|mais|tandis\s+que|y|pero|mientras|e|ma|mentre|mas|и|а|но)\b",
    re.IGNORECASE,
)
_COMPARED_AMOUNT = re.compile(
    r"\s*(?:[^\W\d_]+\s+){0,2}(?:more|less|higher|lower|greater|smaller|fewer|larger|bigger|warmer|colder|hotter|cooler)\s+than\b", re.IGNORECASE
)
_STRONG_CORRECTION = re.compile(
    r"\b(?:actually|wait|correction|on\s+(?:closer|second|further)\s+(?:inspection|look|thought|examination|glance)"
    r"|upon\s+(?:closer|further)|looking\s+(?:again|more\s+closely)|re-?checking|rather(?!\s+than)|instead(?!\s+of)|i\s+mean|sorry"
    r"|let\s+me\s+(?:re-?check|correct|reconsider|re-?examine)|correcting|that'?s\s+(?:wrong|incorrect|not\s+right)"
    r"|на\s+самом\s+деле|tats[äa]chlich|in\s+wirklichkeit|en\s+r[ée]alit[ée]|de\s+hecho|realmente|en\s+realidad|eigentlich|korrektur|en\s+fait|in\s+realt[àa]|na\s+verdade|correcci[óo]n|non\s+[,\u2014]|nein|anzi|perd[óo]n|disculpa|revis[áa]ndol[oa](?:\s+(?:mejor|bien))?|revisando|corrigiendo|corrijo|mejor\s+dicho|corrigindo|desculpe|pardon|excusez"
    r"|correctie|bij\s+nader\s+inzien|corre[çc][ãa]o|revendo|d[üu]zelt(?:me|iyorum)|hay[ıi]r|asl[ıi]nda|korekta|poprawka|w[łl]a[śs]ciwie"
    r"|r[äa]ttelse|koreksi|s[ửu]a\s+l[ạa]i"
    r"|moment(?=\s*[,:!\u2013\u2014-])|warte|pens[áa]ndolo\s+bien|mir[áa]ndolo\s+(?:mejor|bien)|me\s+equivoqu[ée]|espera(?=\s*[,:!])"
    r"|aspetta|guardando\s+meglio|mi\s+correggo|pensando\s+bem|me\s+enganei|attendez|attends|je\s+me\s+corrige|je\s+rectifie"
    r"|wacht(?=\s*[,:!])|хотя\s+нет|подожди\w*|ошиб(?:ся|лась)|неправильно\s+прочита\w*|esper[ae](?=\s*[,:!\u2014\u2013])|khoan\s+[đd][ãa]|[đd][ọo]c\s+nh[ầa]m|если\s+присмотреться|przepraszam|pomy[łl]ka|bekle(?=\s*[,:!])"
    r"|but\s+(?:the\s+)?(?:chart|graph|figure|plot|image|data|bar|line)\s+(?:itself\s+)?(?:shows?|indicates?|says|reads|gives))\b"
    r"|\b(?:no|non|nein|nee|нет|não)\s*(?:[,.!:\u2014\u2013]|-\s)|[?？]\s*(?:no|non|nein|nope|нет|não)\b|不对|不是|其实|实际上|等一下|等等|稍等|更正|纠正|いや|いいえ|訂正|実は|実際(?:に)?は|待って|아니|정정|실제로는|사실은|잠깐|تصحيح|في\s+الواقع|सुधार",
    re.IGNORECASE,
)
_OPEN_ALTERNATIVE = re.compile(
    r"\b(?:(?:is|are|seems?)\s+(?:also|equally)\s+(?:possible|plausible|likely)|(?:could|might|may)\s+(?:also|equally)\s+be)\b",
    re.IGNORECASE,
)
_TENTATIVE = re.compile(
    r"\b(?:at\s+first(?:\s+glance)?|initially|seems?|appears?|might|looks?\s+like|i\s+thought|according\s+to|some\s+sources|reportedly"
    r"|one\s+might|you\s+might|could\s+be\s+read|сначала|d'abord|zun[äa]chst|zuerst|al\s+principio)\b|最初は|一开始|起初|처음에는",
    re.IGNORECASE,
)
_CONTRAST = re.compile(r"\b(?:but|however|yet|но|mais|aber|pero|ma|mas)\b|但是?|でも|しかし|が、|하지만|지만", re.IGNORECASE)
_CONCLUSION = re.compile(
    r"\b(?:so|therefore|thus|hence|consequently|overall|in\s+(?:conclusion|summary|total)|to\s+summari[sz]e"
    r"|which\s+(?:gives|means|is)|this\s+(?:gives|means)|meaning|we\s+get|giving|resulting\s+in|the\s+result\s+is|answer)\b",
    re.IGNORECASE,
)
_COPULA_BEFORE = re.compile(
    r"(?:\b(?:is|are|was|were|be|of|at|by|reaches|reached|totals?|totaling|totalling|equals?|stands\s+at|has|had|shows?|with|worth)"
    r"|[:=≈])\s*(?:the\s+)?(?:value\s+of\s+)?(?:approximately|about|around|roughly|nearly|almost|just\s+(?:over|under)|only|exactly|~)?\s*$",
    re.IGNORECASE,
)
_WORKING = re.compile(
    r"\b(?:axis|gridlines?|ticks?|scale|legend|ranges?\s+from|increments?|intervals?|labell?ed|to\s+verify|check(?:ing)?|"
    r"because|since|calculated|computed|formula|step)\b",
    re.IGNORECASE,
)
_NEGATED_BEFORE = re.compile(
    r"(?:\bnot|n't|\bnever|\brather\s+than|\binstead\s+of|\bother\s+than|\bexcept|\bexcluding|\bunlike|\bno)\s+(?:the\s+|in\s+|for\s+)?[\"'*]*$",
    re.IGNORECASE,
)
_NEGATION = re.compile(r"\b(?:not|never|no)\b|n't\b", re.IGNORECASE)
_HIGH_OTHER = (
    r"h[öo]chste[nrs]?|gr[öo]ßte[nrs]?|meisten|st[äa]rkste[nrs]?|schnellste[nrs]?|h[öo]here?[nrs]?|h[öo]her|gr[öo]ßere?[nrs]?|gr[öo]ßer|m[áa]s\s+alt[oa]s?|mayor(?:es)?|plus\s+[ée]lev[ée]e?s?|plus\s+haute?s?|plus\s+forte?s?"
    r"|plus\s+grande?s?|самы[йхеая]\s+(?:высок|больш)\w*|наибольш\w*|più\s+alt[oiae]|maggiore|mais\s+alt[oa]s?|maior(?:es)?"
)
_LOW_OTHER = (
    r"niedrigste[nrs]?|kleinste[nrs]?|wenigsten|schw[äa]chste[nrs]?|langsamste[nrs]?|niedrigere?[nrs]?|niedriger|kleinere?[nrs]?|kleiner|geringste[nrs]?|m[áa]s\s+baj[oa]s?|menor(?:es)?|plus\s+faibles?|plus\s+basse?s?"
    r"|plus\s+petite?s?|самы[йхеая]\s+(?:низк|маленьк)\w*|наименьш\w*|più\s+bass[oiae]|minore|mais\s+baix[oa]s?"
)
_HIGH = _HIGH_OTHER + r"|fastest|faster|quickest|strongest|stronger|richest|busiest|heaviest|warmest|hottest|wettest|widest|wider|thickest|deepest|topped|dearest|priciest|costliest|warmer|hotter|wetter|highest|largest|greatest|biggest|most(?!\s+(?:likely|probably|certainly|definitely|plausibly|recently|often))|maximum|max|top|tallest|longest|peak|peaked|peaks|best|higher|greater|larger|bigger|more|taller|longer|exceeds?|exceeding|surpass(?:es)?|outperforms?|tops|above|ahead|leads?|leading"
_LOW = _LOW_OTHER + r"|slowest|slower|weakest|weaker|poorest|lightest|coldest|coolest|driest|cheapest|thinnest|thinner|narrowest|narrower|slimmest|shallowest|colder|cooler|drier|cheaper|lowest|smallest|least|fewest|minimum|min|shortest|bottom|worst|lower|smaller|less|fewer|shorter|below|trails?|behind"
_POLARITY = re.compile(
    rf"\b(?:(?P<high>{_HIGH})|(?P<low>{_LOW}))\b|(?P<high_cjk>最高|最大|最多|最长|最も(?:高|大|多)(?:い|かった|く)|가장\s*(?:높|많|크)|أعلى|أكبر|أكثر)|(?P<low_cjk>最低|最小|最少|最短|最も(?:低|少な|小さ)(?:い|かった|く)|가장\s*(?:낮|적|작)|أدنى|أقل|أصغر)",
    re.IGNORECASE,
)
_THAN = re.compile(r"\b(?:than|que|als|che|чем)\b|\b(?:exceeds?|surpass(?:es)?|outperforms?|tops|trails?|behind|below|above|ahead\s+of)\b", re.IGNORECASE)
_TRAILING = re.compile(
    r"\b(?:ahead\s+of|followed\s+by|trailed\s+by|devant|suivie?s?\s+(?:de|par)|seguid[oa]s?\s+(?:de|por|pel[oa]s?)|por\s+delante\s+de"
    r"|(?:bem\s+)?[àa]\s+frente\s+d[eoa]s?|davanti\s+a|seguit[oaie]\s+da(?:l|lla|llo|i|gli|lle)?|gefolgt\s+von|gevolgd\s+door|далее\s+следу\w*"
    r"|за\s+ним\w*\s+следу\w*|опережая|ardından|onu\s+takip)\b|其次|紧随其后|次いで|に続(?:き|いて)|그\s*다음|뒤를\s*이어|تليها|يليها|تليه|يليه",
    re.IGNORECASE,
)
"""A connective after which the labels named are ranked below the one before it ("A, ahead of B and C", "A, suivi de B",
"A … далее следуют B"): when no other rule decides, they are context, not the answer."""
_OR = re.compile(r"\bor\b|/|\beither\b", re.IGNORECASE)
_PLAIN_NUMBER = re.compile(r"-?\d{1,15}(?:\.\d{1,15})?")
_YEAR_QUESTION = re.compile(r"\b(?:which|what|in\s+which)\s+(?:year|fiscal\s+year)|\bwhen\b|\byear\b", re.IGNORECASE)
_RATIO_QUESTION = re.compile(r"\bratio\b|\bhow\s+many\s+times\b|\btimes\s+(?:as\s+\w+|larger|bigger|higher|greater|more)\b", re.IGNORECASE)
_RATIO = re.compile(
    r"(?<![\d.:])(\d+(?:\.\d+)?)\s?:\s?(\d+(?:\.\d+)?)(?![\d:])|\bratio\s+(?:is|of|was)\s+(\d+(?:\.\d+)?)\s+to\s+(\d+(?:\.\d+)?)\b",
    re.IGNORECASE,
)
"""A ratio written ``35:11`` or "the ratio is 35 to 11", read as its quotient under a ratio or "how many times" question."""
_CONTEXT_BEFORE = TailPattern(re.compile(
    r"\b(?:(?:up|down|rising|falling|increas(?:ed|ing)|decreas(?:ed|ing)|climb(?:ed|ing)|grew|growing)\s+from|compared\s+(?:to|with)"
    r"|versus|vs\.?|relative\s+to|against|previous(?:ly)?|prior)\s+(?:about\s+|around\s+|roughly\s+)?[$€£¥]?\s?$",
    re.IGNORECASE,
), ("from", "compared", "versus", "vs", "relative", "against", "previous", "prior"))
"""Words before a number that make it a point of comparison ("up from 274.52"), not the statement."""
_TRUNCATED_LIST = re.compile(
    r"\n[ \t]*(?:[-*•]|\d{1,2}[.)])[ \t]*$"
    r"|(?:[^\W\d_][^\d\n]{0,30}?[-\d][\d.,]*%?[ \t]*[,;][ \t]*){2}[^\W\d_][^\d,.;:!?\n]{0,30}[:\u2013\u2014-]?[ \t]*$"
    r"|(?:[^\W\d_]|\b(?:19|20)\d\d)[ \t]*[:\u2013\u2014-][ \t]*$"
)
"""An output that stops at an empty list item, or in an enumeration at an item without its value ("…, Italy 35.0, Spain",
"2021:", "3. Zurich –"): cut off before it committed to anything."""
_LIST_ITEM = re.compile(r"[-*•]?\s*[^:\n]{1,40}:\s*[-$€£¥]?\d")
_NUMBER_NEXT = re.compile(r"[-$€£¥]?\d[\d.,]*\s*(?:[,.]\s*)?$")
"""The rest of an output that is only another number ("42, 45"): the lead is one of two candidates."""
_HEDGE_NEXT = re.compile(r"\(?\s*(?:or|oder|ou|o|или|或)\b", re.IGNORECASE)
"""The rest of an output that opens with another option ("42 (or maybe 45)")."""
_SENTENCE_GOES_ON = re.compile(r"[^)\n]{0,40}\)[ \t]*[a-z]")
"""The rest of a sentence the lead was cut from at a bracket ("Japan (30) is higher than France"): not a bare answer."""
_CHAIN_AFTER_LEAD = re.compile(r"[^\n<>]{0,40}?\s[<>]\s")
_CHAIN_NOISE = re.compile(r"\([^()]{0,40}\)|[\s*`'\"]+|[-+]?\d+(?:[.,]\d+)?%?")
_YES_NO_AFTER_CORRECTION = re.compile(
    r"\b(?:wait|actually|hmm+|sorry|correction|on\s+second\s+thought|let\s+me\s+correct\s+that)\b[\s,.:;!\u2014-]*\b(yes|no)\b",
    re.IGNORECASE,
)
_YES_NO_CUE = re.compile(r"\b(?:wait|actually|hmm+|sorry|correction|on\s+second\s+thought|looking\s+again|re-?reading|re-?checking)\b", re.IGNORECASE)
_YES_NO_CONCLUDED = re.compile(r"\b(?:so|thus|therefore|hence|the\s+answer\s+is)\s*,?\s*(yes|no)\b(?!\s+(?:longer|more|one|doubt|matter)\b)", re.IGNORECASE)
"""A yes or no a conclusion states ("so yes", "therefore, no"): for a yes/no question the last one is the answer, and after a
correction cue the first one past it."""
LOOK_BACK_REFUSAL = 600
_REFUSAL = re.compile(
    r"\b(?:can(?:no|')t|unable\s+to|not\s+(?:possible|able)\s+to|impossible\s+to|(?:is|are)\s+not\s+(?:shown|visible|given|labell?ed)"
    r"|no\s+(?:data|value|information)|does\s+not\s+(?:show|contain|include)|doesn't\s+(?:show|contain|include))\b",
    re.IGNORECASE,
)
"""A refusal the reader recognises: no answer, read with confidence (not a style it does not know)."""
_UNDECIDED = re.compile(
    r"\b(?:(?:hard|difficult|impossible)\s+to\s+(?:say|tell|determine|judge|know)|can(?:no|')t\s+(?:say|tell|determine)|(?:un|not\s+)clear"
    r"|not\s+sure|unsure)\s+which\b|\btoo\s+close\s+to\s+call\b|\bone\s+of\s+(?:those|these|the)\s+two\b"
    r"|\bcan(?:no|')t\s+(?:give|provide|offer|read|be\s+(?:sure|confident|certain))\b|\b(?:would\s+)?rather\s+not\s+guess\b"
    r"|\bnot\s+(?:confident|certain)\s+enough\b|\b(?:roughly\s+|about\s+|essentially\s+)?tied\s+(?:for|at)\b|\bneck\s+and\s+neck\b",
    re.IGNORECASE,
)
"""A statement that the output cannot decide which item answers ("hard to say which is higher"): no answer, when it ends the output."""
_MARKED_HEAD = re.compile(r"[\s*_`'\"#:]*(?:(?:approximately|about|around|roughly|~|≈)\s*)?(?=[-$€£¥₹.\d])", re.IGNORECASE)
_FRACTION_QUESTION = re.compile(r"\b(?:fraction|proportion|ratio)\b", re.IGNORECASE)
_PERCENT_QUESTION = re.compile(r"\bper\s?cent(?:age)?\b|%", re.IGNORECASE)
_BARE_PREFIX = re.compile(r"^[\s*#_`'\"]*(?:(?:approximately|about|around|roughly|~|≈)\s*)?[-$€£¥₹.\d]", re.IGNORECASE)
_FILLER = frozenset("the a an answer is it's its in month year category country label".split())
_UNIT_WORDS = re.compile(
    r",\s*in\s+([^?]*)\?\s*$|\(in\s+([^)]*)\)|\bin\s+(thousands?|millions?|billions?|trillions?|lakhs?|crores?)\b"
    r"|\(((?:thousands?|millions?|billions?|trillions?|bn|mn|lakhs?|crores?)\b[^)]*)\)",
    re.IGNORECASE,
)
"""The unit a question asks in: ", in bn USD?", "(in thousands)", "in millions", "(million euros)"."""
_SCALES = {
    "k": 1e3, "K": 1e3, "M": 1e6, "B": 1e9, "bn": 1e9, "mn": 1e6, "mln": 1e6, "tn": 1e12,
    "thousand": 1e3, "thousands": 1e3, "million": 1e6, "millions": 1e6, "billion": 1e9, "billions": 1e9,
    "trillion": 1e12, "trillions": 1e12, "lakh": 1e5, "lakhs": 1e5, "crore": 1e7, "crores": 1e7,
}

ANSWER, REFUSED, UNFINISHED, NOTHING = "answer", "refused", "unfinished", "nothing"


def question_scale(question: str | None) -> float:
    """The scale of the unit a question asks in: 1e3 for ", in thousand units?", 1e9 for ", in bn USD?", else 1.

    >>> question_scale("What is the value, in k EUR?"), question_scale("Which is largest?")
    (1000.0, 1.0)
    >>> question_scale("How many visitors (in thousands) came in Q3?")
    1000.0
    """
    if not question:
        return 1.0
    match = _UNIT_WORDS.search(question)
    if match is None:
        return _other_language_unit(question)
    words = (match.group(1) or match.group(2) or match.group(3) or match.group(4) or "").split()
    first = words[0] if words else ""
    scale = _SCALES.get(first, _SCALES.get(first.lower(), 1.0) if len(first) > 1 else 1.0)
    if scale == 1.0 and len(first) > 2:  # "(in Millionen Euro)", "(in milioni)"
        found = scale_word_after(" " + first, 0)
        scale = found[0] if found is not None else 1.0
    return scale


_STACKED_UNIT = re.compile(
    r"[(,（]\s*(?:en|em|in)?\s*(?:(?P<billion>miles\s+de\s+millones|mil\s+milh[õo]es)"
    r"|(?:单位|単位|單位)\s*[:：]?\s*(?P<times>\d+|[十百千])?(?P<unit>[万萬億亿]))",
    re.IGNORECASE,
)
_CJK_UNITS = {"万": 1e4, "萬": 1e4, "億": 1e8, "亿": 1e8}
_OTHER_UNIT = re.compile(r"[(,（]\s*(?:(?:en|in|im|em|в|на|单位[:：]?|単位[:：]?)\s*)?([^\W\d_]+)", re.IGNORECASE)


def _other_language_unit(question: str) -> float:
    """The scale of a unit named in another language: ``(en millones de euros)``, ``(in Millionen)``, ``（单位：亿元）``,
    ``(млрд долларов)``."""
    stacked = _STACKED_UNIT.search(question)
    if stacked is not None:  # "(en miles de millones de dólares)", "（单位：十亿美元）", "（単位：10億ドル）"
        if stacked.group("billion"):
            return 1e9
        times = stacked.group("times") or ""
        times_value = float(times) if times.isdigit() else {"": 1.0, "十": 10.0, "百": 100.0, "千": 1000.0}[times]
        return times_value * _CJK_UNITS[stacked.group("unit")]
    match = _OTHER_UNIT.search(question)
    if match is None:
        return 1.0
    found = scale_word_after(" " + match.group(1), 0)
    return found[0] if found is not None else 1.0


@dataclass(frozen=True)
class _Question:
    """What the question tells a reader: its unit, direction, categories and numbers."""

    answer_type: str
    index: LabelIndex
    scale: float
    fraction: bool
    polarity: int
    focus: frozenset[str]
    numbers: frozenset[float]
    unit: bool = False
    ratio: bool = False
    asks_year: bool = False
    percent: bool = False
    decrease: bool = False
    aggregate: re.Pattern[str] | None = None
    qualifiers: frozenset[str] = frozenset()
    difference: bool = False
    aggregate_kind: str | None = None
    lettered: dict[str, str] = field(default_factory=dict)
    measure: tuple[str, float] | None = None  # the unit of measure asked in: ("W", 1e6) for "(MW)"
    ranked: bool = False  # the question asks for a place below the first ("the second-most seats")
    points: bool = False  # the question asks in percentage points
    hours: bool = False  # the question asks in hours
    counted: re.Pattern[str] | None = None  # "How many states …?": the counted noun after a number ("3 states")
    change: bool = False  # the question asks for a change ("percentage change", "by how much did … fall")

    @classmethod
    def read(cls, answer_type: str, labels: tuple[str, ...], question: str | None) -> _Question:
        index = label_index(labels)
        text = prepare(question) if question else ""
        polarity = _polarity(text) if text else 0
        focus = frozenset(m.label for m in mentions(text, index)) if text else frozenset()
        if text and not focus and answer_type == "number":
            focus = _named_by_own_word(text, labels)
        fraction = bool(_FRACTION_QUESTION.search(text)) and not _PERCENT_QUESTION.search(text)
        numbers = frozenset(n.value for n in numbers_in(text)) | frozenset(float(year) for year in _GLUED_YEAR.findall(text))
        unit = bool(question and (_UNIT_WORDS.search(question) or _OTHER_UNIT.search(question)))
        ratio = bool(_RATIO_QUESTION.search(text))
        asks_year = bool(_YEAR_QUESTION.search(text)) or not text
        percent = bool(_PERCENT_QUESTION.search(text))
        decrease = bool(_DECREASE_QUESTION.search(text))
        kind = _aggregate_kind(text) if answer_type == "number" and text else None
        aggregate = _aggregate_before(kind) if kind is not None else None
        qualifiers = frozenset(
            m.label for m in mentions(text, index) if _QUALIFIER_BEFORE.search(text, max(0, m.start - 12), m.start)
        ) if text and answer_type == "label" else frozenset()
        return cls(answer_type, index, question_scale(question), fraction, polarity, focus, numbers, unit, ratio, asks_year, percent,
                   decrease, aggregate, qualifiers - _options(text, index), bool(_DIFFERENCE_QUESTION.search(text)), kind,
                   _lettered_options(text, index) if answer_type == "label" and "(" in text else {}, _asked_measure(question),
                   bool(_RANK_WORD.search(text)), bool(_POINTS.search(text)), bool(_HOURS_QUESTION.search(text)),
                   _counted_noun(text) if answer_type == "number" else None, bool(_CHANGE_QUESTION.search(text)))


_OWN_WORD = re.compile(r"[^\W\d_]{3,}")
_COMMON_WORDS = frozenset("the and for other others total all share rate revenue sales income value year years group".split())


def _named_by_own_word(question: str, labels: tuple[str, ...]) -> frozenset[str]:
    """The label a question names by a word no other label has ("YouTube's revenue" for ``YouTube ads``), when it names
    exactly one that way."""
    words = [{word.casefold() for word in _OWN_WORD.findall(label)} - _COMMON_WORDS for label in labels]
    asked = {word.casefold() for word in _OWN_WORD.findall(question)}
    named = {
        label for label, own in zip(labels, words)
        if own & asked - set().union(*(other for other_label, other in zip(labels, words) if other_label != label))
    }
    return frozenset(named) if len(named) == 1 else frozenset()


def _asked_measure(question: str | None) -> tuple[str, float] | None:
    """The unit of measure a question asks in, when it names one with no scale word: "(MW)", ", in mm?", "(in GWh)";
    basis points as hundredths of a percent (an answer in basis points is read in percent, :data:`BASIS_POINT`)."""
    if question and _BASIS_POINT_QUESTION.search(question):
        return ("%", 0.01)
    match = _UNIT_WORDS.search(question or "")
    words = (match.group(1) or match.group(2) or match.group(4) or "") if match is not None else ""
    if not words:
        plain = re.search(r"\(([^()]{1,24})\)\s*\??\s*$", question or "")
        words = plain.group(1) if plain is not None else ""
    words = words.strip()
    found = measure_at(words, 0) if words else None
    if found is None or question_scale(question) != 1.0:
        return None
    return found


_HOURS_QUESTION = re.compile(r"\(\s*(?:in\s+)?hours?\s*\)|\bin\s+hours\b|\bhow\s+many\s+hours\b", re.IGNORECASE)
_HOW_MANY = re.compile(r"\bhow\s+many\s+(?:of\s+the\s+)?([^\W\d_]{3,})", re.IGNORECASE)


def _counted_noun(question: str) -> re.Pattern[str] | None:
    """What a "How many …?" question counts, as it may follow the answer's number: "How many states have …?" gives
    ``3 states`` (singular too: ``1 state``); None for other questions and for units ("how many times", "hours")."""
    asked = _HOW_MANY.search(question)
    if asked is None or asked[1].casefold() in _NOT_COUNTED:
        return None
    noun = asked[1].casefold()
    stem = noun[:-3] + "(?:y|ies)" if noun.endswith("ies") else noun[:-1] + "s?" if noun.endswith("s") else noun + "s?"
    return re.compile(rf"\s*(?:[^\W\d_]+\s+)?{stem}\b", re.IGNORECASE)


_NOT_COUNTED = frozenset("times hours minutes seconds days weeks months years percent percentage points more less fewer".split())
_HOURS_MINUTES = re.compile(r"\b(\d{1,3})\s?(?:h|hrs?|hours?)\s*(?:and\s+)?(\d{1,2})\s?(?:m|min|mins|minutes?)\b", re.IGNORECASE)
"""Hours and minutes ("10h 56m", "3 hours 45 minutes"), read in hours under a question asked in hours."""
_POINTS = re.compile(r"\s*(?:percentage[\s-]+points?|points?|pts?\b|pp\b|p\.p\.|Prozentpunkte\w*|points\s+de\s+pourcentage|puntos\s+porcentuales)", re.IGNORECASE)
"""Percentage points after a number, or asked in a question ("By how many percentage points …?")."""
_GLUED_YEAR = re.compile(r"(?<=\b(?:FY|Q[1-4]|H[12]))'?((?:19|20)\d\d)(?!\d)", re.IGNORECASE)
"""A year written onto a period's prefix in a question ("in FY2023", "Q3'2021"): a number the question names."""
_BASIS_POINT_QUESTION = re.compile(r"\b(?:bps?|basis\s+points?)\b", re.IGNORECASE)
_DECREASE_QUESTION = re.compile(
    r"\b(?:deficits?|loss(?:es)?|declines?d?|decreases?d?|drops?|dropped|fall|fell|shrink|shrank|reductions?|lower|less)\b", re.IGNORECASE
)
"""A question that names the decrease itself ("What is the deficit?", "By how much did exports fall?") asks its size."""


_AGGREGATE_QUESTION = re.compile(
    r"\b(average|mean|median|total|sum|combined|cumulative|difference|durchschnitt\w*|mittelwert|moyenne|promedio|media|m[ée]dia|средн\w+"
    r"|summe|gesamt\w*|somme|suma|soma|итог\w*|unterschied|differenz|diff[ée]rence|[ée]cart|diferen[cç]a|differenza|разниц\w+)\b"
    r"|(平均|合计|合計|总计|總計|差)",
    re.IGNORECASE,
)
_AGGREGATE_KINDS = {
    "average": "average", "mean": "average", "durchschnitt": "average", "mittelwert": "average", "moyenne": "average",
    "promedio": "average", "media": "average", "média": "average", "medìa": "average", "средн": "average", "平均": "average",
    "median": "median",
    "total": "total", "sum": "total", "combined": "total", "cumulative": "total", "summe": "total", "gesamt": "total", "somme": "total", "suma": "total", "soma": "total",
    "итог": "total", "合计": "total", "合計": "total", "总计": "total", "總計": "total",
}
_AGGREGATE_WORDS = {
    "average": r"average|mean|durchschnitt\w*|mittelwert|moyenne|promedio|media|m[ée]dia|средн\w+|平均(?:值|は)?",
    "median": r"median|mediana|médiane|медиана|中位数",
    "total": r"total|sum|together|combined|altogether|summe|insgesamt|gesamt\w*|somme|au\s+total|suma|en\s+total|soma|итого|всего|合计|合計|总计|總計",
    "difference": r"difference|gap|spread|margin|increased?|decreased?|rise|rose|risen|drop(?:ped)?|fell|fallen|declined?|changed?|grew|lead|unterschied|differenz|anstieg|r[üu]ckgang"
                  r"|diff[ée]rence|[ée]cart|hausse|baisse|diferencia|aumento|diferen[cç]a|differenza|разница|рост|差(?:は|为|為)?",
}
"""The words an output names the quantity a question asks with ("What is the average ...?": "average 34.35", "the mean is 26";
"By how much ...?": "a gap of 4.5", "an increase of 5.2"), in the languages the reader knows."""


def _aggregate_kind(text: str) -> str | None:
    """Which quantity a number question asks for: ``average``, ``median``, ``total`` or ``difference`` (None: a plain value)."""
    if _DIFFERENCE_QUESTION.search(text):
        return "difference"
    asked = _AGGREGATE_QUESTION.search(text)
    if asked is None:
        return None
    word = (asked.group(1) or asked.group(2)).lower()
    stems = sorted((stem for stem in _AGGREGATE_KINDS if word.startswith(stem)), key=len, reverse=True)  # "median" before "media"
    return _AGGREGATE_KINDS[stems[0]] if stems else "difference"


@lru_cache(maxsize=16)
def _aggregate_before(kind: str) -> re.Pattern[str]:
    """The text right before a number labelled as the asked quantity: ``average 34.35``, ``the total is about 131``,
    ``difference: 4``, ``a spread of 27``, ``beträgt 54,5``."""
    return re.compile(
        rf"(?:\b|(?<=[\u3040-\u30ff\u4e00-\u9fff]))(?:{_AGGREGATE_WORDS[kind]})(?:\b|(?<=[\u3040-\u30ff\u4e00-\u9fff]))"
        r"(?:\s+(?:(?:thus|therefore|so|then|also|donc|also|quindi|entonces|portanto)\s+)?(?:is|was|of|by|comes\s+to|equals|would\s+be|of\s+about"
        r"|beträgt|betrug|liegt\s+bei|est\s+de|était\s+de|de|es\s+de|fue\s+de|è\s+di|di|é\s+de|foi\s+de|составляет|составила|составил)"
        r"(?:\s+(?:thus|therefore|so|then|donc|quindi|entonces|portanto))?)?\s*[:=：]?\s*"
        r"(?:(?:about|around|approximately|roughly|rund|etwa|environ|aproximadamente|circa|cerca\s+de|около|约|約|~|≈)\s*)?[$€£¥]?\s?$",
        re.IGNORECASE,
    )


@lru_cache(maxsize=16)
def _aggregate_after(kind: str) -> re.Pattern[str]:
    """The asked quantity named right after its number: "a 16-point gap", "a 4.5 percentage point margin", "54.5 on average"."""
    return re.compile(
        r"\s?(?:%|-?\s?(?:percentage[\s-]points?|points?|pp|p\.p\.|pts?)\b)?[ \t\u00a0-]+"
        rf"(?:(?:{_AGGREGATE_WORDS[kind]})\b|on\s+(?:average|aggregate))" if kind != "difference" else
        r"\s?(?:%|-?\s?(?:percentage[\s-]points?|points?|pp|p\.p\.|pts?)\b)?[ \t\u00a0-]+(?:gap|margin|difference|spread|lead)\b",
        re.IGNORECASE,
    )


_WRITTEN_FRACTION = re.compile(r"(?<![\d.,/])(\d{1,3})\s?/\s?(\d{1,3})(?![\d.,/])(?!\s*[=≈+*×-])")
"""A fraction written with a slash ("1/4") and not an operation carried on, read under a question asking a fraction."""
_SMALL_COUNTS = {word: float(i) for i, word in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve".split()) if i}
_ONE_IN = re.compile(
    r"\b(one|two|three|four|five|six|seven|eight|nine|ten|\d{1,2})\s+(?:in|out\s+of)\s+(two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\d{1,3})\b"
    r"(?!\s*(?:%|per\s*cent))",
    re.IGNORECASE,
)
"""A share written as a count in every so many ("one in three adults", "nine out of ten"), read in percent."""
_TIMES_AFTER = re.compile(r"\s?(?:times\b|[x×](?![^\W\d_])|fois\b|mal\b|veces\b|volte\b|vezes\b|раза?\b|倍)", re.IGNORECASE)
"""After a number that answers a "how many times" or ratio question: ``2.9 times as expensive``, ``2.4x``, ``3倍``."""


_RESPECTIVELY = re.compile(r"\b(?:respectively|beziehungsweise|respectivement|respectivamente|rispettivamente|соответственно)\b|分别", re.IGNORECASE)


def _respective(text: str, question: _Question) -> Reading | None:
    """"1.6, 2.4 and 0.8 for France, Japan and Peru respectively": the number in the asked category's place."""
    categories = [label for label in question.focus if not label.isdigit()]
    if len(categories) != 1:
        return None
    marker = _RESPECTIVELY.search(text, max(0, len(text) - LOOK_BACK_REFUSAL))
    if marker is None:
        return None
    sentence = next((piece for piece in sentences(text[max(0, marker.start() - 400):marker.end()])[-1:]), "")
    found = mentions(sentence, question.index)
    periods = {m.start for m in found if m.label.isdigit()}
    numbers = [n for n in numbers_in(sentence) if n.role == "answer" and not n.year and n.start not in periods]
    named = [m.label for m in found if not m.label.isdigit()]
    (asked,) = categories
    if len(numbers) < 2 or len(numbers) != len(named) or named.count(asked) != 1:
        return None
    return _finish(Verdict(ANSWER, numbers[named.index(asked)]), question, "committed", sentence)


def _marked_other_category(span: str, question: _Question) -> Reading | None:
    """"Answer: Japan 30.5" when France was asked: the output's final answer is another category's value, read as given."""
    if question.answer_type != "number" or not question.focus:
        return None
    head = sentences(span)[:1]
    if not head:
        return None
    named = {m.label for m in mentions(head[0], question.index)}
    numbers = [n for n in numbers_in(head[0]) if n.role == "answer" and not n.year]
    if not named or named & question.focus or len(numbers) != 1:
        return None
    return Reading(_in_question_unit(numbers[0], question), "marker", MEDIUM, head[0][:160])


_CONCLUDING = re.compile(
    r"\s*(?:based\s+on\s+(?:this|that|these|the\s+(?:chart|data|graph))|so|therefore|thus|hence|consequently|in\s+conclusion|overall"
    r"|donc|ainsi|por\s+(?:lo\s+)?tanto|portanto|quindi|daher|somit|итак|таким\s+образом)\b[,:]?\s|\s*(?:因此|所以|したがって|따라서)",
    re.IGNORECASE,
)
"""The opening of a concluding sentence ("Based on this, …", "Therefore …", "Donc …")."""


def _concluded_other_category(visible: str, question: _Question) -> Reading | None:
    """"…, and France at 42.3%. Based on this, the share for Germany is 38.1%." when France was asked: a concluding last
    sentence about another category, with its one value, is what the output commits to (as after a marker)."""
    last = sentences(visible[-LOOK_BACK_REFUSAL:])[-1:]
    if not last:
        return None
    if question.answer_type == "number" and _TRUE_VALUE.search(last[0]):
        numbers = [n for n in numbers_in(last[0]) if n.role == "answer" and not n.year]
        if len(numbers) == 1:
            return Reading(_in_question_unit(numbers[0], question), "committed", MEDIUM, last[0][:160])
    if not _CONCLUDING.match(last[0]):
        return None
    concluded = _marked_other_category(last[0], question)
    return concluded._replace(rule="committed") if concluded is not None else None


_TRUE_VALUE = re.compile(
    r"\b(?:actual|correct|true|real|right)\s+(?:[^\W\d_]+\s+){0,4}?(?:is|was|would\s+be|should\s+be)\b"
    r"|\b(?:cifra|valor|dato)\s+(?:correct[oa]|real|verdader[oa])\b|\bvaleur\s+(?:correcte|r[ée]elle)\b|\b(?:richtige|tats[äa]chliche)\s+wert\b"
    r"|\bvalore\s+(?:corretto|reale)\b|\b(?:valor|n[úu]mero)\s+(?:correto|real)\b",
    re.IGNORECASE,
)
"""A last sentence that states the actual or correct value ("The actual literacy rate is about 80%", "La cifra correcta …
es 90 millones"): its one number is the commitment, over a value read earlier."""


def _labelled_result(text: str, question: _Question) -> Reading | None:
    """The last number the output labels with the quantity the question asks ("…, average 34.35.", "a gap of 4.5",
    "2.9 times as expensive" for a "how many times" question), if it names one."""
    pattern = question.aggregate
    if pattern is None and not question.ratio:
        return None
    window = tail_window(text)
    chosen = None
    words = _aggregate_word(question.aggregate_kind) if question.aggregate_kind else None
    found = [n for n in numbers_in(window) if n.role == "answer"] + [
        Number(value, 1.0, False, start, end) for value, start, end in number_words(window) if value is not None
    ]
    if question.unit and not question.percent:
        found = [n for n in found if not n.percent]  # "grew 8.5%, i.e. by 2.4 bn USD": a share is not the amount in the unit asked
    found.sort(key=lambda n: n.start)
    named_after = (_aggregate_after(question.aggregate_kind)
                   if question.aggregate_kind and not (question.percent and question.aggregate_kind == "total") else None)  # "% of total sales"
    for number in found:
        if pattern is not None and pattern.search(window, max(0, number.start - 40), number.start) or (
            question.ratio and _TIMES_AFTER.match(window, number.end)
        ) or (named_after is not None and named_after.match(window, number.end)):
            chosen = number
    if chosen is None and words is not None:  # named further before, and stated: "The average of 2021 (51.2) and 2022 (57.8) is 54.5"
        for number in found:
            if _stated_after(window, number, words, found):
                chosen = number
    if chosen is None or _STRONG_CORRECTION.search(window, chosen.end) is not None:
        return None
    later = _CONCLUSION.search(window, chosen.end)
    if later is not None and any(n.start > later.end() and n.value != chosen.value for n in found):
        return None  # "Difference: 76.4 − 65.8 = 10.6. So women live about 16 years longer": the conclusion decides
    sentence_start = _sentence_start(window, chosen.start)
    if not _drop_other_categories(window[sentence_start:], [chosen._replace(start=chosen.start - sentence_start,
                                                                             end=chosen.end - sentence_start)], question):
        return None  # "The average salary for Teacher is 58.9" answers for Teacher, not the asked Nurse
    evidence = window[max(0, chosen.start - 40):chosen.end]
    return _finish(Verdict(ANSWER, chosen), question, "committed", evidence)


_STATED = re.compile(
    r"(?:\b(?:is|was|are|were|equals|comes\s+to|amounts?\s+to|totals?|totall?ed|reached|sold|stands?\s+at|account(?:s|ed)?\s+for"
    r"|make\s+up|makes\s+up|made\s+up|beträgt|betrug|liegt\s+bei"
    r"|est(?:\s+donc)?\s+de|es\s+de|fue\s+de|è\s+di|é\s+de|foi\s+de|составляет|составила|составил)|=)"
    r"\s*(?:about|around|approximately|roughly|rund|etwa|environ|aproximadamente|circa|около|~|≈)?\s*[$€£¥]?\s?$",
    re.IGNORECASE,
)
"""A number stated by a copula or a verb of amount ("… is 54.5", "… beträgt 54,5", "together sold about 3.48 million")."""


def _stated_after(window: str, number: Number, words: re.Pattern[str], found: list[Number]) -> bool:
    """The number is stated (:data:`_STATED`) in a sentence that names the asked quantity before it, with no other
    number stated in between ("The average of 2021 (51.2) and 2022 (57.8) is 54.5"; not "Sum = 248.5; there are 5")."""
    if _STATED.search(window, max(0, number.start - 30), number.start) is None:
        return False
    named = list(words.finditer(window, _sentence_start(window, number.start), number.start))[-1:]
    if not named:
        return False
    return not any(named[0].end() <= other.start < number.start and _STATED.search(window, max(0, other.start - 30), other.start)
                   for other in found)


def _sentence_start(window: str, position: int) -> int:
    """Where the sentence holding ``position`` starts (after ". ", "; " or a line break)."""
    return max(window.rfind(". ", 0, position) + 2, window.rfind("; ", 0, position) + 2, window.rfind("\n", 0, position) + 1, 0)


@lru_cache(maxsize=8)
def _aggregate_word(kind: str) -> re.Pattern[str]:
    return re.compile(rf"(?:\b|(?<=[\u3040-\u30ff\u4e00-\u9fff]))(?:{_AGGREGATE_WORDS[kind]})", re.IGNORECASE)


_DIFFERENCE_QUESTION = re.compile(
    r"\bby\s+how\s+(?:much|many)\b|\bhow\s+(?:much|many(?:\s+[^\W\d_]+){0,2}?)\s+(?:more|less|fewer|higher|lower|larger|smaller|warmer|colder)\b"
    r"|\bdifference\b|\b(?:gap|spread|margin|lead)\s+(?:between|of\s+[^\W\d_]+\s+over)\b|\bhow\s+much\s+(?:did|does|has|have|had|was|were)\b[^?]{0,80}?\b(?:increase|decrease|rise|fall|grow|drop|decline|change|shrink)\w*",
    re.IGNORECASE,
)
"""A question asking a difference: "18.5 higher than France's" is then the answer, not a comparison's aside."""
_QUALIFIER_BEFORE = re.compile(r"\b(?:in|for|during)\s+(?:the\s+)?$", re.IGNORECASE)
"""Before a label the question names as its series or period ("in the 2023 series", "for 2023"), not as an option."""


def _options(text: str, index: LabelIndex) -> frozenset[str]:
    """The labels a question offers as options ("France or Peru", "in 2023 or in 2024")."""
    found = mentions(text, index)
    options: set[str] = set()
    for left, right in zip(found, found[1:]):
        if _OR.search(text[left.end:right.start]):
            options.update((left.label, right.label))
    return frozenset(options)


@lru_cache(maxsize=4096)
def _read_question(answer_type: str, labels: tuple[str, ...], question: str | None) -> _Question:
    """:meth:`_Question.read`, once per question (scoring reads many outputs per question)."""
    return _Question.read(answer_type, labels, question)


def _polarity(text: str) -> int:
    match = _POLARITY.search(text)
    if match is None:
        return 0
    return 1 if match.group("high") or match.group("high_cjk") else -1


class Reading(NamedTuple):
    """What the reader made of one output, and why.

    ``value`` is the answer (``None``: no answer); ``rule`` names the step that
    decided (:data:`RULES`); ``confidence`` is :data:`HIGH`, :data:`MEDIUM` or
    :data:`LOW`; ``evidence`` is the piece of text the answer was read from;
    ``also`` holds other values the same words support: the number as written
    before a scale word, and the size of a decrease when the question names
    the decrease ("a deficit of 845" for "What is the deficit?"); ``spread`` is
    half the width of a narrow range read as its midpoint ("between 749 and 788").
    """

    value: ParsedAnswer
    rule: str
    confidence: float
    evidence: str = ""
    also: tuple[float, ...] = ()
    spread: float = 0.0


HIGH, MEDIUM, LOW = 0.95, 0.75, 0.4
"""Confidence levels: an answer alone or after a marker; a committed statement chosen among others; a guess or nothing."""
LOW_CONFIDENCE = 0.5
"""Readings below this confidence are counted as low-confidence by ``grade``."""
RULES = ("plain", "marker", "corrected-marker", "reasoning-marker", "lead", "committed", "refusal", "none")
"""The steps a :class:`Reading` can come from (docs/design.md §3.5)."""


def parse_answer(text: object, answer_type: str, labels: Sequence[str] = (), question: str | None = None) -> ParsedAnswer:
    """Parse ``text`` as a ``"number"`` or as one of ``labels``; ``None`` if it cannot be.

    ``question`` (optional) supplies the unit numbers are read in, the
    direction a comparison is asked in and the categories, periods and numbers
    it names (see the module docstring). :func:`read_answer` also says why.

    >>> parse_answer("About 55 thousand", "number", question="How many visitors in Q3, in thousand?")
    55.0
    >>> parse_answer("12 bn USD", "number", question="What are the exports of Chile, in bn USD?")
    12.0
    >>> parse_answer("<think>30.5 - 12 = 18.5</think>\\n\\nThe answer is 30.5 - 12.", "number") is None
    True
    """
    return read_answer(text, answer_type, labels, question).value


def read_answer(text: object, answer_type: str, labels: Sequence[str] = (), question: str | None = None) -> Reading:
    """:func:`parse_answer` with the rule that decided, a confidence and the evidence.

    >>> read_answer("Answer: 30.5? No, 42.7.", "number")[:3]
    (42.7, 'corrected-marker', 0.95)
    >>> read_answer("Germany 38, France 42.", "number", ("Germany", "France"), "What is the value for France?")[:2]
    (42.0, 'committed')
    """
    if not isinstance(text, str) or not text.strip() or answer_type not in ("number", "label"):
        return _NONE
    if question is not None and not isinstance(question, str):
        question = None
    forget_mentions()
    reader = _read_question(answer_type, tuple(label for label in labels if isinstance(label, str)), question)
    if answer_type == "label" and not reader.index.keys:
        return _NONE
    plain = text.strip()
    if answer_type == "number" and _PLAIN_NUMBER.fullmatch(plain):
        return Reading(_in_question_unit(Number(float(plain), 1.0, False, 0, len(plain)), reader), "plain", HIGH, plain)
    if answer_type == "label" and plain in labels:
        return Reading(plain, "plain", HIGH, plain)
    if answer_type == "number" and (bracketed := _ACCOUNTING_NEGATIVE.fullmatch(plain)) is not None:
        return Reading(_in_question_unit(Number(-float(bracketed.group(1).replace(",", "")), 1.0, False, 0, len(plain)), reader), "plain", HIGH, plain)
    prepared = prepare(text)
    visible = _without_echo(visible_text(prepared), question)
    if not visible.strip():
        reasoning = reasoning_text(prepared)
        span = marked_span(reasoning)
        if span is None:
            return _NONE
        marker = last_marker(reasoning)
        corrected = _after_correction(reasoning[marker[0]:] if marker is not None and not marker[1] else span, reader)
        if corrected is not None:
            return corrected._replace(rule="reasoning-marker", confidence=MEDIUM)
        return _finish(_read_marked(span, reader), reader, "reasoning-marker", span)
    if "." in visible and answer_type == "number" and _groups_with_dots(visible):
        visible = _DOT_GROUP.sub(r"\1\2", visible)  # "34.600 euro" in Italian is 34600
    if answer_type == "label" and reader.lettered:
        chosen = _chosen_option(visible, reader)
        if chosen is not None:
            return chosen
    flipped = _yes_no_correction(visible, reader)
    if flipped is not None:
        return flipped
    marker = last_marker(visible)
    span = marked_span(visible, marker)
    if span is not None and _NULL_ANSWER.match(span):  # {"answer": null}: the output says it has none, whatever else it lists
        return Reading(None, "refusal", HIGH, span[:160])
    if span is not None:
        after = visible[marker[0]:] if marker is not None and not marker[1] else span
        corrected = _after_correction(after, reader)
        if corrected is not None:
            return corrected
        verdict = _read_marked(span, reader)
        if verdict.kind != NOTHING:
            return _finish(verdict, reader, "marker", span)
        elsewhere = _marked_other_category(span, reader)
        if elsewhere is not None:
            return elsewhere
    labelled = _labelled_result(visible, reader) or (_respective(visible, reader) if answer_type == "number" else None)
    if labelled is not None:
        return labelled
    last = sentences(visible[-LOOK_BACK_REFUSAL:])[-1:]
    undecided = _UNDECIDED.search(last[0]) if last else None
    if undecided is not None and not re.search(r"\bbut\b", last[0][undecided.end():], re.IGNORECASE):
        return Reading(None, "refusal", HIGH, last[0][:160])
    if _TRUNCATED_LIST.search(visible, max(0, len(visible) - 120)):
        return Reading(None, "committed", MEDIUM, visible[-160:].strip())
    lead, rest = lead_segment(visible)
    if lead and not _STRONG_CORRECTION.search(rest[:400]) and not (_LIST_ITEM.match(lead) and _LIST_ITEM.match(rest.lstrip())) and not _NUMBER_NEXT.match(rest) and not _HEDGE_NEXT.match(rest) and not (answer_type == "label" and _SENTENCE_GOES_ON.match(rest)) and not (
        answer_type == "label" and _CHAIN_AFTER_LEAD.match(rest)
    ) and not (answer_type == "label" and _lead_goes_on_to_others(visible, lead, rest, reader)):
        verdict = _read_bare(lead, reader)
        if verdict.kind != NOTHING:
            return _finish(verdict, reader, "lead", lead)
    concluded = _concluded_other_category(visible, reader)
    if concluded is not None:
        return concluded
    verdict, evidence = _read_committed(tail_window(visible), reader)
    if verdict.kind == ANSWER and answer_type == "number" and _is_listing(_table_of(evidence, visible), reader):
        return Reading(None, "committed", MEDIUM, " ".join(evidence.split())[:160])
    if verdict.kind == NOTHING:
        refusal = _REFUSAL.search(visible[-LOOK_BACK_REFUSAL:])
        if refusal is not None:
            return Reading(None, "refusal", HIGH, refusal.group(0))
    return _finish(verdict, reader, "committed", evidence)


_ACCOUNTING_NEGATIVE = re.compile(r"\(\s*[$€£¥]?\s?(\d{1,3}(?:,\d{3})*(?:\.\d+)?|\d+(?:\.\d+)?)\s*\)\.?")
"""A whole answer that is a number in parentheses ("(8.9)", "($1,204)"): a negative amount as accounts write it."""
_NULL_ANSWER = re.compile(r"[\s\"']*(?:null|none|n/?a|\"\"|'')[\s\"']*[,}\]]", re.IGNORECASE)
"""An answer key whose value is empty (``"answer": null``)."""
_ECHO_WORDS = re.compile(r"[^\W_]+")


def _without_echo(visible: str, question: str | None) -> str:
    """The output without its sentences that restate the question ("Is the rate in 2023 higher than in 2019? Yes — …"): a
    question asked back is no claim, and its words (the question's categories and years) would read as one.

    A sentence ending in a question mark is an echo when four fifths of its words are the question's.
    """
    if not question or "?" not in visible:
        return visible
    asked = {word.casefold() for word in _ECHO_WORDS.findall(question)}
    kept = visible
    for sentence in sentences(visible):
        if not sentence.rstrip(" *").endswith("?"):
            continue
        words = [word.casefold() for word in _ECHO_WORDS.findall(sentence)]
        if len(words) >= 4 and sum(word in asked for word in words) >= 0.8 * len(words):
            kept = kept.replace(sentence, " " * len(sentence), 1)
    return kept


_DOT_GROUP_WORDS = frozenset(
    "der die das und ist mit von für im den dem des eine beträgt liegt "  # German
    "el los las del según para con por una es "  # Spanish
    "il gli della delle è per secondo "  # Italian
    "os do da dos das é com uma "  # Portuguese
    "het een van voor met "  # Dutch
    "ve bir için ile "  # Turkish
    "dan yang untuk adalah".split()  # Indonesian
)
"""Function words of languages that group thousands with a dot (CLDR: de, es, it, pt, nl, tr, id)."""
_ENGLISH_WORDS = frozenset("the is of and to in for with was are at by".split())
_WORD = re.compile(r"[^\W\d_]+")
_DOT_GROUP = re.compile(r"(?<![\d.,])(\d{1,3})\.(\d{3})(?![\d]|[.,]\d)")


def _groups_with_dots(text: str) -> bool:
    """Whether the output is written in a language that groups thousands with a dot ("Il PIL del Veneto è di 34.600 euro"):
    at least two of its function words, more than English ones."""
    words = {word.lower() for word in _WORD.findall(text[-LOOK_BACK_REFUSAL:])}
    ours = len(words & _DOT_GROUP_WORDS)
    return ours >= 2 and ours > len(words & _ENGLISH_WORDS)


_OPTION = re.compile(r"\(([A-Ha-h])\)\s*([^()?]+?)\s*(?=\([A-Ha-h]\)|\?|$)")
_OPTION_ANSWER = re.compile(r"[\s*]*(?:(?:the\s+)?(?:answer|option|choice)(?:\s+is)?\s*[:：]?\s*)?\(?([A-Ha-h])\)?[\s.*]*", re.IGNORECASE)


def _lettered_options(question: str, index: LabelIndex) -> dict[str, str]:
    """Lettered options a question offers ("(A) iOS (B) Android"), letter → label, where each option names one label."""
    options: dict[str, str] = {}
    for match in _OPTION.finditer(question):
        named = {m.label for m in mentions(match.group(2), index, alone=True)}
        if len(named) == 1:
            options[match.group(1).upper()] = named.pop()
    return options if len(options) >= 2 else {}


def _chosen_option(visible: str, question: _Question) -> Reading | None:
    """An output that answers with an option's letter alone ("(B)", "Answer: B")."""
    match = _OPTION_ANSWER.fullmatch(visible.strip())
    if match is None or match.group(1).upper() not in question.lettered:
        return None
    return Reading(question.lettered[match.group(1).upper()], "plain", HIGH, match.group(0).strip())


_VALUE_AFTER = re.compile(r"[\s:,;|(\u2014=-]{0,6}[-$€£¥]?\d")


_READOUT = re.compile(
    r"\b(?:values?|figures?|readings?|numbers?|data)\b[^.\n]{0,40}?(?:as\s+follows|i\s+can\s+read|\bare\b|\bby\s+\w+)\s*[:\u2014-]"
    r"|^\s*\|",
    re.IGNORECASE | re.MULTILINE,
)
"""A readout of the chart ("The values are as follows:", "Values I can read —", a table row), not a statement about an item."""


def _table_of(sentence: str, text: str) -> str:
    """The whole markdown table a table row belongs to (its rows are sentences of their own), or the sentence."""
    if not sentence.lstrip().startswith("|"):
        return sentence
    return "\n".join(line for line in text.splitlines() if line.lstrip().startswith("|"))


def _is_listing(sentence: str, question: _Question) -> bool:
    """A readout that lists the values of three or more categories ("Values I can read — A: 90, B: 46, C: 97", a table
    of every row) and says nothing of its own: it reads the chart out, it does not commit to the asked one. A statement
    that gives several values ("In 2022 Germany recorded 38.1%, France 42.7% …") still states the asked one."""
    if question.aggregate_kind is not None and _aggregate_word(question.aggregate_kind).search(sentence):
        return False  # a "Total" row answers a total question
    if _READOUT.search(sentence) is None:
        return False
    valued = {m.label for m in mentions(sentence, question.index) if _VALUE_AFTER.match(sentence, m.end)}
    return len(valued) >= 3


def _lead_goes_on_to_others(visible: str, lead: str, rest: str, question: _Question) -> bool:
    """A label lead cut from a sentence that goes on to name other labels ("Instagram (78%), Facebook (67%) … but YouTube
    reaches the most"): the first item of a list, not a bare answer."""
    after = visible.lstrip()[len(lead):len(lead) + 3].lstrip(" ")
    if after[:1] not in ("(", ",", "-", "\u2014", "\u2013"):
        return False
    first = sentences(rest[:SPAN])[:1]  # the sentence the lead was cut from, within the span an answer is read in
    contrast = _LIST_CONTRAST.search(first[0]) if first else None
    if contrast is None:
        return False
    named = {m.label for m in mentions(lead, question.index, alone=True)}
    return any(m.label not in named for m in mentions(first[0][contrast.end():], question.index))


_CONCESSIVE = re.compile(r"\s*(?:though|although|even\s+though|obwohl|bien\s+que|aunque|anche\s+se|embora|хотя)\b", re.IGNORECASE)
"""A clause that concedes ("though Riyadh is close"): the labels it names without comparing them are not claims."""
_LIST_CONTRAST = re.compile(
    r"\b(?:but|however|yet|whereas|than|trail\w*|behind|below|aber|doch|mais|pero|sin\s+embargo|ma|però|mas|porém|но|однако)\b|但|然而|しかし|하지만",
    re.IGNORECASE,
)
"""The turn after a list of items ("…, but YouTube reaches the most", "… all trail Delta", "… fewer than the services sector")."""


def _yes_no_correction(text: str, question: _Question) -> Reading | None:
    """A yes/no answer taken back by a correction ("Yes. Wait, no — B is larger."): the corrected word, for yes/no label sets."""
    if question.answer_type != "label":
        return None
    table = question.index.keys
    if "yes" not in table or "no" not in table or len(set(table.values())) != 2:
        return None
    keys = {"yes": table["yes"], "no": table["no"]}
    last = None
    for match in _YES_NO_AFTER_CORRECTION.finditer(text):
        last = match
    cues = list(_YES_NO_CUE.finditer(text))
    cue = cues[-1] if cues else None
    start = cue.end() if cue is not None and (last is None or cue.start() > last.start()) else None
    for match in _YES_NO_CONCLUDED.finditer(text, start or 0):
        if start is not None or last is None or match.start() > last.start():
            last = match  # "Yes — … wait, 3.6 is lower than 3.7. So no, it is not higher."; "…, so yes, clearly."
    if last is None:
        return None
    return Reading(keys[last.group(1).lower()], "committed", MEDIUM, last.group(0))


def _after_correction(after: str, question: _Question) -> Reading | None:
    """The answer a correction after the last marker commits to ("Answer: 30.5? No, 42.7."), if it gives one."""
    points = [match.end() for match in _STRONG_CORRECTION.finditer(after, 0, min(len(after), 4 * SPAN))]
    for position, point in enumerate(reversed(points)):
        verdict, evidence = _read_committed(after[point:point + SPAN], question)
        if verdict.kind == ANSWER:
            return _finish(verdict, question, "corrected-marker", evidence)
        if position or after[point:].strip(" .!\n"):
            return None  # what follows the last correction says no answer
        # the last "correction" ends the output ("… так что ответ — нет."): the one before it decides
    return None


class Verdict(NamedTuple):
    """What one piece of text says: an answer, a refusal (hedge, unfinished arithmetic) or nothing.

    ``ambiguous`` marks an answer chosen among several values still standing.
    """

    kind: str
    value: Number | float | str | None = None
    polar: bool = False
    ambiguous: bool = False


_NONE = Reading(None, "none", LOW)
_BASE_CONFIDENCE = {"marker": HIGH, "corrected-marker": HIGH, "reasoning-marker": MEDIUM, "lead": HIGH, "committed": MEDIUM}


def _finish(verdict: Verdict, question: _Question, rule: str, evidence: str) -> Reading:
    kind, value, _, ambiguous = verdict
    evidence = " ".join(evidence.split()).lstrip(" ,;:-\u2014")[:160]
    if kind == REFUSED:
        return Reading(None, rule, MEDIUM, evidence)
    if kind != ANSWER:
        return Reading(None, "none", LOW, evidence)
    confidence = _BASE_CONFIDENCE.get(rule, MEDIUM)
    if ambiguous:
        confidence = LOW if rule == "committed" else MEDIUM
    if isinstance(value, Number):
        also: tuple[float, ...] = (value.value,) if value.scale != 1.0 and not question.unit else ()
        if question.decrease and value.value < 0:  # "the deficit is 845" and "a deficit of 845" both answer "What is the deficit?"
            also += (-_in_question_unit(value, question), *(-size for size in also))
        read = _in_question_unit(value, question)
        spread = value.spread * read / value.value if value.spread and value.value else 0.0
        return Reading(read, rule, confidence, evidence, also, abs(spread))
    if isinstance(value, float | str):
        return Reading(value, rule, confidence, evidence)
    return Reading(None, "none", LOW, evidence)


def _in_question_unit(number: Number, question: _Question) -> float:
    value = number.value
    if number.measure and question.measure and number.measure[0] == question.measure[0] and number.measure != question.measure:
        return value * number.measure[1] / question.measure[1]  # "1.23 GW" under "(MW)", "2.2 metres" under "(mm)"
    if number.scale != 1.0:
        value = value * number.scale / question.scale
    elif question.scale > 1.0 and abs(value) >= (question.scale if question.scale >= 1e6 else 10 * question.scale):
        # 8,000,000,000 under "in bn" is written out in units; 1,200 under "in thousands" may already be thousands
        value = value / question.scale
    if number.percent and question.fraction:
        value /= 100.0
    return value


def _read_marked(span: str, question: _Question) -> Verdict:
    first = _number_right_after_marker(span, question)
    if first is not None:
        return Verdict(ANSWER, first)
    for sentence in sentences(span)[:3]:
        verdict = _read_piece(sentence, question, alone=True)
        if verdict.kind == UNFINISHED:
            return Verdict(REFUSED)
        if verdict.kind != NOTHING:
            return verdict
    return Verdict(NOTHING)


def _number_right_after_marker(span: str, question: _Question) -> Number | None:
    """The number a marker is directly followed by ("The answer is 42 — France exceeds Germany by 4"), if it stands alone.

    Not when the sentence corrects itself, hedges, or the number is working, a year or a copy of the question's.
    """
    if question.answer_type != "number":
        return None
    head = _MARKED_HEAD.match(span)
    if head is None:
        return None
    sentence = sentences(span)[0] if span.strip() else ""
    found = numbers_in(sentence)
    if not found or found[0].start > head.end() or not found[0].standalone:
        return None
    first = found[0]
    if first.year or first.value in question.numbers or any(n.role in _HEDGES for n in found[:2]):
        return None
    if _STRONG_CORRECTION.search(sentence) or _OPEN_ALTERNATIVE.search(sentence) or _bare_list(sentence, found):
        return None
    return first


def _read_bare(lead: str, question: _Question) -> Verdict:
    words = re.findall(r"[^\W_]+", lead)
    if not words or len(words) > 6 or lead.rstrip(" *").endswith("?"):
        return Verdict(NOTHING)
    if question.answer_type == "number":
        if not _BARE_PREFIX.match(lead):
            return Verdict(NOTHING)
        verdict = _read_piece(lead, question, alone=True)
        return Verdict(REFUSED) if verdict.kind == UNFINISHED else verdict
    found = mentions(lead, question.index, alone=True)
    covered = {w.lower() for m in found for w in re.findall(r"[^\W_]+", lead[m.start:m.end])}
    if not found or any(w.lower() not in covered and w.lower() not in _FILLER for w in words):
        return Verdict(NOTHING)
    return _read_piece(lead, question, alone=True)


def _read_committed(window: str, question: _Question) -> tuple[Verdict, str]:
    """The last committed statement: the best-scoring sentence, the latest on ties; (verdict, its sentence).

    When another sentence with the same score gives a different answer, the verdict is marked ambiguous.
    """
    candidates = sentences(window)[-MAX_SENTENCES:]
    read: list[tuple[Verdict, str]] = []
    inherits: set[str] = set()  # sentences that speak of the question's one category without naming it
    for position, sentence in enumerate(reversed(candidates)):
        verdict = _read_piece(sentence, question, alone=len(candidates) == 1)
        before = len(candidates) - position - 2
        if before >= 0 and _speaks_of_focus(sentence, candidates[before], question):
            inherits.add(sentence)
        if verdict.kind == UNFINISHED and position == 0:
            return Verdict(REFUSED), sentence
        if verdict.kind not in (NOTHING, UNFINISHED):
            read.append((verdict, sentence))
        elif read and _STRONG_CORRECTION.search(sentence):  # "15.2%... 아니요, 정정합니다. 7.8%입니다.": what follows it stands
            break
    if len(read) == 1:  # one statement: nothing to rank it against
        return read[0]
    corrected = next((i for i, (_, sentence) in enumerate(read) if _STRONG_CORRECTION.search(sentence)), None)
    if corrected is not None:  # (read runs from the last sentence back) a correction supersedes every statement before it
        read = read[:corrected + 1]
        verdict, sentence = read[corrected]
        cue = _STRONG_CORRECTION.search(sentence)
        if corrected > 0 and cue is not None and _value_key(_read_piece(sentence[:cue.start()], question, alone=False)) == _value_key(verdict):
            read = read[:corrected]  # "highest in 2020 — hmm, no, the 2020 bar is the dip. It was 2023.": it names the rejected answer
    best: tuple[int, Verdict, str] | None = None
    rival = False
    for verdict, sentence in read:
        score = _commitment(sentence, verdict, question, sentence in inherits)
        if best is None or score > best[0]:
            best = (score, verdict, sentence)
            rival = False
        elif score == best[0] and _value_key(verdict) != _value_key(best[1]):
            rival = True
    if best is None:
        return Verdict(NOTHING), ""
    verdict = best[1]
    if rival and verdict.kind == ANSWER:
        verdict = verdict._replace(ambiguous=True)
    return verdict, best[2]


def _value_key(verdict: Verdict) -> object:
    value = verdict.value
    return (verdict.kind, value.value if isinstance(value, Number) else value)


def _speaks_of_focus(sentence: str, previous: str, question: _Question) -> bool:
    """Whether a sentence refers back to the question's one category named just before it ("Rwanda leads the world.
    Women hold 61.3% of seats there, ahead of Cuba (53.4%).") while naming no category as its subject."""
    if len(question.focus) != 1 or question.answer_type != "number" or not _ANAPHOR.search(sentence):
        return False
    named = mentions(sentence, question.index)
    if named and named[0].start < 3 or any(n.standalone and not n.year for n in numbers_in(previous)):
        return False  # "Spain stood at 12.0% in 2011. For context, it was 14.6% …": the value came with the name
    return any(m.label in question.focus for m in mentions(previous, question.index))


_ANAPHOR = re.compile(r"\b(?:there|its|it|this\s+(?:country|city|state|region|company|party|year|market))\b", re.IGNORECASE)


def _commitment(sentence: str, verdict: Verdict, question: _Question, focused: bool = False) -> int:
    score = 0
    if _CONCLUSION.search(sentence):
        score += 3
    if _STRONG_CORRECTION.search(sentence) or (_TENTATIVE.search(sentence) and _CONTRAST.search(sentence)):
        score += 3
    if _WORKING.search(sentence):
        score -= 2
    if question.answer_type == "label":
        score += 4 if verdict.polar else 0
    else:
        if len(question.focus) == 1 and (focused or any(m.label in question.focus for m in mentions(sentence, question.index))):
            score += 2
        if isinstance(verdict.value, Number) and _is_result(sentence, verdict.value):
            score += 1
        if isinstance(verdict.value, Number) and question.counted is not None and question.counted.match(sentence, verdict.value.end):
            score += 2  # "Hawaii (94,814) is not. That's 3 states." under "How many states …?": the count, named as such
        if isinstance(verdict.value, Number) and question.percent and not question.points and verdict.value.percent:
            score += 2  # "Heathrow = 79.2. 79.2 / 167.9 ≈ 47.2%." under "What share …?": the value in the unit asked
        if _COPULA_BEFORE.search(sentence[:max(0, sentence.find(" ", 1))]) or re.search(r"\b(?:is|are|was|were|=)\b|=", sentence):
            score += 1
    return score


def _read_piece(piece: str, question: _Question, *, alone: bool) -> Verdict:
    if _OPEN_ALTERNATIVE.search(piece):
        return Verdict(REFUSED)
    if question.answer_type == "number":
        return _read_number(piece, question)
    return _read_label(piece, question, alone=alone)


def _clause_bounds(piece: str, pattern: re.Pattern[str] = _CLAUSE) -> list[int]:
    return [0] + [m.end() for m in pattern.finditer(piece)]


def _clause_of(bounds: list[int], position: int) -> int:
    return max(0, bisect_right(bounds, position) - 1)


def _correction_point(piece: str) -> int:
    """Where the committed part of a sentence starts: after the last correction cue (0 without one)."""
    point = 0
    for match in _STRONG_CORRECTION.finditer(piece):
        point = match.end()
    tentative = _TENTATIVE.search(piece)
    if tentative is not None:
        for match in _CONTRAST.finditer(piece, tentative.end()):
            point = max(point, match.end())
    return point


def _read_number(piece: str, question: _Question) -> Verdict:
    if question.ratio:
        ratio = _RATIO.search(piece)
        terms = (ratio.group(1) or ratio.group(3), ratio.group(2) or ratio.group(4)) if ratio is not None else ("", "0")
        if ratio is not None and float(terms[1]) != 0:
            value = float(terms[0]) / float(terms[1])
            return Verdict(ANSWER, Number(value, 1.0, False, ratio.start(), ratio.end()))
    if question.percent:
        share = _ONE_IN.search(piece)
        if share is not None:  # "about one in three adults", "nine out of ten": a share in percent
            ones, every = (_SMALL_COUNTS.get(g.lower()) or float(g) for g in share.groups())
            if every:
                return Verdict(ANSWER, Number(100 * ones / every, 1.0, True, share.start(), share.end()))
    if question.hours:
        clock = _HOURS_MINUTES.search(piece)
        if clock is not None:  # "10h 56m" under "(hours)": 10.93
            return Verdict(ANSWER, Number(int(clock.group(1)) + int(clock.group(2)) / 60, 1.0, False, clock.start(), clock.end()))
    if question.fraction:
        written = _WRITTEN_FRACTION.search(piece)
        if written is not None and float(written.group(2)) != 0:  # "1/4" for "what fraction …?"
            return Verdict(ANSWER, Number(float(written.group(1)) / float(written.group(2)), 1.0, False, written.start(), written.end()))
    found = numbers_in(piece)
    if not found:
        return _read_number_words(piece)
    candidates = [n for n in found if n.standalone]
    if not candidates:
        if any(n.role in (*_HEDGES, "negated") for n in found):
            return Verdict(REFUSED)
        return Verdict(UNFINISHED) if any(n.role == "operand" for n in found) else Verdict(NOTHING)
    if _bare_list(piece, candidates):
        return Verdict(REFUSED)
    if any(n.role in _HEDGES for n in found) and all(n.year or n.value in question.numbers for n in candidates):
        return Verdict(REFUSED)  # "in 2020 it lies between 15 and 17": the range is the statement, 2020 a copy
    candidates = _drop_copies(candidates, question)
    bounds = [n for n in candidates if _BOUND_BEFORE.search(piece, max(0, n.start - 16), n.start)]
    if bounds and len(bounds) < len(candidates):  # "Over 90% of households …, the bar reads 97.5%": a bound, then the value
        candidates = [n for n in candidates if n not in bounds]
    if all(n.year for n in candidates) and not question.asks_year:
        return _read_number_words(piece)  # "2022年新开门店三十五家": the year is a date, the count is in words
    if all(n.value in question.numbers for n in candidates):
        words = _read_number_words(piece)
        if words.kind == ANSWER:
            return words
    compared = [n for n in candidates if _COMPARED_AMOUNT.match(piece, n.end)] if question.difference else []
    # "2.1 higher than Bolivia and 3.2 higher than Chile": the amount compared with the asked category
    against = [n for n in compared if {m.label for m in mentions(piece[n.end:n.end + 60].split(" and ")[0], question.index)} & question.focus]
    candidates = against or _drop_other_categories(piece, candidates, question)
    if not candidates:
        return Verdict(NOTHING)
    candidates = _drop_starting_points(piece, candidates)
    if question.difference:
        candidates = [n for n in candidates if n in compared] or candidates
    else:
        candidates = [n for n in candidates if not _COMPARED_AMOUNT.match(piece, n.end)] or candidates
    candidates = [n for n in candidates if not _CONTEXT_BEFORE.search(piece[max(0, n.start - 24):n.start])] or candidates
    if not question.change and not question.difference and not question.points:  # "fell by $2.6 billion to $16.3 billion": the level, not the change
        levels = [n for n in candidates if _TO_LEVEL.search(piece, max(0, n.start - 8), n.start)]
        if levels:
            candidates = [n for n in candidates if not _BY_CHANGE.search(piece, max(0, n.start - 8), n.start)] or candidates
    if not question.ratio:  # "47.5 billion, up from 15.0 billion, an increase of about 3.2 times": the multiple is a comparison
        candidates = [n for n in candidates if not _MULTIPLE_AFTER.match(piece, n.end) and piece[n.end - 1:n.end] not in "x×"] or candidates
    if question.aggregate_kind is None:  # "about 11% of Alphabet's total revenue of $76.7 billion": the whole, not the part
        candidates = [n for n in candidates if not _WHOLE_BEFORE.search(piece[max(0, n.start - 40):n.start])] or candidates
    candidates = [n for n in candidates if piece.count("(", 0, n.start) <= piece.count(")", 0, n.start)] or candidates
    # "2.8 million new cases (about 27% of the global total)": a number in an aside is context
    for point in (_correction_point(piece), _last_conclusion(piece)):
        later = [n for n in candidates if n.start >= point]
        if point and later:
            candidates = later
    if question.points:  # "surged to 14.3%, up 12.3 points": the question asks in points
        candidates = [n for n in candidates if _POINTS.match(piece, n.end)] or candidates
    elif question.percent and any(n.percent for n in candidates):
        candidates = [n for n in candidates if n.percent]
    results = [n for n in candidates if _is_result(piece, n)]
    if results:
        return Verdict(ANSWER, results[-1])
    after_copula = [n for n in candidates if _COPULA_BEFORE.search(piece[max(0, n.start - 40):n.start])]
    return Verdict(ANSWER, (after_copula or candidates)[0])


_CHANGE_QUESTION = re.compile(r"\b(?:change[sd]?|increase[sd]?|decrease[sd]?|grow(?:th|n)?|grew|rise|rose|fall|fell|decline[sd]?|drop(?:ped)?|by\s+how\s+much)\b", re.IGNORECASE)
_BY_CHANGE = re.compile(r"\bby\s+(?:about\s+|around\s+)?[$€£¥]?\s?$", re.IGNORECASE)
_TO_LEVEL = re.compile(r"\bto\s+(?:about\s+|around\s+)?[$€£¥]?\s?$", re.IGNORECASE)
_HEDGES = ("hedge", "range")  # two candidates ("30 or 40"), a range too wide to be one answer ("between 30 and 40")
_WHOLE_BEFORE = re.compile(r"\b(?:total|overall|combined|whole|entire)(?:\s+[^\W\d_]+){0,3}\s+(?:of|was|is|at)\s+(?:about\s+|around\s+)?[$€£¥]?\s?$", re.IGNORECASE)
_MULTIPLE_AFTER = re.compile(r"\s*(?:times|fold|mal|fois|veces|vezes|volte|раз\w*|倍)\b|-fold\b", re.IGNORECASE)


def _bare_list(piece: str, candidates: list[Number]) -> bool:
    """Whether the piece is only numbers separated by commas ("42, 45"): candidates, not an answer."""
    if len(candidates) < 2 or len({n.value for n in candidates}) < 2:
        return False
    if piece[:candidates[0].start].strip(" *`") or piece[candidates[-1].end:].strip(" .*`"):
        return False
    return all(piece[a.end:b.start].strip() == "," for a, b in zip(candidates, candidates[1:]))


def _is_result(piece: str, number: Number) -> bool:
    return re.search(r"(?:=|≈|\bequals|\bgives)\s*$", piece[max(0, number.start - 12):number.start]) is not None


def _drop_starting_points(piece: str, candidates: list[Number]) -> list[Number]:
    """In "from 40 ... to 48" the value reached is the statement, not the starting point."""
    if len(candidates) < 2:
        return candidates
    ends = [re.search(r"\bto\s+(?:about\s+|around\s+)?[$€£¥]?$", piece[max(0, n.start - 16):n.start]) is not None for n in candidates]
    if not any(ends):
        return candidates
    return [n for n in candidates if not re.search(r"\bfrom\s+(?:about\s+|around\s+)?[$€£¥]?$", piece[max(0, n.start - 16):n.start])]


def _last_conclusion(piece: str) -> int:
    point = 0
    for match in _CONCLUSION.finditer(piece):
        point = match.end()
    return point


def _read_number_words(piece: str) -> Verdict:
    runs = number_words(piece)
    if not runs:
        foreign = foreign_number_words(piece) or han_numerals(piece)
        if len({n.value for n in foreign}) == 1:
            return Verdict(ANSWER, foreign[0])
        return Verdict(REFUSED) if foreign else Verdict(NOTHING)
    runs = [run for run in runs if not _NEGATED_BEFORE.search(piece[max(0, run[1] - 30):run[1]])] or runs
    runs = [run for run in runs if not _COUNT_BEFORE.search(piece[max(0, run[1] - 12):run[1]])]
    if not runs:  # "the fastest of the three economies", "all four regions": a count of what the chart shows
        return Verdict(NOTHING)
    value, start, end = runs[-1] if _last_conclusion(piece) and runs[-1][1] >= _last_conclusion(piece) else runs[0]
    if value is None or len({v for v, _, _ in runs}) > 1 and _OR.search(piece):
        return Verdict(REFUSED)
    scale_word = re.search(r"(thousand|million|billion)\W*$", piece[start:end], re.IGNORECASE)
    scale = _SCALES[scale_word.group(1).lower()] if scale_word and value else 1.0
    percent = re.match(r"\s*(?:%|per\s?cent)", piece[end:end + 10], re.IGNORECASE) is not None
    return Verdict(ANSWER, Number(value / scale, scale, percent, start, end))


_COUNT_BEFORE = re.compile(r"\b(?:the|these|those|all|both|its|their|of\s+the)\s+$", re.IGNORECASE)
"""A determiner before a number word: the words count items ("the three economies"), they state no value."""


def _drop_copies(candidates: list[Number], question: _Question) -> list[Number]:
    kept = [n for n in candidates if not n.year and n.value not in question.numbers]
    return kept or [n for n in candidates if not n.year] or candidates


def _drop_other_categories(piece: str, candidates: list[Number], question: _Question) -> list[Number]:
    """Numbers in clauses that name another category (and not the question's) are not the answer."""
    if not question.focus:
        return candidates
    bounds = _clause_bounds(piece)
    named: list[set[str]] = [set() for _ in bounds]
    found = mentions(piece, question.index)
    for mention in found:
        named[_clause_of(bounds, mention.start)].add(mention.label)
    inherited: list[set[str]] = []
    for index, labels in enumerate(named):
        inherited.append(labels if labels or index == 0 else inherited[index - 1])
    kept = []
    for number in candidates:
        clause = _clause_of(bounds, number.start)
        labels = inherited[clause]
        if labels and not labels & question.focus:
            continue
        if len(labels) > 1 and labels - question.focus and named[clause]:
            nearest = _nearest_mention(number, [m for m in found if _clause_of(bounds, m.start) == clause])
            if nearest is not None and nearest.label not in question.focus:
                continue
        kept.append(number)
    bound = [number for number in kept if inherited[_clause_of(bounds, number.start)] & question.focus]
    return bound or kept  # "In 2016 the chart shows 36.2% …; Mexico follows at 28.9%": a number bound to the asked item wins


def _nearest_mention(number: Number, found: list[Mention]) -> Mention | None:
    """The mention nearest a number in its clause, the one after it on a tie ("from 48 in 2019 to 40 in 2020": 48 is 2019's)."""
    def distance(mention: Mention) -> tuple[int, int]:
        after = mention.start >= number.end
        return (mention.start - number.end if after else number.start - mention.end, 0 if after else 1)

    return min(found, key=distance, default=None)


def _negated(piece: str, mention: Mention) -> bool:
    return _NEGATED_BEFORE.search(piece[max(0, mention.start - 30):mention.start]) is not None


def _read_label(piece: str, question: _Question, *, alone: bool) -> Verdict:
    found: Sequence[Mention] = mentions(piece, question.index, alone=alone)
    if question.qualifiers and any(m.label not in question.qualifiers for m in found):
        found = [m for m in found if m.label not in question.qualifiers]  # "in the 2023 series Peru's bar ...": 2023 is context
    if not found:
        return Verdict(NOTHING)
    only = _SECOND_ONLY.search(piece) if question.polarity else None
    if only is not None:  # "the second-highest share, behind only the United States": the one named is the extreme
        after = [m for m in found if only.end() <= m.start <= only.end() + 6]
        if after:
            return Verdict(ANSWER, after[0].label, True)
    chain = _ordering_chain(piece, found)
    if chain is not None:
        return Verdict(ANSWER, chain[0] if question.polarity >= 0 else chain[-1], True)
    extreme = _universal_comparison(piece, found, question)
    if extreme is not None:  # "" : the one label compared against is the other extreme, not the asked one
        return Verdict(ANSWER, extreme, True) if extreme else Verdict(NOTHING)
    point = _correction_point(piece)
    if point and any(m.start >= point for m in found):
        found = [m for m in found if m.start >= point]
        piece_start = point
    else:
        piece_start = 0
    bounds = _clause_bounds(piece, _LABEL_CLAUSE)
    polar: list[str] = []
    excluded: set[str] = set()
    plain: list[str] = []
    hedged = False
    compared = False  # the clause before named the items it was compared against
    for clause_index, start in enumerate(bounds):
        end = bounds[clause_index + 1] if clause_index + 1 < len(bounds) else len(piece)
        in_clause = [m for m in found if start <= m.start < end]
        if _CONCESSIVE.match(piece, start):
            continue  # "Dubai, …, though Riyadh is close", "although some sources put Japan ahead": an aside, not a claim
        if compared and in_clause and _JOINED_TAIL.search(piece, max(0, start - 5), start) and not _POLARITY.search(piece[start:end]):
            excluded.update(m.label for m in in_clause)  # "well above that of Reform UK (10.7%) and Conservative (8.0%)"
            continue
        compared = False
        runner_up = _RUNNER_UP.search(piece, start, end) if not question.ranked and in_clause else None
        if runner_up is not None:  # "July is the highest … January is the second-highest month": a place below the asked one
            excluded.add(min(in_clause, key=lambda m: abs(m.start - runner_up.start())).label)
            continue
        word = _POLARITY.search(piece[start:end])  # the clause's higher/lower word, if any
        before = [m for m in found if m.start < start and (not polar or m.start >= piece_start)]
        if word is not None and not in_clause and before and question.polarity and _RELATIVE_EXTREME.match(piece, start) \
                and _polarity(piece[start:end]) == question.polarity:
            polar.append(before[-1].label)  # "… but Manchester City scored 94, which is the highest": the clause's antecedent
            continue
        decided = _comparison(piece, found, start, end, question, word) if word is not None else None
        if decided is not None:
            winner, loser = decided
            if winner is not None:
                polar.append(winner)
            excluded.update(loser)
            continue
        if not in_clause:
            continue
        verdict = _superlative(piece[start:end], start, in_clause, question, word) if word is not None else None
        if verdict is not None:
            winners, losers = verdict
            polar.extend(winners)
            excluded.update(losers)
            compared = bool(losers) and not winners
            continue
        kept = [m for m in in_clause if not _negated(piece, m)]
        excluded.update(m.label for m in in_clause if _negated(piece, m))
        if len({m.label for m in kept}) > 1 and _OR.search(piece[max(start, piece_start):end]):
            hedged = True
        if question.index.years and any(_YEAR_OR.search(piece, max(0, m.start - 9), m.start) or _OR_YEAR.match(piece, m.end) for m in kept):
            hedged = True  # "the year was 2015 or 2016": a year the chart does not label offered beside one it does
        plain.extend(m.label for m in kept)
    polar = [label for label in polar if label not in excluded or label in polar[-1:]]
    if polar:
        return Verdict(ANSWER, polar[-1], True)
    if hedged:
        return Verdict(REFUSED)
    remaining = list(dict.fromkeys(label for label in plain if label not in excluded))
    trailing = _TRAILING.search(piece) if remaining else None
    if trailing is not None:
        leading = [label for label in remaining if any(m.label == label and m.start < trailing.start() for m in found)]
        # "Man City topped the table, ahead of Real Madrid and PSG": with the leader unread, those after are still context
        remaining = leading if len(leading) == 1 or not leading else remaining
    if len(remaining) == 1:
        return Verdict(ANSWER, remaining[0])
    return Verdict(REFUSED) if len(remaining) > 1 and alone else Verdict(NOTHING)


_JOINED_TAIL = re.compile(r"\b(?:and|or|und|et|y|e)\s*$", re.IGNORECASE)
_YEAR_OR = re.compile(r"\b(?:19|20)\d\d\s+or\s+$")
_OR_YEAR = re.compile(r"\s+or\s+(?:19|20)\d\d\b")
_RELATIVE_EXTREME = re.compile(r"\s*(?:which|that|the\s+(?:highest|largest|most|lowest|smallest|least)\b)(?:\s+(?:is|was|are|were|makes?|made|gives?))?\s+", re.IGNORECASE)
"""A relative clause that names an extreme of the item before it ("…, which is the highest on the chart")."""
_RANK_WORD = re.compile(r"\b(?:second|third|fourth|fifth|2nd|3rd|4th|5th|runner[-\s]up)\b", re.IGNORECASE)
_RUNNER_UP = re.compile(
    r"\b(?:second|third|fourth|fifth|2nd|3rd|4th|5th)[-\s]+(?:highest|largest|most|biggest|greatest|lowest|smallest|least|fewest|place|ranked|best|worst)\b"
    r"|\brunner[-\s]up\b|\bin\s+(?:second|third|fourth|2nd|3rd|4th)\b"
    r"|\b(?:came|finished|were|was|is|are|ranks?|ranked|placed?|sits?)\s+(?:a\s+(?:distant|close)\s+)?(?:second|third|fourth|fifth|2nd|3rd|4th|5th)\b"
    r"|\b(?:close|closely|not\s+far|just|right|narrowly|slightly)\s+behind\b(?!\s+(?:the\s+)?[A-Z])",
    re.IGNORECASE,
)
"""A place below the first ("the second-highest month", "in second place", "runner-up"), for a question that asks the first."""
_SECOND_ONLY = re.compile(
    r"\b(?:second\s+only\s+to|behind\s+only|trailing\s+only|only\s+behind|surpassed\s+only\s+by|topped\s+only\s+by)\s+(?:the\s+)?",
    re.IGNORECASE,
)
"""A runner-up named against the one item ahead of it ("second only to China", "behind only the United States")."""
_BOUND_BEFORE = re.compile(r"\b(?:over|more\s+than|above|at\s+least|under|less\s+than|below|fewer\s+than|upwards\s+of)\s+[$€£¥]?$", re.IGNORECASE)
"""A bound before a number ("over 90%", "more than 1,000"): the value, when the sentence also states one, is the other number."""
_UNIVERSAL = re.compile(r"\b(?:every|each|all)\b(?:\s+(?:other|the|of\s+the))*\s+[^\W\d_]+(?:\s+(?:except|but|apart\s+from|other\s+than)\s+)?", re.IGNORECASE)


def _universal_comparison(piece: str, found: Sequence[Mention], question: _Question) -> str | None:
    """A comparison with every other item: "Every country had a higher rate than Japan", "Every department except Legal
    has higher turnover": the one label compared against is the extreme opposite the comparison (here the lowest);
    ``""`` when the question asks the other extreme (the sentence names no answer); None: no such comparison."""
    if not question.polarity:
        return None
    quantifier = _UNIVERSAL.search(piece)
    if quantifier is None:
        return None
    word = _POLARITY.search(piece, quantifier.end())
    if word is None:
        return None
    stated = 1 if word.group("high") or word.group("high_cjk") else -1
    if quantifier.group(0).rstrip().lower().endswith(("except", "but", "from", "than")):
        excepted = [m for m in found if quantifier.end() <= m.start < word.start()]
        if len(excepted) != 1:
            return None
        return excepted[0].label if stated != question.polarity else ""
    than = _THAN.match(piece, word.end(), word.end() + 60) or _THAN.search(piece, word.end(), word.end() + 40)
    if than is None:
        return None
    after = [m for m in found if than.end() <= m.start <= than.end() + 4]
    if not after:
        return None
    return after[0].label if stated != question.polarity else ""


def _ordering_chain(piece: str, found: Sequence[Mention]) -> list[str] | None:
    """Labels ordered from highest to lowest when the piece is a chain ``A > B > C`` (or ``C < B < A``), else ``None``."""
    if len(found) < 2:
        return None
    signs = set()
    for left, right in zip(found, found[1:]):
        between = _CHAIN_NOISE.sub("", piece[left.end:right.start])
        if between not in (">", "<"):
            return None
        signs.add(between)
    if len(signs) != 1:
        return None
    labels = [m.label for m in found]
    return labels if signs == {">"} else labels[::-1]


def _comparison(
    piece: str, found: Sequence[Mention], start: int, end: int, question: _Question, word: re.Match[str]
) -> tuple[str | None, set[str]] | None:
    """``A <higher|lower> than B`` (or ``A exceeds B``) spanning clause ``start``, whose higher/lower ``word`` is given:
    (winner, losers) by the question's direction."""
    clause = piece[start:end]
    than = _THAN.search(piece, start + word.start())
    if than is None or than.start() > end + 40:
        return None
    before = [m for m in found if start <= m.start < start + word.start() and not _negated(piece, m)]
    after_end = _next_clause_end(piece, than.end())
    after = [m for m in found if than.end() <= m.start < after_end]
    if not before or not after:
        return None
    stated = 1 if word.group("high") or word.group("high_cjk") else -1
    if _NEGATION.search(clause[:word.start()]):
        stated = -stated
    wanted = question.polarity or 1
    subject, other = before[-1].label, after[0].label
    if subject == other:
        return None
    return (subject, {other}) if stated == wanted else (other, {subject})


def _next_clause_end(piece: str, position: int) -> int:
    match = re.compile(r",\s|;|\.\s|\b(?:while|whereas|but|however)\b", re.IGNORECASE).search(piece, position)
    return match.start() if match is not None else len(piece)


def _superlative(
    clause: str, clause_start: int, in_clause: list[Mention], question: _Question, word: re.Match[str]
) -> tuple[list[str], set[str]] | None:
    """A clause naming the highest or lowest (or "X is higher" with no "than X"), its ``word`` given: (winners, losers)
    by the question's direction."""
    if not question.polarity:
        return None
    stated = 1 if word.group("high") or word.group("high_cjk") else -1
    if _NEGATION.search(clause[:word.start()]):
        stated = -stated
    labels = list(dict.fromkeys(m.label for m in in_clause))
    than = _THAN.search(clause, word.start())
    if than is not None and all(m.start >= clause_start + than.start() for m in in_clause):
        return [], set(labels) if stated == question.polarity else set()
    if stated == question.polarity and len(labels) == 1:
        return labels, set()
    if stated != question.polarity:
        return [], set(labels)
    return None
