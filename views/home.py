"""Page: the start page. What the dashboard is, one card per page, a learning path, presenting.

Static on purpose: text, thumbnails and links, no computation, so it opens at once. The
thumbnails in docs/thumbs/ are the top of the README's screenshots (docs/*.png), cropped to
the main column and resized to 480 px wide. The page paths are those of app.py's st.Page.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import streamlit as st

TITLE = "Seeing differential privacy"
THUMBS = Path(__file__).resolve().parents[1] / "docs" / "thumbs"


@dataclass(frozen=True)
class Card:
    path: str  # the page script, as app.py routes it
    title: str  # its title in app.py's navigation
    icon: str
    question: str  # the question the page answers
    what: str  # what one sees and does there
    thumb: str  # file in docs/thumbs/


SECTIONS: dict[str, tuple[Card, ...]] = {
    "Testing private data": (
        Card("views/compare_histograms.py", "Compare two private histograms",
             ":material/compare_arrows:",
             "Two age histograms are released with privacy noise: are the populations "
             "behind them the same?",
             "Move the privacy level α and watch Laplace noise blur real 2020 histograms; "
             "the usual χ² test is fooled by the noise, the parametric bootstrap test of "
             "Son, Park & Jung (2022) is not.",
             "compare_histograms.png"),
        Card("views/test_calibration.py", "Test calibration", ":material/tune:",
             "Can the test be trusted, and how much data does it need?",
             "Type-I error and power by simulation, live or from the paper's full grid of "
             "720 settings, each rate with its 95% interval.",
             "test_calibration.png"),
        Card("views/planner.py", "Privacy–utility planner", ":material/balance:",
             "How many people does a privacy level need, and how much privacy can a "
             "sample size afford?",
             "Say what difference the study must detect and how often; get the N needed, "
             "the strongest α, the frontier between them and a one-page report.",
             "planner.png"),
    ),
    "Privacy guarantees": (
        Card("views/fdp.py", "f-DP and Gaussian DP", ":material/shield:",
             "What does a privacy guarantee promise against an attacker?",
             "Privacy as the attacker's hypothesis test, was the data D or D′? Every "
             "mechanism on one scale, its trade-off curve; composition and conversions.",
             "fdp.png"),
        Card("views/gaussian.py", "Gaussian mechanism", ":material/ssid_chart:",
             "How much Gaussian noise does a guarantee (ε, δ) require?",
             "Solve for σ, ε, δ or the sensitivity; three calibrations side by side, the "
             "privacy-loss distribution and a release of real counts.",
             "gaussian.png"),
        Card("views/ldp.py", "Randomized response (local DP)", ":material/casino:",
             "Can people protect their answers before anyone collects them?",
             "Each user flips a biased coin; watch the reports one by one, then the counts "
             "estimated back from them, and their error against ε.",
             "ldp.png"),
        Card("views/substitution.py", "Random substitution", ":material/shuffle:",
             "What does releasing several substituted values per record cost, and buy?",
             "Random substitution and its l-extension: the reconstruction, its accuracy "
             "against the theory, the cost in draws and the exact privacy ε_l.",
             "substitution.png"),
    ),
}
CARDS = tuple(card for cards in SECTIONS.values() for card in cards)

# A first-time student's order through the pages, and why each comes there.
LEARNING_PATH = (
    ("views/compare_histograms.py",
     "see what privacy noise does to real data, and why an ordinary test goes wrong on it."),
    ("views/test_calibration.py",
     "check by simulation which test keeps its promise of 5% false alarms, and how much "
     "data it needs to find a real difference."),
    ("views/fdp.py",
     "what the privacy level actually promises: an attacker's test that must fail, the "
     "same scale for every mechanism."),
    ("views/ldp.py",
     "the simplest mechanism, one person at a time: ε as the odds of a lie, and the truth "
     "estimated back from the lies."),
    ("views/gaussian.py",
     "the other standard mechanism, and the δ of (ε, δ): how much noise each calibration "
     "asks for."),
    ("views/planner.py",
     "put it together: choose the privacy level and the sample size of a study."),
    ("views/substitution.py",
     "further: randomized response generalised, and what repeated releases cost in "
     "privacy."),
)


def card(c: Card) -> None:
    with st.container(border=True):
        # PNG as stored: "auto" would re-encode every thumbnail as JPEG on every run.
        st.image(str(THUMBS / c.thumb), width="stretch", output_format="PNG",
                 alt=f"The top of the page '{c.title}'")
        st.markdown(f"**{c.question}**")
        st.caption(c.what)
        st.page_link(c.path, label=c.title, icon=c.icon, width="stretch")


st.title(TITLE)
st.markdown(
    "Move a slider and watch **differential privacy** (DP) work: noise enters the data, "
    "estimators undo its bias, tests stay honest under it, or fail to. The data are real, "
    "the **2020 population by age** of the USA and of Korea (nationally, and the capital "
    "region against the rest of the country), or your own CSV file. Every number on screen "
    "is computed live, as you move, by `dpcore`, this project's own Python package."
)

path_col, tip_col = st.columns([3, 2], gap="large")
with path_col:
    st.subheader("First time here? A learning path", anchor=False)
    titles = {c.path: c.title for c in CARDS}
    st.markdown("\n".join(f"{i}. **{titles[path]}**: {why}"
                          for i, (path, why) in enumerate(LEARNING_PATH, start=1)))
with tip_col:
    st.subheader("Presenting", anchor=False)
    st.markdown(
        "- The layout is wide: the pages use the whole screen.\n"
        "- Larger text for a room: the browser's zoom (Ctrl and + , ⌘ and + on a Mac) "
        "enlarges everything. To present with a larger font throughout, start the "
        "dashboard with `scripts/dashboard.sh --theme.baseFontSize=20` (pixels; 16 "
        "otherwise).\n"
        "- Every view can be shared by its URL: the pages keep their settings in the "
        "address bar (the calibration page's simulation form excepted), so a copied link "
        "opens the same page with the same settings and seed, and shows the same numbers."
    )

for section, cards in SECTIONS.items():
    st.subheader(section, anchor=False)
    # At most three cards a row, rows of equal length (4 cards: 2 + 2), so that the page
    # titles in the links fit, also with the sidebar open and the browser zoomed in.
    rows = -(-len(cards) // 3)
    per_row = -(-len(cards) // rows)
    for start in range(0, len(cards), per_row):
        for col, c in zip(st.columns(per_row), cards[start:start + per_row]):
            with col:
                card(c)
