"""The page contract of the Class pages (issue 37), as tests/test_page_contract.py states it
for the tools: every Class page opens clean with help on every control and its Share link
(which never holds a key); an address whose code opens nothing is named in plain words and
the page still works; a code of another kind of activity opens that activity's page; a
hostile code is shown inert."""

from __future__ import annotations

import pytest

from classkit import Browser, browsers, class_store, every_text  # noqa: F401
from conftest import assert_clean, without_help
from dpclass import activities
from pagekit import errors
from ui import classroom, registry

ACTIVITY_PAGES = [p for p in registry.CLASS_PAGES if p is not registry.CLASS_JOIN]
KINDS = {registry.CLASS_POLL: "poll", registry.CLASS_ATTACK: "attack",
         registry.CLASS_HISTOGRAM: "histogram"}
CONFIGS = {"poll": activities.poll_config("Q?", ["a", "b"], 1.0),
           "attack": activities.attack_config("laplace", 1.0, 10),
           "histogram": activities.histogram_config("Q?", ["a", "b"], ["A"], 2.0)}


def ended(at) -> bool:
    """The page's kit ended: its Share link and its report's caption are there."""
    return bool(at.code) and any(c.value.endswith("table(s).") for c in at.caption)


@pytest.mark.parametrize("page", registry.CLASS_PAGES, ids=lambda p: p.name)
def test_every_class_page_opens_clean_with_help_on_every_control(page, browsers, class_store):
    at = Browser().open(page.script)
    assert_clean(at)
    assert not errors(at), errors(at)
    assert at.title[0].value == page.title
    assert ended(at)
    seen: list[str] = []
    assert not without_help(at.main, seen), page.name
    assert seen


@pytest.mark.parametrize("page", ACTIVITY_PAGES, ids=lambda p: p.name)
@pytest.mark.parametrize("typed", ["ZZZZ-ZZZZ", "abc", "<b>x</b>**y**"])
def test_a_code_that_opens_nothing_is_named_and_the_page_still_works(page, typed, browsers,
                                                                     class_store):
    at = Browser().open(page.script, {classroom.CODE_PARAM: typed})
    assert_clean(at)
    said = errors(at)
    assert said and "There is no activity with this code" in said[0], said
    assert "<b>x</b>" not in every_text(at)  # a typed code is never echoed
    assert ended(at)
    assert not {"class_close", "class_share"} & {w.key for w in at.button} | {
        w.key for w in at.toggle}


@pytest.mark.parametrize("page", ACTIVITY_PAGES, ids=lambda p: p.name)
@pytest.mark.parametrize("kind", list(CONFIGS))
def test_a_code_opens_its_own_activitys_page(page, kind, browsers, class_store):
    activity, _key = class_store.create(kind, CONFIGS[kind])
    at = Browser().open(page.script, {classroom.CODE_PARAM: activity.code})
    assert_clean(at)
    own = classroom.page_of(kind)
    assert at.title[0].value == own.title, (page.name, kind)
    assert not errors(at), errors(at)
