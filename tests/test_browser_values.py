"""Real-browser checks that the page shows the value in use, whole (issue 18).

- No metric value or label and no multiselect chip is cut by an ellipsis, on the views that
  showed one (every page at its defaults: test_browser.py) ("0.0017…", "Korea vs Korea (ty…"), at the browser test viewport
  and a narrow one.
- The random substitution page: a link with l = 49, then N moved to its end, shows one l
  in the l slider and in every metric, in the same run.
- The Gaussian mechanism page: a Δ left by an earlier solution (0.9999999999975212) is
  shown and used as 1, and no sentence contradicts it.
- A "Try this" experiment opens its view in one click.

The fixtures (server, browser, page) are test_browser.py's; waits are ``expect`` only.
"""

from __future__ import annotations

import re

import pytest

from browserkit import assert_nothing_cut, expect, open_page, read_metrics, thumb, wait_idle
from test_browser import browser, page, server, shared_context  # noqa: F401  (fixtures)
from ui import registry

pytestmark = pytest.mark.browser

# (page, query, title): views other than the defaults that showed cut metrics or chips (each
# page at its defaults: test_browser.py::test_every_page_opens_clean).
CUT_VIEWS = [
    ("test_calibration", "cal_tab=The+paper+at+full+scale", registry.CALIBRATION.title),
    ("compare_histograms", "cmp_alpha_a=0.001&cmp_alpha_b=10&cmp_n=1%2C000",
     registry.COMPARE.title),
    ("gaussian", "gauss_solve=%CE%B5&gauss_sigma=0.01&gauss_sens=1000", registry.GAUSSIAN.title),
]


@pytest.mark.parametrize("path,query,title", CUT_VIEWS,
                         ids=[f"{p}?{q}" if q else p for p, q, _ in CUT_VIEWS])
def test_no_metric_or_chip_is_cut(page, path, query, title):
    """At the browser tests' viewport, then a narrow one (columns side by side, narrower)."""
    open_page(page, f"{path}?{query}" if query else path, title)
    assert_nothing_cut(page)


def test_substitution_l_follows_a_smaller_n_in_one_run(page):
    """Issue 18: /substitution?rs_gamma=1,000&rs_l=49, then N to its end (200): the l
    slider showed 1 while the metrics said ε_l (l = 49) and n·l = 245,000."""
    open_page(page, "substitution?rs_gamma=1%2C000&rs_l=49",
              registry.SUBSTITUTION.title)
    wait_idle(page)
    n_thumb = page.locator('[data-testid="stSlider"]').filter(
        has_text=re.compile(r"Categories")).get_by_role("slider")
    n_thumb.focus()
    page.keyboard.press("End")
    expect(n_thumb).to_have_attribute("aria-valuetext", "200")
    wait_idle(page)
    l_thumb = page.locator('[data-testid="stSlider"]').filter(
        has_text=re.compile(r"Values per record")).get_by_role("slider")
    l_shown = int(l_thumb.get_attribute("aria-valuetext"))
    metrics = read_metrics(page)
    [eps_label] = [k for k in metrics if k.startswith("ε_l")]
    assert eps_label == f"ε_l (l = {l_shown})", (eps_label, l_shown)
    [records, draws_label] = [(k, v) for k, v in metrics.items() if "·l" in k][0]
    n_records = int(read_metrics(page)[next(k for k in metrics if k.startswith("Records"))]
                    .replace(",", ""))
    assert int(draws_label.replace(",", "")) == n_records * l_shown, (records, metrics)


def test_gaussian_sensitivity_from_an_old_solution_is_one_and_said_once(page):
    """Issue 18: a link with Δ = 0.9999999999975212 said "This query's sensitivity is
    Δ = 1, not the Δ = 1 set above" and "(0, 1.0·10⁻⁵)-DP"."""
    open_page(page, "gaussian?gauss_sens=0.9999999999975212&gauss_tab=Release+a+statistic",
              registry.GAUSSIAN.title)
    wait_idle(page)
    body = page.locator('[data-testid="stMain"]').inner_text()
    assert "not the Δ = 1 set above" not in body
    assert "(0, " not in body
    expect(page.get_by_role("spinbutton", name="exact Δ", exact=True)).to_have_value("1")


def test_a_try_this_experiment_opens_in_one_click(page):
    """The compare page's first experiment, clicked from a view with other settings: the
    page opens at the experiment's values, the rest at defaults, and names it."""
    from ui.pages.compare_histograms import EXPERIMENTS

    first = EXPERIMENTS[0]
    open_page(page, "compare_histograms?cmp_boot=200", registry.COMPARE.title)
    wait_idle(page)
    page.get_by_text("Try this").click()
    page.get_by_role("link", name=first.title).click()
    expect(page.locator('[data-testid="stAlert"]').filter(has_text=first.title)).to_be_visible()
    wait_idle(page)
    assert "try=" not in page.url and "cmp_boot=" not in page.url  # back to its default
    for key, value in first.query.items():
        assert re.search(rf"[?&]{key}=", page.url) or value in ("", None), (key, page.url)
