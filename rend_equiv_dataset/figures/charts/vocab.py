"""Realistic words for synthetic charts: label pools, topics, titles, axis labels and units.

A :class:`Topic` is what a chart is about: which categories it shows
(countries, products, months, ...), what quantity it measures, in which
unit and over which value range, and how its series are named. The chart
samplers in :mod:`rend_equiv_dataset.figures.charts.families` draw a topic, then
categories and values from it. Everything is a tuple, so drawing with a
seeded generator is deterministic.

>>> topic = TOPICS_BY_NAME["exports"]
>>> topic.unit, topic.category_noun
('bn USD', 'country')
>>> len(topic.categories) >= 6
True
"""

from __future__ import annotations

from dataclasses import dataclass

COUNTRIES = (
    "Argentina", "Australia", "Brazil", "Canada", "Chile", "Egypt", "France", "Germany",
    "India", "Indonesia", "Italy", "Japan", "Kenya", "Mexico", "Nigeria", "Norway",
    "Peru", "Poland", "Spain", "Sweden", "Turkey", "Vietnam",
)
CITIES = (
    "Amsterdam", "Athens", "Berlin", "Bogota", "Cairo", "Chicago", "Dublin", "Lagos",
    "Lima", "Lisbon", "Madrid", "Manila", "Oslo", "Paris", "Prague", "Seoul",
    "Sydney", "Tokyo", "Toronto", "Vienna", "Warsaw", "Zurich",
)
PRODUCTS = (
    "Laptops", "Tablets", "Phones", "Monitors", "Printers", "Headphones", "Cameras",
    "Speakers", "Routers", "Keyboards", "Smartwatches", "Projectors",
)
TEAMS = (
    "Falcons", "Tigers", "Wolves", "Sharks", "Eagles", "Bears", "Hornets", "Lions",
    "Ravens", "Panthers", "Comets", "Rockets",
)
DEPARTMENTS = (
    "Sales", "Marketing", "Finance", "Legal", "Research", "Support", "Operations",
    "Logistics", "Design", "Engineering", "HR", "Procurement",
)
ENERGY_SOURCES = ("Coal", "Gas", "Nuclear", "Hydro", "Wind", "Solar", "Biomass", "Oil")
LANGUAGES = ("Python", "Java", "Rust", "Go", "Kotlin", "Swift", "Ruby", "C++", "TypeScript", "Scala")
FRUITS = ("Apples", "Bananas", "Cherries", "Grapes", "Mangoes", "Oranges", "Pears", "Plums", "Lemons", "Kiwis")
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
YEARS = tuple(str(y) for y in range(2012, 2025))
QUARTERS = ("Q1 2022", "Q2 2022", "Q3 2022", "Q4 2022", "Q1 2023", "Q2 2023", "Q3 2023", "Q4 2023")


@dataclass(frozen=True)
class Topic:
    """What a chart is about.

    Attributes:
        name: short key.
        title: title template with ``{series}`` optional, e.g. ``"Exports by country"``.
        categories: the label pool categories are drawn from.
        ordered: whether categories have a natural order (months, years); samplers keep it.
        category_noun: singular noun for one category ("country", "month").
        quantity: what the values measure, lower case ("exports").
        unit: unit shown on the value axis ("bn USD", "%", "").
        low, high: range values are drawn from.
        decimals: decimals of drawn values (0 or 1), so answers stay short and exact.
        series_pool: names for series of multi-series charts ("2023", "Online", ...).
        x_quantity, x_unit, x_low, x_high: scatter only, the horizontal quantity.
    """

    name: str
    title: str
    categories: tuple[str, ...]
    ordered: bool
    category_noun: str
    quantity: str
    unit: str
    low: float
    high: float
    decimals: int
    series_pool: tuple[str, ...]
    x_quantity: str = ""
    x_unit: str = ""
    x_low: float = 0.0
    x_high: float = 0.0

    @property
    def value_label(self) -> str:
        """Axis label for the values: quantity with its unit, e.g. ``"Exports (bn USD)"``."""
        head = self.quantity[:1].upper() + self.quantity[1:]
        return f"{head} ({self.unit})" if self.unit else head


_YEARS3 = ("2022", "2023", "2024")
TOPICS: tuple[Topic, ...] = (
    Topic("exports", "Exports by country", COUNTRIES, False, "country", "exports", "bn USD",
          5, 95, 1, _YEARS3),
    Topic("unit_sales", "Unit sales by product", PRODUCTS, False, "product", "unit sales", "thousand units",
          10, 90, 0, ("Online", "In-store", "Wholesale")),
    Topic("team_points", "Points scored per team", TEAMS, False, "team", "points", "",
          20, 99, 0, ("Home", "Away", "Neutral")),
    Topic("budget", "Budget by department", DEPARTMENTS, False, "department", "budget", "M EUR",
          2, 40, 1, ("Planned", "Actual", "Forecast")),
    Topic("electricity", "Electricity generation by source", ENERGY_SOURCES, False, "source",
          "generation", "TWh", 10, 90, 0, _YEARS3),
    Topic("developers", "Developers using each language", LANGUAGES, False, "language",
          "share of developers", "%", 3, 60, 1, ("2022 survey", "2023 survey", "2024 survey")),
    Topic("harvest", "Fruit harvest", FRUITS, False, "fruit", "harvest", "kt",
          15, 95, 0, ("North", "South", "East")),
    Topic("rainfall", "Monthly rainfall", MONTHS, True, "month", "rainfall", "mm",
          10, 99, 0, ("Lisbon", "Dublin", "Vienna")),
    Topic("revenue", "Revenue per year", YEARS, True, "year", "revenue", "M USD",
          12, 95, 1, ("Hardware", "Services", "Licences")),
    Topic("visitors", "Visitors per quarter", QUARTERS, True, "quarter", "visitors", "thousand",
          20, 95, 0, ("Museum", "Zoo", "Aquarium")),
    Topic("city_rent", "Rent and income by city", CITIES, False, "city", "average rent", "USD/m²",
          8, 45, 1, ("2024",), "median income", "k USD", 20.0, 90.0),
    Topic("country_life", "Life expectancy and health spending", COUNTRIES, False, "country",
          "life expectancy", "years", 45, 85, 1, ("2023",), "health spending", "% of GDP", 2.0, 18.0),
)
TOPICS_BY_NAME: dict[str, Topic] = {t.name: t for t in TOPICS}

SCATTER_TOPICS: tuple[Topic, ...] = tuple(t for t in TOPICS if t.x_quantity)
ORDERED_TOPICS: tuple[Topic, ...] = tuple(t for t in TOPICS if t.ordered and not t.x_quantity)
CATEGORICAL_TOPICS: tuple[Topic, ...] = tuple(t for t in TOPICS if not t.ordered and not t.x_quantity)


@dataclass(frozen=True)
class PieTopic:
    """A part-of-whole topic for pie charts: integer amounts that add up to a whole."""

    name: str
    title: str
    categories: tuple[str, ...]
    category_noun: str
    quantity: str
    unit: str


PIE_TOPICS: tuple[PieTopic, ...] = (
    PieTopic("energy_mix", "Electricity mix", ENERGY_SOURCES, "source", "generation", "TWh"),
    PieTopic("budget_split", "Budget split by department", DEPARTMENTS, "department", "budget", "k EUR"),
    PieTopic("sales_split", "Sales by product", PRODUCTS, "product", "sales", "units"),
    PieTopic("fans", "Season tickets by team", TEAMS, "team", "season tickets", "tickets"),
    PieTopic("orchard", "Orchard area by fruit", FRUITS, "fruit", "area", "ha"),
    PieTopic("repos", "Repositories by language", LANGUAGES, "language", "repositories", "repos"),
)
