"""The dashboard's pages, in one place: app.py routes them, the home page lists them, the
tests open them.

Each page is a script in ``views/`` and a :class:`PageSpec`: its file, the title of its
menu entry and heading, its icon, its menu section, the question its home-page card asks
and what one does there, its thumbnail and its URL path. Changing a page's title, icon or
URL path here changes it everywhere. A URL path is part of every link people have shared:
never change one.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ui.text import N_, t

REPO_ROOT = Path(__file__).resolve().parents[1]
THUMBS = REPO_ROOT / "docs" / "thumbs"


def thumb_path(page: "PageSpec", language: str) -> Path:
    """The thumbnail of ``page``'s card in ``language``: docs/thumbs/<file> in English,
    docs/thumbs/<language>/<file> in another (scripts/screenshots.py takes both)."""
    return THUMBS / page.thumb if language == "en" else THUMBS / language / page.thumb


@dataclass(frozen=True)
class PageSpec:
    """One page of the dashboard."""

    script: str  # the page script, relative to the repository root
    title: str  # menu entry and page heading (English; shown through ui.text.t)
    icon: str  # a Material icon, ":material/<name>:"
    section: str  # menu section; "" for the entries above the first section
    url_path: str  # the path of the page's address; "" for the default page
    question: str = ""  # the question the page answers (its card on the home page)
    what: str = ""  # what one sees and does there (its card)
    thumb: str = ""  # file in docs/thumbs/ and docs/thumbs/ko/ ("" for no card)

    @property
    def default(self) -> bool:
        return self.url_path == ""

    @property
    def name(self) -> str:
        """The script's stem: the page's short name in tests, screenshots and file names."""
        return Path(self.script).stem

    @property
    def label(self) -> str:
        """The title in the reader's language."""
        return t(self.title)

    @property
    def section_label(self) -> str:
        """The menu section in the reader's language ("" for no section)."""
        return t(self.section) if self.section else ""


# The menu's sections.
TESTING = N_("Testing private data")
GUARANTEES = N_("Privacy guarantees")
CLASS = N_("Class activities")

HOME = PageSpec(
    "views/home.py", N_("Seeing differential privacy"), ":material/home:", "", "")
COMPARE = PageSpec(
    "views/compare_histograms.py", N_("Compare two private histograms"),
    ":material/compare_arrows:", TESTING, "compare_histograms",
    N_("Two age histograms are released with privacy noise: are the populations behind them "
       "the same?"),
    N_("Move the privacy level ε and watch Laplace noise blur real 2020 histograms; the usual "
       "χ² test is fooled by the noise, the parametric bootstrap test of Son, Park & Jung "
       "(2022) is not when both share N and ε, and the normal-score test holds its level "
       "when they differ."),
    "compare_histograms.png")
CALIBRATION = PageSpec(
    # The URL path is the page's old file name: shared links use it.
    "views/calibration.py", N_("Test calibration"), ":material/tune:",
    TESTING, "test_calibration",
    N_("Can the test be trusted, and how much data does it need?"),
    N_("Type-I error and power by simulation, live or from the full grid of 720 settings of "
       "Son, Park & Jung (2022), each rate with its 95% interval."),
    "test_calibration.png")
PLANNER = PageSpec(
    "views/planner.py", N_("Privacy–utility planner"), ":material/balance:",
    TESTING, "planner",
    N_("How many people does a privacy level need, and how much privacy can a sample size "
       "afford?"),
    N_("Say what difference the study must detect and how often; get the N needed, the "
       "strongest privacy (the smallest ε) a sample size affords, the frontier between them "
       "and a one-page report."),
    "planner.png")
FDP = PageSpec(
    "views/fdp.py", N_("f-DP and Gaussian DP"), ":material/shield:",
    GUARANTEES, "fdp",
    N_("What does a privacy guarantee promise against an attacker?"),
    N_("Privacy as the attacker's hypothesis test, was the data D or D′? Every mechanism on "
       "one scale, its trade-off curve; composition and conversions."),
    "fdp.png")
GAUSSIAN = PageSpec(
    "views/gaussian.py", N_("Gaussian mechanism"), ":material/ssid_chart:",
    GUARANTEES, "gaussian",
    N_("How much Gaussian noise does a guarantee (ε, δ) require?"),
    N_("Solve for σ, ε, δ or the sensitivity; three calibrations side by side, the "
       "privacy-loss distribution and a release of real counts."),
    "gaussian.png")
LDP = PageSpec(
    "views/ldp.py", N_("Randomized response (local DP)"), ":material/casino:",
    GUARANTEES, "ldp",
    N_("Can people protect their answers before anyone collects them?"),
    N_("Each user flips a biased coin; watch the reports one by one, then the counts "
       "estimated back from them, and their error against ε."),
    "ldp.png")
SUBSTITUTION = PageSpec(
    "views/substitution.py", N_("Random substitution"), ":material/shuffle:",
    GUARANTEES, "substitution",
    N_("What does releasing several substituted values per record cost, and buy?"),
    N_("Random substitution and its l-extension: the reconstruction, its accuracy against "
       "the theory, the cost in draws and the exact privacy ε_l."),
    "substitution.png")

# The class activities (issue 37): a room of students supplies the data. Each activity's page
# is its teacher's view and, with ?code=<join code>, its students' (ui.classroom).
CLASS_JOIN = PageSpec(
    "views/class_join.py", N_("Join or start a class activity"), ":material/groups:", CLASS,
    "class",
    N_("Can a whole class take part, each student keeping their privacy?"),
    N_("The room supplies the data: a randomized-response poll answered on the students' "
       "phones, a game where every student attacks a private release, and a class histogram "
       "released with a privacy budget."),
    "class_join.png")
CLASS_POLL = PageSpec(
    "views/class_poll.py", N_("Class poll: randomized response"), ":material/how_to_vote:",
    CLASS, "class_poll")
CLASS_ATTACK = PageSpec(
    "views/class_attack.py", N_("Class game: be the attacker"), ":material/target:", CLASS,
    "class_attack")
CLASS_HISTOGRAM = PageSpec(
    "views/class_histogram.py", N_("Class histogram with a privacy budget"),
    ":material/bar_chart:", CLASS, "class_histogram")

# In menu order.
PAGES: tuple[PageSpec, ...] = (HOME, COMPARE, CALIBRATION, PLANNER, FDP, GAUSSIAN, LDP,
                               SUBSTITUTION, CLASS_JOIN, CLASS_POLL, CLASS_ATTACK,
                               CLASS_HISTOGRAM)
# The class activities' pages, in menu order.
CLASS_PAGES: tuple[PageSpec, ...] = (CLASS_JOIN, CLASS_POLL, CLASS_ATTACK, CLASS_HISTOGRAM)
# The tools: the pages that compute from their settings alone (every one has a Settings
# dataclass, a link that reproduces its view, Code and guided experiments).
TOOL_PAGES: tuple[PageSpec, ...] = tuple(p for p in PAGES
                                         if p is not HOME and p not in CLASS_PAGES)
# The pages with a card on the home page (all but the home page), in menu order.
CARDS: tuple[PageSpec, ...] = tuple(p for p in PAGES if p.thumb)


def sections() -> dict[str, list[PageSpec]]:
    """The pages by menu section, sections and pages in menu order."""
    out: dict[str, list[PageSpec]] = {}
    for page in PAGES:
        out.setdefault(page.section, []).append(page)
    return out


def by_name(name: str) -> PageSpec:
    """The page whose script is ``views/<name>.py``."""
    for page in PAGES:
        if page.name == name:
            return page
    raise KeyError(name)


def by_url_path(url_path: str) -> PageSpec:
    """The page served at ``/<url_path>`` ("" for the default page)."""
    for page in PAGES:
        if page.url_path == url_path:
            return page
    raise KeyError(url_path)
