"""AppTest tests of the page "Class histogram with a privacy budget" (views/class_histogram.py,
issue 37, activity 3): the teacher's setup makes an activity and the teacher's view (the key
never in the address nor on the screen), a student sends a value and it counts, the teacher
releases until the budget is spent and the next release is refused with nothing recorded,
the raw counts never reach the teacher's screen, two groups are compared with a test and a
p-value, closing deletes the raw values, and every refusal is a plain error: a closed or
expired activity, a double submit, an out-of-range value, an unreachable database, bad
settings and hostile text.

Every test runs on its own SQLite class database in a temporary folder (never .data/).
"""

from __future__ import annotations

import json
import re
from types import SimpleNamespace

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from classkit import (HOSTILE, code_of, cookies, database_down, every_text,  # noqa: F401
                      new_activity, page_texts, press, refused_start, store, student_page,
                      submit_setup, teacher_cookies, trace_values)
from conftest import open_page, run
from dpclass import activities, storage
from dpcore import homogeneity
from pagekit import errors, kit, markdown_text, metrics
from ui import classroom, registry
from ui.pages import class_histogram as page
from ui.text import esc

SCRIPT = registry.CLASS_HISTOGRAM.script
TITLE = "Class histogram with a privacy budget"
OVER_BUDGET = "would spend more than the activity's total privacy budget: it was not made"


# --- helpers ---------------------------------------------------------------------------------

def shown(at: AppTest) -> str:
    """The texts a reader reads (messages, Markdown, captions, metrics, subheaders)."""
    texts = page_texts(at)
    texts += [f"{m.label} {m.value}" for m in at.metric]
    texts += [p.proto.text for p in at.get("progress")]
    return "\n".join(texts)


def teacher_page(question: str = "Hours you slept last night", bins: str = "<5\n5-7\n7+",
                 groups: str = "Section A\nSection B", budget: float = 2.0,
                 query: dict[str, str] | None = None) -> AppTest:
    """The setup filled in and submitted: the teacher's view of a new activity."""
    return submit_setup(SCRIPT, TITLE, "Start", {
        "class_hist_question": ("text_area", question),
        "class_hist_bins": ("text_area", bins),
        "class_hist_groups": ("text_area", groups),
        "class_hist_budget": ("select_slider", budget)}, query)


def key_of(at: AppTest, code: str) -> str:
    """The teacher key this session holds (never shown; in the session state only)."""
    return at.session_state[classroom._TEACHER_KEYS][code]


def fill(store: storage.Store, code: str, counts) -> None:
    """Students' values making the raw counts ``counts`` (groups × bins)."""
    for g, row in enumerate(np.atleast_2d(counts)):
        for j, n in enumerate(row):
            for i in range(int(n)):
                store.submit_value(code, f"student-{g}-{j}-{i}", group=g, value=j)


def release(at: AppTest, alpha: float) -> AppTest:
    at.select_slider(key="class_hist_alpha").set_value(alpha)
    at.button(key="class_hist_release_button").click()
    return run(at)


def send(at: AppTest, value: int, group: int | None = None) -> AppTest:
    if group is not None:
        at.radio(key="class_hist_group").set_value(group)
    at.radio(key="class_hist_value").set_value(value)
    return press(at, "Send")


def radios(at: AppTest) -> list:
    """The page's radios (not the app's language control)."""
    return [r for r in at.get("radio") if (r.key or "").startswith("class_hist")]


def charts(at: AppTest, key: str) -> list[dict]:
    return [json.loads(c.proto.spec) for c in at.get("plotly_chart") if key in c.proto.id]


def progress_text(at: AppTest) -> str:
    [bar] = at.get("progress")
    return bar.proto.text


def config(groups=("Section A", "Section B"), budget: float = 2.0, bins=("<5", "5-7", "7+"),
           question: str = "Hours?") -> dict:
    return activities.histogram_config(question, list(bins), list(groups), budget)


# --- the teacher's setup ---------------------------------------------------------------------

def test_the_setup_makes_an_activity_and_opens_its_teachers_view(store):
    at = open_page(SCRIPT, TITLE)
    assert at.text_area(key="class_hist_question").value == "Hours you slept last night"
    assert at.text_area(key="class_hist_groups").value == "The whole class"  # one group
    assert classroom.CODE_PARAM not in at.query_params
    for widget in (at.text_area(key="class_hist_question"), at.text_area(key="class_hist_bins"),
                   at.text_area(key="class_hist_groups"),
                   at.select_slider(key="class_hist_budget")):
        assert widget.help
    at = teacher_page(budget=2.0)
    # the join code is shown; the key nowhere, nor in the address, but in this browser's cookie
    activity, _key = new_activity(at, store, "histogram")
    assert activity.config == {"question": "Hours you slept last night",
                               "bins": ["<5", "5-7", "7+"],
                               "groups": ["Section A", "Section B"], "budget": 2.0}
    assert any(s.value == "Hours you slept last night" for s in at.subheader)
    assert metrics(at)["Values received"] == "0"
    assert progress_text(at) == "Spent α = 0 of the budget 2: 2 left"
    assert any("No release yet" in i.value for i in at.info)
    assert at.sidebar.button(key="class_close") is not None
    assert kit(at).code_builder is None
    assert "class database" in kit(at).code_problem and "no code" in kit(at).code_problem


@pytest.mark.parametrize(("bins", "groups", "fragment"), [
    ("only one", "A", "bins must have 2 to 20 entries"),
    ("\n".join(f"b{i}" for i in range(21)), "A", "bins must have 2 to 20 entries"),
    ("a\nb\na", "A", "bins must all differ"),
    ("a\nb", "\n".join("ABCDE"), "groups must have 1 to 4 entries"),
    ("a\nb", " \n ", "groups must have 1 to 4 entries"),
])
def test_bad_settings_are_named_and_nothing_is_made(store, bins, groups, fragment):
    at = submit_setup(SCRIPT, TITLE, "Start", {"class_hist_bins": ("text_area", bins),
                                               "class_hist_groups": ("text_area", groups)})
    message = refused_start(at, store)
    assert fragment in message, message


# --- students --------------------------------------------------------------------------------

def test_the_teachers_next_visit_opens_the_teachers_view_from_the_cookie(store, cookies):
    activity, key = store.create("histogram", config())
    cookies[classroom.TEACHER_COOKIE + activity.code] = key
    at = student_page(SCRIPT, activity.code)  # a new session of the teacher's browser
    assert at.sidebar.button(key="class_close") is not None
    assert not radios(at)
    assert teacher_cookies(at, activity.code) == []  # already there: not written again
    assert key not in every_text(at)


def test_a_students_value_is_sent_once_and_counts(store):
    activity, key = store.create("histogram", config())
    at = student_page(SCRIPT, activity.code, token="tok-1")
    assert at.subheader[0].value == "Hours?"
    assert [o for o in at.radio(key="class_hist_group").options] == ["Section A", "Section B"]
    assert at.radio(key="class_hist_value").options == [esc(b) for b in ("<5", "5-7", "7+")]
    assert at.radio(key="class_hist_value").value is None  # nothing chosen for them
    assert not at.columns  # nothing side by side on a phone
    assert not at.sidebar.get("button")  # no teacher's tools
    send(at, value=2, group=1)
    assert store.histogram_counts(activity.code, key).tolist() == [[0, 0, 0], [0, 0, 1]]
    assert store.has_answered(activity.code, "tok-1")
    [success] = at.success
    assert success.value == "Sent: «7\\+», in «Section B»."
    assert any("only until the teacher closes the activity" in c.value for c in at.caption)
    assert any("only noisy releases" in c.value for c in at.caption)
    assert not radios(at)
    # the teacher's screen counts it
    teacher = student_page(SCRIPT, activity.code)
    teacher.session_state[classroom._TEACHER_KEYS] = {activity.code: key}
    run(teacher)
    assert metrics(teacher)["Values received"] == "1"
    # the same browser coming back: already answered, the first value kept
    again = student_page(SCRIPT, activity.code, token="tok-1")
    assert not radios(again)
    assert any("already answered: your first answer is kept" in i.value for i in again.info)


def test_a_send_without_a_choice_asks_for_one_and_sends_nothing(store):
    activity, key = store.create("histogram", config(groups=["Everyone"]))
    at = student_page(SCRIPT, activity.code, token="tok")
    assert not at.radio(key="class_hist_value").label == "Your group"
    assert len(radios(at)) == 1  # one group: no group to choose
    press(at, "Send")
    assert any("Choose your answer first" in w.value for w in at.warning)
    assert store.count(activity.code) == 0
    send(at, value=0)
    assert store.histogram_counts(activity.code, key).tolist() == [[1, 0, 0]]
    assert at.success[0].value == "Sent: «\\<5»."


def test_a_double_submit_is_refused_in_plain_words(store, monkeypatch):
    activity, key = store.create("histogram", config())
    at = student_page(SCRIPT, activity.code, token="tok")
    store.submit_value(activity.code, "tok", group=0, value=1)  # from another tab
    monkeypatch.setattr(storage.Store, "has_answered", lambda self, code, token: False)
    send(at, value=2, group=1)
    [message] = errors(at)
    assert "already answered: your first answer is kept" in message
    assert not at.success
    assert store.histogram_counts(activity.code, key).tolist() == [[0, 1, 0], [0, 0, 0]]


def test_an_out_of_range_value_is_refused_by_the_store_in_plain_words(store, monkeypatch):
    activity, key = store.create("histogram", config())
    with pytest.raises(ValueError, match="`value` must be an integer from 0 to 2"):
        store.submit_value(activity.code, "tok", group=0, value=3)
    with pytest.raises(ValueError, match="`group` must be an integer from 0 to 1"):
        store.submit_value(activity.code, "tok", group=2, value=0)
    original = storage.Store.submit_value
    # a browser that sends a value the radio never offered
    monkeypatch.setattr(storage.Store, "submit_value", lambda self, code, student, *, group,
                        value: original(self, code, student, group=group, value=value + 3))
    at = student_page(SCRIPT, activity.code, token="tok")
    send(at, value=1, group=0)
    [message] = errors(at)
    assert "not accepted" in message and "value" in message and "from 0 to 2, got 4" in message
    assert not at.success and store.count(activity.code) == 0


def test_an_unreachable_database_saves_nothing_and_the_value_can_be_sent_again(
        store, monkeypatch):
    activity, key = store.create("histogram", config())
    at = student_page(SCRIPT, activity.code, token="tok")
    with monkeypatch.context() as patch:
        patch.setattr(storage.Store, "submit_value", database_down)
        send(at, value=0, group=0)
    [message] = errors(at)
    assert "cannot be reached" in message and "try again" in message
    assert store.count(activity.code) == 0
    assert at.radio(key="class_hist_value").value == 0  # the choice is still there
    press(at, "Send")
    assert store.histogram_counts(activity.code, key).tolist() == [[1, 0, 0], [0, 0, 0]]
    assert "Sent:" in at.success[0].value


def test_a_wrong_code_a_closed_and_an_expired_activity_are_plain_errors(store, monkeypatch):
    at = student_page(SCRIPT, "ZZZZ-ZZZZ")
    assert "There is no activity with this code" in " ".join(errors(at))
    assert not radios(at)
    activity, key = store.create("histogram", config())
    store.close(activity.code, key)
    at = student_page(SCRIPT, activity.code)
    [message] = errors(at)
    assert "closed this activity" in message and not radios(at)
    other, _key = store.create("histogram", config())
    monkeypatch.setattr(store, "clock", lambda: other.expires_at + 1)
    at = student_page(SCRIPT, other.code)
    [message] = errors(at)
    assert "time is up" in message and not radios(at)


def test_shared_releases_reach_the_students_screen(store):
    activity, key = store.create("histogram", config())
    noisy = np.array([[1.5, 4.25, 0.0], [2.0, 0.0, 6.5]])
    store.release(activity.code, key, 0.5, lambda counts, alpha: noisy)
    at = student_page(SCRIPT, activity.code, token="tok")
    assert not at.get("plotly_chart")
    assert any("teacher will show the class's releases here" in i.value for i in at.info)
    store.share(activity.code, key, True)
    run(at)
    [spec] = charts(at, "class_hist_fig_release_student")
    assert [trace["orientation"] for trace in spec["data"]] == ["h", "h"]  # a phone
    for trace, row in zip(spec["data"], noisy):
        np.testing.assert_allclose(trace_values(trace["x"]), row)
    assert progress_text(at) == "Spent α = 0.5 of the budget 2: 1.5 left"
    assert at.radio(key="class_hist_value") is not None  # they can still send
    assert not at.columns
    assert [name for name, _f in kit(at).figures] == [page.RELEASE_NAME]


def test_a_fragments_rerun_replaces_its_report_entries():
    the_kit = SimpleNamespace(
        figures=[("Another chart", 1), (page.RELEASE_NAME, 2), (page.BUDGET_NAME, 3)],
        findings=["a finding of the page", "Release 1 at α = 0.5: …"])
    page.forget(the_kit, ["Release 1 at α = 0.5: …"])
    assert the_kit.figures == [("Another chart", 1)]
    assert the_kit.findings == ["a finding of the page"]


# --- the teacher's releases and the budget ---------------------------------------------------

def test_releases_spend_the_budget_and_one_past_it_is_refused_with_nothing_recorded(store):
    at = teacher_page(budget=1.0)
    code = code_of(at)
    fill(store, code, [[2, 3, 1], [1, 0, 4]])
    run(at)
    assert metrics(at)["Values received"] == "11"
    caption = " ".join(c.value for c in at.caption)
    assert "costs α once" in caption and "parallel composition" in caption
    assert "sequential composition" in caption
    release(at, 0.5)
    assert any("Released at α = 0.5" in s.value for s in at.success)
    assert progress_text(at) == "Spent α = 0.5 of the budget 1: 0.5 left"
    release(at, 0.5)
    assert progress_text(at) == "Spent α = 1 of the budget 1: 0 left"
    assert any("whole budget is spent" in i.value for i in at.info)
    # the next one: refused in plain words, nothing recorded, the meter unchanged
    at.select_slider(key="class_hist_alpha").set_value(0.1)
    run(at)
    assert any("more than is left (0): this release would be refused" in c.value
               for c in at.caption)
    at.button(key="class_hist_release_button").click()
    run(at)
    [message] = errors(at)
    assert OVER_BUDGET in message and "Traceback" not in message
    stored = store.releases(code)
    assert [a for a, _counts in stored] == [0.5, 0.5]
    assert progress_text(at) == "Spent α = 1 of the budget 1: 0 left"
    numbers = kit(at).numbers
    assert numbers["Budget spent α"] == pytest.approx(sum(a for a, _c in stored))
    assert numbers["Budget left α"] == pytest.approx(1.0 - sum(a for a, _c in stored))
    # each release's α is a segment of the budget chart
    [budget] = charts(at, "class_hist_fig_budget")
    assert [trace_values(tr["x"])[0] for tr in budget["data"]] == [0.5, 0.5, 0.0]
    # the chooser shows the latest first; every release can be shown
    chooser = at.selectbox(key="class_hist_release_2")  # keyed by the number of releases
    assert chooser.value == 2 and chooser.options[0].endswith("(the latest)")
    for k, (alpha, noisy) in zip((2, 1), reversed(stored)):
        chooser = at.selectbox(key="class_hist_release_2").set_value(k)
        run(at)
        [spec] = charts(at, "class_hist_fig_release")
        for trace, row in zip(spec["data"], noisy):
            np.testing.assert_allclose(trace_values(trace["y"]), row)
    assert kit(at).findings.count(page.meter_finding(page.meter(stored, 1.0))) == 1


def test_a_release_larger_than_what_is_left_is_refused_before_the_budget_is_spent(store):
    at = teacher_page(budget=1.0)
    release(at, 0.63)
    [message] = errors(release(at, 0.5))
    assert OVER_BUDGET in message
    assert [a for a, _c in store.releases(code_of(at))] == [0.63]
    assert progress_text(at) == "Spent α = 0.63 of the budget 1: 0.37 left"


def test_a_release_while_the_database_is_unreachable_is_a_plain_error(store, monkeypatch):
    at = teacher_page(budget=2.0)
    with monkeypatch.context() as patch:
        patch.setattr(storage.Store, "release", database_down)
        release(at, 0.5)
    [message] = errors(at)
    assert "cannot be reached" in message and "Nothing was saved" in message
    assert store.releases(code_of(at)) == []
    assert progress_text(at) == "Spent α = 0 of the budget 2: 2 left"


def test_the_raw_counts_never_reach_the_teachers_screen(store, monkeypatch):
    """The teacher's page never reads the raw counts (the store draws the release from them
    inside its transaction): reading them fails here, and no number shown, no chart and no
    report entry is the raw count vector of a group."""
    monkeypatch.setattr(storage.Store, "histogram_counts", lambda *a, **k: pytest.fail(
        "the page read the raw counts"))
    at = teacher_page(bins="a\nb\nc", budget=2.0)
    code = code_of(at)
    raw = np.array([[7, 13, 4], [9, 2, 11]])
    fill(store, code, raw)
    release(at, 1.0)
    release(at, 0.5)
    specs = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    assert specs
    for spec in specs:
        for trace in spec["data"]:
            for axis in ("x", "y"):
                values = trace.get(axis)
                if values is None or trace.get("orientation", "v") == "h" and axis == "y" \
                        or trace.get("orientation", "v") == "v" and axis == "x":
                    continue  # the bins' labels
                numbers = trace_values(values)
                assert not any(numbers.shape == row.shape and np.array_equal(numbers, row)
                               for row in raw)
    text = shown(at) + "\n".join(kit(at).findings)
    for row in raw:  # as a list of whole numbers, in any of the ways a page writes them
        for sep in (", ", " ", " | "):
            assert sep.join(str(v) for v in row) not in text
    assert not any(isinstance(v, np.ndarray) and any(np.array_equal(v, row) for row in raw)
                   for v in kit(at).numbers.values())
    assert metrics(at)["Values received"] == f"{raw.sum()}"  # only how many
    key = key_of(at, code)
    assert key not in every_text(at) and key not in json.dumps(dict(at.query_params))


def test_two_groups_are_compared_with_a_named_test_and_a_p_value(store):
    at = teacher_page(bins="a\nb\nc", budget=2.0)
    code = code_of(at)
    key = key_of(at, code)
    noisy = np.array([[30.2, 11.7, 4.1], [3.3, 12.9, 28.4]])
    store.release(code, key, 1.0, lambda counts, alpha: noisy)
    run(at)
    test = homogeneity.parametric_bootstrap_test(noisy[0], noisy[1], 1.0, 1.0,
                                                 n_boot=page.N_BOOT,
                                                 rng=page.comparison_seed(1, 0, 1))
    [verdict] = [m.value for m in (*at.success, *at.warning) if "5% significance" in m.value]
    assert "the parametric bootstrap test (Algorithm 1 of Son, Park & Jung 2022)" in verdict
    assert "«Section A» and «Section B»" in verdict
    assert ("**finds**" in verdict) == (test.pvalue < 0.05)
    p = metrics(at)["p-value"]
    assert 0 < test.pvalue and p in (f"< {1 / (page.N_BOOT + 1):.2g}", f"{test.pvalue:.3g}")
    assert kit(at).numbers["p-value"] == test.pvalue > 0
    assert any("Algorithm 1 keeps its significance level" in c.value for c in at.caption)
    assert any("standard deviation 2.83 at α = 1" in c.value for c in at.caption)


def test_a_group_that_is_all_noise_is_compared_with_the_calibrated_test(store):
    activity, key = store.create("histogram", config(groups=["A", "B", "C"]))
    noisy = np.array([[0.3, 0.0, 0.8], [14.0, 20.5, 9.0], [2.0, 0.0, 1.0]])
    store.release(activity.code, key, 0.5, lambda counts, alpha: noisy)
    at = student_page(SCRIPT, activity.code)
    at.session_state[classroom._TEACHER_KEYS] = {activity.code: key}
    run(at)
    # three groups: the first two by default
    assert at.selectbox(key="class_hist_cmp_a").value == 0
    assert at.selectbox(key="class_hist_cmp_b").value == 1
    [verdict] = [m.value for m in (*at.success, *at.warning) if "5% significance" in m.value]
    assert "the calibrated normal-score test" in verdict and "«A» and «B»" in verdict
    test = homogeneity.calibrated_test(noisy[0], noisy[1], 0.5, 0.5, n_boot=page.N_BOOT,
                                       rng=page.comparison_seed(1, 0, 1))
    assert kit(at).numbers["p-value"] == test.pvalue > 0
    assert any("Algorithm 1 cannot be run" in c.value and "«A»" in c.value for c in at.caption)
    at.selectbox(key="class_hist_cmp_a").set_value(1)
    run(at)
    assert any("Choose two different groups" in i.value for i in at.info)
    at.selectbox(key="class_hist_cmp_b").set_value(2)
    run(at)
    [verdict] = [m.value for m in (*at.success, *at.warning) if "5% significance" in m.value]
    assert "«B» and «C»" in verdict


def test_one_group_has_no_comparison(store):
    at = teacher_page(groups="Everyone")
    release(at, 0.5)
    assert not any("Compare two groups" == s.value for s in at.subheader)
    assert "p-value" not in metrics(at)
    assert not any("parallel composition" in c.value for c in at.caption)


# --- closing, presenting, hostile text -------------------------------------------------------

def test_closing_deletes_the_raw_values_and_keeps_the_releases(store):
    at = teacher_page(budget=2.0)
    code = code_of(at)
    fill(store, code, [[1, 2, 0], [0, 1, 3]])
    release(at, 0.5)
    close = at.sidebar.button(key="class_close")
    assert "deletes the raw values" in close.help
    assert store.table_counts()["histogram_values"] == 7
    close.click()
    run(at)
    assert store.get(code).closed
    assert store.table_counts()["histogram_values"] == 0
    assert store.table_counts()["histogram_releases"] == 1
    assert any("raw values are deleted" in i.value for i in at.info)
    assert not [b for b in at.button if b.key == "class_hist_release_button"]
    assert "Values received" not in metrics(at)
    assert len(charts(at, "class_hist_fig_release")) == 1
    assert progress_text(at) == "Spent α = 0.5 of the budget 2: 1.5 left"
    assert "closed this activity" in errors(student_page(SCRIPT, code))[0]


def test_the_teachers_view_presents_on_a_projector(store):
    at = teacher_page(query={"present": "1"})
    code = code_of(at)
    fill(store, code, [[3, 1, 2], [2, 2, 1]])
    release(at, 1.0)
    run(at)  # a rerun: the report still holds each chart once
    assert at.query_params["present"] in ("1", ["1"])
    assert activities.shown_code(code) in markdown_text(at)
    [spec] = charts(at, "class_hist_fig_release")
    [(_name, fig)] = [(n, f) for n, f in kit(at).figures if n == page.RELEASE_NAME]
    assert spec["layout"]["height"] == 300 and fig.layout.height == 400  # in the lead
    names = [n for n, _f in kit(at).figures]
    assert names.count(page.RELEASE_NAME) == 1 and names.count(page.BUDGET_NAME) == 1
    assert not [d for d in at.get("download_button") if "class_hist" in (d.key or "")]


def test_hostile_text_is_shown_inert(store):
    bins = ["<b>few</b>", "[many](https://evil.example)", "**all**"]
    groups = ["<i>A</i>", "`B`"]
    activity, key = store.create("histogram", activities.histogram_config(
        HOSTILE, bins, groups, 2.0))
    store.release(activity.code, key, 1.0, lambda counts, alpha: np.full((2, 3), 5.5))
    store.share(activity.code, key, True)
    at = student_page(SCRIPT, activity.code, token="tok")
    assert at.subheader[0].value == esc(HOSTILE)
    assert at.radio(key="class_hist_value").options == [esc(b) for b in bins]
    assert at.radio(key="class_hist_group").options == [esc(g) for g in groups]
    send(at, value=1, group=0)
    assert at.success[0].value == f"Sent: «{esc(bins[1])}», in «{esc(groups[0])}»."
    [spec] = charts(at, "class_hist_fig_release_student")
    assert spec["data"][0]["y"][0] == "&lt;b&gt;few&lt;/b&gt;"
    assert spec["data"][0]["name"] == "&lt;i&gt;A&lt;/i&gt;"
    # the teacher's view: the question, the verdict's group names
    at.session_state[classroom._TEACHER_KEYS] = {activity.code: key}
    run(at)
    assert esc(HOSTILE) in [s.value for s in at.subheader]
    texts = page_texts(at)
    unescaped = re.compile(r"(?<!\\)[<\[*`$#]")
    assert not [v for v in texts if ("script" in v or "<i>" in v) and unescaped.search(
        v.replace(esc(HOSTILE), "").replace(esc(groups[0]), "").replace(esc(groups[1]), "")
        .replace("**finds**", "").replace("**does not find**", ""))]
    [verdict] = [m.value for m in (*at.success, *at.warning) if "5% significance" in m.value]
    assert f"«{esc(groups[0])}» and «{esc(groups[1])}»" in verdict
