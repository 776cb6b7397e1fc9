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
from pagekit import link_notes, link_view


def script_for(url_path: str) -> str:
    """The page script served at ``url_path`` ("" for the start page)."""
    return registry.by_url_path(url_path).script


FIXTURE = Path(__file__).parent / "fixtures" / "links_2026_11.json"
LINKS = json.loads(FIXTURE.read_text(encoding="utf-8"))["links"]

# The machine speed behind the pages' time estimates is pinned, as when they were recorded.
pytestmark = pytest.mark.usefixtures("fixed_machine_speed")


@pytest.mark.parametrize("link", LINKS, ids=[link["id"] for link in LINKS])
def test_a_link_made_before_the_redesign_opens_the_same_view(link):
    at = open_page(script_for(link["url_path"]), None, link["query"])  # raises on an exception
    assert not link_notes(at), (link["url"], link_notes(at))
    now = link_view(at)
    changed = {f"{part} {key}": (was, now[part].get(key, "(not shown)"))
               for part in ("widgets", "metrics") for key, was in link[part].items()
               if key not in now[part] or now[part][key] != was}
    assert not changed, f"{link['url']} now differs (was, now): {changed}"
