"""Page tests of the start page "Seeing differential privacy" (views/home.py), with AppTest.

The start page is app.py's default page: one card per other page (thumbnail, question,
link), a learning path and tips for presenting. Its links must follow app.py's routing.
"""

from __future__ import annotations

import ast
from pathlib import Path

from streamlit.testing.v1 import AppTest

from conftest import APP_PATH, REPO_ROOT, routed_pages, run

PAGE = "views/home.py"
TITLE = "Seeing differential privacy"


def start() -> AppTest:
    return run(AppTest.from_file(str(APP_PATH), default_timeout=60))


def home_constants() -> dict[str, object]:
    """The module-level data of views/home.py (its cards and learning path), read from its
    source: importing the page would run its Streamlit calls outside an app."""
    tree = ast.parse((REPO_ROOT / PAGE).read_text(encoding="utf-8"))
    found = {}
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            target = node.targets[0] if isinstance(node, ast.Assign) else node.target
            if isinstance(target, ast.Name) and target.id in {"SECTIONS", "LEARNING_PATH"}:
                found[target.id] = node.value
    assert set(found) == {"SECTIONS", "LEARNING_PATH"}, found
    cards = []
    for section in found["SECTIONS"].values:  # {"section": (Card(...), ...)}
        for call in section.elts:
            path, title, icon, _question, _what, thumb = (ast.literal_eval(a) for a in call.args)
            cards.append({"path": path, "title": title, "icon": icon, "thumb": thumb})
    path = [ast.literal_eval(item.elts[0]) for item in found["LEARNING_PATH"].elts]
    return {"cards": cards, "learning_path": path}


def other_pages():
    return [p for p in routed_pages() if p.path != PAGE]


def test_home_is_the_default_page():
    defaults = [p for p in routed_pages() if p.default]
    assert [p.path for p in defaults] == [PAGE]
    assert routed_pages()[0].path == PAGE  # first in the menu
    assert defaults[0].title == TITLE


def test_home_loads_fast_and_clean():
    at = start()  # no page chosen: the default page
    assert [t.value for t in at.title] == [TITLE]
    assert not at.error and not at.warning and not at.exception
    text = " ".join(m.value for m in at.markdown)
    assert "2020 population by age" in text and "dpcore" in text
    assert "baseFontSize" in text  # the presenting tip names the option
    # Static: no widget that could start a computation.
    for kind in ("button", "slider", "select_slider", "selectbox", "number_input", "radio"):
        assert not at.get(kind), kind


def test_one_card_and_link_per_page():
    at = start()
    pages = other_pages()
    links = at.page_link
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


def test_linked_pages_are_routed_and_open():
    routed = {p.path: p for p in routed_pages()}
    cards = home_constants()["cards"]
    assert sorted(c["path"] for c in cards) == sorted(p.path for p in other_pages())
    for c in cards:
        assert c["path"] in routed and (REPO_ROOT / c["path"]).is_file(), c
        assert c["title"] == routed[c["path"]].title, c
    # A link is followed: the linked page opens (here the cheapest one).
    at = start()
    at.switch_page("views/fdp.py")
    run(at)
    assert at.title[0].value == routed["views/fdp.py"].title


def test_app_py_pages_match_the_cards_icons():
    """The cards show the same icon as the menu (app.py's st.Page icon)."""
    tree = ast.parse(APP_PATH.read_text(encoding="utf-8"))
    icons = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "Page":
            kwargs = {k.arg: ast.literal_eval(k.value) for k in node.keywords}
            icons[ast.literal_eval(node.args[0])] = kwargs.get("icon")
    for c in home_constants()["cards"]:
        assert c["icon"] == icons[c["path"]], c


def test_thumbnails_exist():
    from PIL import Image

    for c in home_constants()["cards"]:
        path = REPO_ROOT / "docs" / "thumbs" / c["thumb"]
        assert path.is_file(), path
        with Image.open(path) as im:
            assert im.format == "PNG"
            assert 400 <= im.width <= 600 and im.height < im.width, (path, im.size)
        assert path.stat().st_size < 250_000, path


def test_learning_path_covers_every_page_once():
    path = home_constants()["learning_path"]
    assert len(path) == len(set(path))
    assert sorted(path) == sorted(p.path for p in other_pages())
    assert path[0] == "views/compare_histograms.py"


def test_page_paths_are_written_as_in_app_py():
    """st.page_link needs the path exactly as app.py's st.Page: e.g. "views/ldp.py"."""
    source = (REPO_ROOT / PAGE).read_text(encoding="utf-8")
    routed = {p.path for p in routed_pages()}
    for c in home_constants()["cards"]:
        assert f'"{c["path"]}"' in source and c["path"] in routed
        assert not Path(c["path"]).is_absolute()
