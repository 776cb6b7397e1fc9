"""Share links made before the redesign still open the same view.

tests/fixtures/links_2026_11.json (recorded by tests/fixtures/record_links.py) holds links
of every page and the links the pages build to each other, with every keyed setting and
metric each opened. Reopened with AppTest: nothing raises, no value is "could not be used",
and every recorded setting and metric is as it was (ones added since are not checked).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import open_page
from ui import registry
from pagekit import link_notes, link_view, select_tab, tab_containers


def script_for(url_path: str) -> str:
    """The page script served at ``url_path`` ("" for the start page)."""
    return registry.by_url_path(url_path).script


FIXTURE = Path(__file__).parent / "fixtures" / "links_2026_11.json"
LINKS = json.loads(FIXTURE.read_text(encoding="utf-8"))["links"]

# The machine speed behind the pages' time estimates is pinned, as when they were recorded.
pytestmark = pytest.mark.usefixtures("fixed_machine_speed")


# Metrics written with other digits since the recording, on purpose, with the significant
# digits they have now: the Gaussian page's μ = Δ/σ shows 4, as its sentences do (issue 36,
# one number in one form). The number recorded, rounded so, is the number shown.
DIGITS_SINCE = {"μ = Δ/σ": 4}


def same_shown(key: str, was: str, now: str) -> bool:
    """Whether ``now`` shows the recorded metric ``was`` (see :data:`DIGITS_SINCE`)."""
    if now == was:
        return True
    if key not in DIGITS_SINCE:
        return False
    try:
        number = float(was.replace(",", ""))
    except ValueError:
        return False
    return now == f"{float(f'{number:.{DIGITS_SINCE[key]}g}'):g}"


def with_other_tabs(at, view: dict, recorded: dict) -> dict:
    """``view`` with the metrics recorded but not shown, read with their tab open, as a click
    on it shows them (a closed tab may draw only its controls, its results going to the
    report: the calibration page)."""
    missing = set(recorded) - set(view["metrics"])
    for key, labels in tab_containers(at) if missing else []:
        for label in labels:
            if label == at.session_state[key]:
                continue
            select_tab(at, key, label)
            at.run()
            for name, value in link_view(at)["metrics"].items():
                view["metrics"].setdefault(name, value)
    return view


@pytest.mark.parametrize("link", LINKS, ids=[link["id"] for link in LINKS])
def test_a_link_made_before_the_redesign_opens_the_same_view(link):
    at = open_page(script_for(link["url_path"]), None, link["query"])  # raises on an exception
    assert not link_notes(at), (link["url"], link_notes(at))
    now = with_other_tabs(at, link_view(at), link["metrics"])
    changed = {f"{part} {key}": (was, now[part].get(key, "(not shown)"))
               for part in ("widgets", "metrics") for key, was in link[part].items()
               if key not in now[part] or not same_shown(key, was, now[part][key])}
    assert not changed, f"{link['url']} now differs (was, now): {changed}"
