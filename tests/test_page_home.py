"""Page tests of the start page "Seeing differential privacy" (views/home.py), with AppTest.

The start page is the default page: one card per other page of ui.registry (thumbnail,
question, link), a learning path and tips for presenting.
"""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from conftest import APP_PATH, REPO_ROOT, routed_pages, run
from ui import registry


def _learning_path():
    """views/home.py's LEARNING_PATH (page, why), read from its source: the page is a
    script, run by Streamlit, not a module to import."""
    import ast

    from ui.text import N_

    tree = ast.parse((REPO_ROOT / "views" / "home.py").read_text(encoding="utf-8"))
    [node] = [n for n in tree.body if isinstance(n, ast.Assign)
              and any(getattr(t, "id", None) == "LEARNING_PATH" for t in n.targets)]
    return eval(compile(ast.Expression(node.value), "home.py", "eval"),  # noqa: S307
                {"registry": registry, "N_": N_})


LEARNING_PATH = _learning_path()

PAGE = registry.HOME.script
TITLE = registry.HOME.title


def start() -> AppTest:
    return run(AppTest.from_file(str(APP_PATH), default_timeout=60))


def other_pages():
    """The pages with a card: every tool, and the Class section's door (its activities'
    pages are reached from there)."""
    return [p for p in routed_pages() if p.script != PAGE and p.thumb]


def test_home_is_the_default_page():
    defaults = [p for p in routed_pages() if p.default]
    assert [p.script for p in defaults] == [PAGE]
    assert routed_pages()[0].script == PAGE  # first in the menu
    assert defaults[0].title == TITLE


def test_home_is_clean_static_with_a_card_per_page_and_a_learning_path():
    """No page chosen: the start page, clean, static, one card and link per page, and a
    learning path through every page once."""
    at = start()
    assert [t.value for t in at.title] == [TITLE]
    assert not at.error and not at.warning and not at.exception
    text = " ".join(m.value for m in at.markdown)
    assert "2020 population by age" in text and "dpcore" in text
    assert "baseFontSize" in text  # the presenting tip names the option
    # Static: no widget that could start a computation (the sidebar holds the language).
    for kind in ("button", "slider", "select_slider", "selectbox", "number_input", "radio"):
        assert not at.main.get(kind), kind
    pages = other_pages()
    # The learning path's links first (issue 36), then one a card.
    links = at.page_link[len(LEARNING_PATH):]
    assert len(links) == len(pages)
    # A link's page is the url path app.py gives the page; its label is the page's title.
    assert [link.proto.page for link in links] == [p.url_path for p in pages]
    assert [link.proto.label for link in links] == [p.title for p in pages]
    # One thumbnail per card.
    images = at.get("image")
    assert len(images) == len(pages)
    for img in images:
        [item] = img.proto.imgs
        assert item.url.endswith(".png") and item.alt.startswith("The top of the page")
    steps = [link.proto.label.split(". ", 1)[1] for link in at.page_link[:len(LEARNING_PATH)]]
    assert sorted(steps) == sorted(p.title for p in other_pages())
    assert steps[0] == registry.COMPARE.title


def test_the_learning_paths_steps_are_links_to_their_pages():
    """Issue 36: each step of the learning path is a link to its page (the registry's), in
    the path's order, numbered, with why it comes there beside it."""
    at = start()
    steps = at.page_link[:len(LEARNING_PATH)]
    assert [link.proto.page for link in steps] == [p.url_path for p, _ in LEARNING_PATH]
    assert [link.proto.label for link in steps] == [
        f"{i}. {p.title}" for i, (p, _) in enumerate(LEARNING_PATH, start=1)]
    assert [link.proto.icon for link in steps] == [p.icon for p, _ in LEARNING_PATH]
    shown = [m.value for m in at.markdown]
    assert all(why in shown for _, why in LEARNING_PATH)


def test_a_card_link_opens_its_page():
    at = start()
    at.switch_page(registry.FDP.script)
    run(at)
    assert at.title[0].value == registry.FDP.title


@pytest.mark.parametrize("language", ["en", "ko"])
def test_thumbnails_exist(language):
    """Each card has its thumbnail in both languages (the Korean page's own screenshot)."""
    from PIL import Image

    for c in registry.CARDS:
        path = registry.thumb_path(c, language)
        assert path.is_file(), path
        with Image.open(path) as im:
            assert im.format == "PNG"
            assert 400 <= im.width <= 600 and im.height < im.width, (path, im.size)
        assert path.stat().st_size < 250_000, path


def test_cards_and_learning_path_say_epsilon_for_privacy_and_link_the_notation():
    """Issue 18: the privacy level is ε on the cards and the learning path (never α, nor
    "the paper"); the page links its notation table, which is at its bottom."""
    at = start()
    texts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    cards = [t for t in texts if any(t in (f"**{p.question}**", p.what) for p in other_pages())]
    assert len(cards) == 2 * len(other_pages())
    path = [why for _, why in LEARNING_PATH]
    for text in (*cards, *path):
        assert "α" not in text and "the paper" not in text.lower(), text
    compare = registry.COMPARE.what
    assert "privacy level ε" in compare and "share N and ε" in compare
    assert "strongest ε" not in registry.PLANNER.what and "ε" in registry.PLANNER.what
    assert "Son, Park & Jung (2022)" in registry.CALIBRATION.what
    # A link to the notation table near the top, and the table's heading is its anchor.
    [link] = [t for t in texts if "(#notation)" in t]
    assert texts.index(link) < texts.index(path[0])
    [heading] = [h for h in at.subheader if h.value == "Notation"]
    assert heading.proto.anchor == "notation"
    assert at.table  # the table itself
