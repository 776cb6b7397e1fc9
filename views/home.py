"""Page: the start page. What the dashboard is, one card per page, a learning path, presenting.

Static on purpose: text, thumbnails and links, no computation, so it opens at once. The
thumbnails in docs/thumbs/ (docs/thumbs/ko/ in Korean) are the top of the pages' screenshots
(scripts/screenshots.py), cropped to the main column and resized to 480 px wide. The pages, their titles and cards come from ui.registry.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from ui import notation, registry
from ui.kit import page_style
from ui.text import N_, language, t

TITLE = registry.HOME.title

# A first-time student's order through the pages, and why each comes there.
LEARNING_PATH = (
    (registry.COMPARE,
     N_("see what privacy noise does to real data, and why an ordinary test goes wrong on it.")),
    (registry.CALIBRATION,
     N_("check by simulation which test keeps its promise of 5% false alarms, and how much "
        "data it needs to find a real difference.")),
    (registry.FDP,
     N_("what the privacy level actually promises: an attacker's test that must fail, the "
        "same scale for every mechanism.")),
    (registry.LDP,
     N_("the simplest mechanism, one person at a time: ε as the odds of a lie, and the truth "
        "estimated back from the lies.")),
    (registry.GAUSSIAN,
     N_("the other standard mechanism, and the δ of (ε, δ): how much noise each calibration "
        "asks for.")),
    (registry.PLANNER,
     N_("put it together: choose the privacy level ε and the sample size N of a study.")),
    (registry.SUBSTITUTION,
     N_("further: randomized response generalised, and what repeated releases cost in "
        "privacy.")),
    (registry.CLASS_JOIN,
     N_("with a class: the room supplies the data, in a poll by randomized response, the "
        "attacker's game and a private class histogram.")),
)


def card(c: registry.PageSpec) -> None:
    with st.container(border=True):
        # PNG as stored: "auto" would re-encode every thumbnail as JPEG on every run.
        st.image(str(registry.thumb_path(c, language())), width="stretch", output_format="PNG",
                 alt=t("The top of the page '{title}'", title=c.label))
        st.markdown(t("**{question}**", question=t(c.question)))
        st.caption(t(c.what))
        st.page_link(c.script, label=c.label, icon=c.icon, width="stretch")


page_style()  # a visible focus, as on every page
st.title(t(TITLE))
st.markdown(t(
    "Move a slider and watch **differential privacy** (DP) work: noise enters the data, "
    "estimators undo its bias, tests stay honest under it, or fail to. The data are real, "
    "the **2020 population by age** of the USA and of Korea (nationally, and the capital "
    "region against the rest of the country), or your own CSV file. Every number on screen "
    "is computed live, as you move, by `dpcore`, this project's own Python package."
))
st.markdown(t(
    "One notation on every page: **ε** is the privacy level (smaller ε, more privacy), **N** "
    "the people in a data set, **k** the categories of one answer, **M** the bins of a "
    "histogram. The [notation table](#notation) at the bottom of this page lists every symbol, "
    "and how the sources write it where they differ."
))

path_col, tip_col = st.columns([3, 2], gap="large")
with path_col:
    st.subheader(t("First time here? A learning path"), anchor=False)
    # Each step a link to its page (issue 36: the path was text only), why it comes there
    # beside it.
    for i, (page, why) in enumerate(LEARNING_PATH, start=1):
        step, reason = st.columns([2, 3], gap="small", vertical_alignment="center")
        step.page_link(page.script, label=f"{i}. {page.label}", icon=page.icon,
                       width="stretch")
        reason.markdown(t(why))
with tip_col:
    st.subheader(t("Presenting"), anchor=False)
    st.markdown(t(
        "- The layout is wide: the pages use the whole screen.\n"
        "- Larger text for a room: the browser's zoom (Ctrl and + , ⌘ and + on a Mac) "
        "enlarges everything. To present with a larger font throughout, start the "
        "dashboard with `scripts/dashboard.sh --theme.baseFontSize=20` (pixels; 16 "
        "otherwise).\n"
        "- Every view can be shared by its URL: the pages keep their settings in the "
        "address bar (the calibration page's simulation form excepted), so a copied link "
        "opens the same page with the same settings and seed, and shows the same numbers."
    ))
    st.markdown(t(
        "- **Presenting mode**: the **Present** button of a page's header, or `present=1` "
        "in its link, makes text and charts larger, hides the help icons and closes the "
        "sidebar; every setting stays, across pages, until **Stop presenting**."))

for section, cards in registry.sections().items():
    cards = [c for c in cards if c.thumb]
    if not cards:
        continue
    st.subheader(t(section), anchor=False)
    # At most three cards a row, rows of equal length (4 cards: 2 + 2), so that the page
    # titles in the links fit, also with the sidebar open and the browser zoomed in.
    rows = -(-len(cards) // 3)
    per_row = -(-len(cards) // rows)
    for start in range(0, len(cards), per_row):
        for col, c in zip(st.columns(per_row), cards[start:start + per_row]):
            with col:
                card(c)

st.subheader(t("Notation"), anchor="notation")
st.markdown(t("One symbol means one thing on every page. Where a source writes it otherwise "
              "(Son, Park & Jung 2022 write the privacy level α), the page says so where the "
              "symbol first appears, and the last column here gives the source's own symbol. "
              "Links and downloaded CSV files keep their earlier names (such as `alpha_a`), so "
              "links people have shared and their scripts keep working."))
# A static table: its cells wrap, none is cut.
st.table(pd.DataFrame(notation.notation_rows()).set_index(t("Symbol")))
