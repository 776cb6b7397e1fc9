"""Journeys in a real browser: what a person does one step after another, with real link
clicks, checked after every step (tests/test_journeys.py drives the same pages through many
more random sequences in AppTest, which cannot click a page link).

Every tool page, in English and in Korean: open it, follow a "Try this" experiment's link,
move a control, switch the language in the sidebar, move a control again. After every step:
no exception on the page or in the server log (the ``page`` fixture checks the log at the
end), the experiment's settings still in the address, the language of the address the one
spoken. A "Try this" link followed by any move crashed six pages once (the language
control's state was wiped under it): this is the tier that finds that.

And the pages that take a file in their first view (k-RR, compare): choose one's own file,
upload it, move a control, switch the language, upload a bad file, then the good one again,
through Chromium's own file input.

The fixtures (server, browser, page) are test_browser.py's; waits are ``expect`` and
browserkit.wait_idle only.
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from browserkit import (assert_no_traceback, choose, expect, open_expander, open_page,
                        wait_idle)
from test_browser import browser, page, server, shared_context  # noqa: F401  (fixtures)
from ui import registry
from ui.text import LANGUAGES, catalog

pytestmark = pytest.mark.browser

TOOL_PAGES = list(registry.TOOL_PAGES)


def said(text: str, code: str) -> str:
    """``text`` (an English message) as the interface in ``code`` writes it."""
    return text if code == "en" else catalog(code).gettext(text)


def query(page) -> dict[str, list[str]]:
    return parse_qs(urlsplit(page.url).query)


def settled(page) -> None:
    """The run a step started has ended and drawn no exception or traceback."""
    wait_idle(page)
    assert_no_traceback(page)


def move_a_control(page, tries: int = 3) -> None:
    """Move the first slider of the page one step with the keyboard (a press that landed
    while a run re-mounted the slider is pressed again), and let the page answer."""
    thumb = page.get_by_role("slider").first
    expect(thumb).to_be_visible()
    before = thumb.get_attribute("aria-valuetext")
    for _ in range(tries):
        at_end = thumb.input_value() == thumb.get_attribute("max")
        thumb.focus()
        page.keyboard.press("ArrowLeft" if at_end else "ArrowRight")
        try:
            expect(thumb).not_to_have_attribute("aria-valuetext", before or "", timeout=5_000)
            break
        except AssertionError:
            continue
    expect(thumb).not_to_have_attribute("aria-valuetext", before or "")
    settled(page)


def first_language(spec, turn: int = 0) -> str:
    """The language a page's journey starts in, in the default tier: English and Korean in
    turn, page by page (the other one is the extended tier's: tests/conftest.py)."""
    return list(LANGUAGES)[(TOOL_PAGES.index(spec) + turn) % len(LANGUAGES)]


@pytest.mark.parametrize("which", ["first", "other"])
@pytest.mark.parametrize("spec", TOOL_PAGES, ids=[p.name for p in TOOL_PAGES])
def test_try_this_then_move_then_switch_language(page, spec, which):
    code = first_language(spec)
    if which == "other":
        code = next(c for c in LANGUAGES if c != code)
    other = next(c for c in LANGUAGES if c != code)
    open_page(page, f"{spec.url_path}?lang={code}", said(spec.title, code))
    settled(page)

    # Follow an experiment's link, as a reader clicks it.
    open_expander(page, said("Try this", code))
    links = page.locator('[data-testid="stExpander"]').filter(
        has=page.locator("summary").get_by_text(said("Try this", code), exact=True)
    ).locator('[data-testid="stPageLink"] a').filter(visible=True)
    index = (TOOL_PAGES.index(spec) + list(LANGUAGES).index(code)) % links.count()
    links.nth(index).click()
    settled(page)
    expect(page.locator('[data-testid="stAlertContentInfo"]').first).to_be_visible()
    experiment = {k: v for k, v in query(page).items() if k != "lang"}
    assert query(page).get("lang") == [code], page.url

    # Move a control: the page answers, the rest of the experiment stays in the address.
    move_a_control(page)
    assert query(page).get("lang") == [code], page.url
    moved = query(page)
    kept = {k: v for k, v in experiment.items() if k in moved}
    assert all(moved[k] == v for k, v in kept.items() if k not in changed(experiment, moved)), (
        experiment, moved)

    # Switch the language in the sidebar: the view is the same page, in the other language.
    page.locator('[data-testid="stSidebar"]').get_by_text(LANGUAGES[other], exact=True).click()
    settled(page)
    expect(page.get_by_role("heading", name=said(spec.title, other)).first).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", other)

    # And move a control again, in the other language.
    move_a_control(page)
    assert query(page).get("lang") == [other], page.url


def changed(before: dict, after: dict) -> set[str]:
    """The keys one moved control may have changed: at most one of the experiment's."""
    diff = {k for k in before if k in after and after[k] != before[k]}
    assert len(diff) <= 1, (before, after)
    return diff


# --- uploads -------------------------------------------------------------------------------

# Pages whose first view takes a file: the selectboxes that choose it, a good file and one
# with a negative count.
UPLOAD_JOURNEYS = {
    "ldp": (("Data: the users' true answers",), "label,count\nyes,30\nno,70\n",
            "label,count\nyes,30\nno,-70\n"),
    "compare_histograms": (("Histogram A", "Histogram B"),
                           "a,b\n500,520\n300,310\n200,190\n", "a,b\n500,520\n300,-310\n"),
}


def upload_file(page, name: str, content: str) -> None:
    """Upload ``content`` as <name>.csv, as a reader drops a file: done when the uploader
    names it and the run it started has ended."""
    wait_idle(page)  # (a file that lands while a run still draws was once left without one)
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(
        {"name": f"{name}.csv", "mimeType": "text/csv", "buffer": content.encode()})
    expect(page.locator('[data-testid="stFileChipName"]')).to_have_text(f"{name}.csv")
    settled(page)


def results_from_the_file(page, name: str, code: str) -> None:
    """The view computes from the file: it is named, numbers are shown, nothing is refused,
    and a Korean view says it all in Korean."""
    from test_ui_i18n import english_sentences

    expect(page.locator('[data-testid="stFileChipName"]')).to_have_text(f"{name}.csv")
    expect(page.locator('[data-testid="stAlertContentError"]')).to_have_count(0)
    expect(page.locator('[data-testid="stMetric"]').first).to_be_visible()
    if code != "en":
        shown = page.locator('[data-testid="stMain"]').inner_text()
        assert not english_sentences(shown), english_sentences(shown)[:5]


@pytest.mark.parametrize("which", ["first", "other"])
@pytest.mark.parametrize("name", list(UPLOAD_JOURNEYS))
def test_upload_then_move_then_switch_language_then_a_bad_file(page, name, which):
    """Choose one's own file, upload it, move a control, switch the language, upload a file
    with a negative count, then the good file again: the file and its numbers stay through
    the move and the switch, the bad file gets a plain error in the language spoken, and the
    good file brings the numbers back."""
    spec = registry.by_name(name)
    code = first_language(spec)
    if which == "other":
        code = next(c for c in LANGUAGES if c != code)
    other = next(c for c in LANGUAGES if c != code)
    selects, good, bad = UPLOAD_JOURNEYS[name]
    open_page(page, f"{spec.url_path}?lang={code}", said(spec.title, code))
    settled(page)

    for label in selects:
        choose(page, said(label, code), said("Uploaded CSV file", code))
        settled(page)
    upload_file(page, "mine", good)
    results_from_the_file(page, "mine", code)

    move_a_control(page)
    results_from_the_file(page, "mine", code)

    page.locator('[data-testid="stSidebar"]').get_by_text(LANGUAGES[other], exact=True).click()
    settled(page)
    expect(page.locator("html")).to_have_attribute("lang", other)
    for label in selects:
        expect(page.get_by_role("combobox", name=said(label, other))).to_have_value(
            said("Uploaded CSV file", other))
    results_from_the_file(page, "mine", other)

    upload_file(page, "negative", bad)
    error = page.locator('[data-testid="stAlertContentError"]')
    expect(error).to_have_count(1)
    if other != "en":
        from test_ui_i18n import english_sentences

        assert not english_sentences(error.inner_text()), error.inner_text()

    upload_file(page, "mine", good)
    results_from_the_file(page, "mine", other)
