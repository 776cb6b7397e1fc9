"""ui.device without a browser: the draw (reported_for, the Python twin of the browser's
reportedFor) has exactly k-RR's distribution, the arguments are checked, the browser is given
only what it needs, and a report is taken once. tests/test_browser_device.py drives the
components in Chromium."""

from __future__ import annotations

import json
import math
import re

import pytest
from streamlit.proto.WidgetStates_pb2 import WidgetStates
from streamlit.testing.v1 import AppTest

from conftest import REPO_ROOT
from dpcore.ldp import krr_probabilities
from ui import device
from ui.device import reported_for

TWO_32 = 2**32
EPSILONS = (0.01, 0.1, 0.5, 1.0, math.log(3), 2.0, 5.0, 10.0)


def draws_for(t: int, p: float, q: float, k: int) -> list[int]:
    """How many of the 2³² draws x (u = x/2³²) make the report 0, …, k − 1 for the true
    answer t. reported_for is non-decreasing in u, so each report is one run of draws,
    found by bisection: the first draw whose report exceeds j."""
    def first_above(j: int) -> int:
        lo, hi = 0, TWO_32  # the answer is in [lo, hi]
        while lo < hi:
            mid = (lo + hi) // 2
            if reported_for(t, mid / TWO_32, p, q, k) > j:
                hi = mid
            else:
                lo = mid + 1
        return lo
    ends = [first_above(j) for j in range(k)]
    return [end - start for start, end in zip([0, *ends], ends)]


@pytest.mark.parametrize("k", range(2, 11))
@pytest.mark.parametrize("eps", EPSILONS)
def test_the_draw_reports_the_truth_with_p_and_each_other_answer_with_q(k, eps):
    """Over the browser's 2³² equally likely draws, the true answer is reported for p·2³²
    of them and each other answer for q·2³², to the draw (a cut falls between two draws):
    the distribution is k-RR's, P(j = t) = p, P(j = i) = q, exactly up to 2⁻³²."""
    p, q = krr_probabilities(eps, k)
    for t in range(k):
        counts = draws_for(t, p, q, k)
        assert sum(counts) == TWO_32
        for j, count in enumerate(counts):
            want = (p if j == t else q) * TWO_32
            assert abs(count - want) <= 1, (t, j, count, want)


@pytest.mark.parametrize("k", [2, 3, 10])
def test_the_draw_is_non_decreasing_in_u_and_covers_every_answer(k):
    p, q = krr_probabilities(1.0, k)
    us = [x / 997 for x in range(997)] + [(TWO_32 - 1) / TWO_32]
    for t in range(k):
        reports = [reported_for(t, u, p, q, k) for u in us]
        assert reports == sorted(reports)
        assert reports[0] == 0 and reports[-1] == k - 1
        assert set(reports) == set(range(k))


def test_the_draw_at_known_values():
    p, q = 0.75, 0.25  # k = 2, ε = ln 3
    assert [reported_for(0, u, p, q, 2) for u in (0, 0.5, 0.7499, 0.75, 0.99)] == [0, 0, 0, 1, 1]
    assert [reported_for(1, u, p, q, 2) for u in (0, 0.2499, 0.25, 0.99)] == [0, 0, 1, 1]
    p, q = 0.4, 0.2  # k = 4: for t = 2 the cuts are at 0.2, 0.4, 0.8
    assert [reported_for(2, u, p, q, 4) for u in (0.1, 0.3, 0.5, 0.79, 0.81)] == [0, 1, 2, 2, 3]
    # a sum that rounding leaves a hair below 1: the last answer
    assert reported_for(0, 1 - 1e-17, 0.5, 0.5 - 1e-16, 2) == 1


def test_the_javascript_draw_is_the_python_one_line_for_line():
    """The twin functions side by side (the browser test runs the JavaScript one)."""
    js = (REPO_ROOT / "ui/static/device.js").read_text(encoding="utf-8")
    body = re.search(r"export function reportedFor\(t, u, p, q, k\) \{(.*?)\n\}", js, re.S)
    assert body, "reportedFor is gone from ui/static/device.js"
    code = [line.split("//")[0].strip() for line in body.group(1).splitlines()]
    assert [line for line in code if line] == [
        "let acc = 0;", "for (let j = 0; j < k; j++) {", "acc += j === t ? p : q;",
        "if (u < acc) return j;", "}", "return k - 1;"]
    assert "crypto.getRandomValues(new Uint32Array(1))[0] / 4294967296" in js


def test_the_javascript_sends_the_report_alone_and_nothing_else():
    """What can leave the browser from device.js: one trigger value, the report. No state
    value, no log, no address, no storage, no request."""
    js = (REPO_ROOT / "ui/static/device.js").read_text(encoding="utf-8")
    assert js.count("setTriggerValue(") == 2  # destructured once, called once
    assert 'setTriggerValue("reported", reportedFor(' in js
    for word in ("setStateValue", "console", "history", "location.href", "location.search",
                 "localStorage", "sessionStorage", "fetch(", "XMLHttpRequest", "sendBeacon",
                 "WebSocket", "innerHTML", "import("):
        assert word not in js, word
    # the only cookie written is the cookie component's
    assert js.count("document.cookie") == 1


# --- argument checks ---------------------------------------------------------------------

@pytest.mark.parametrize(("labels", "why"), [
    ([], "2 to 10 answers, not 0"),
    (["only"], "2 to 10 answers, not 1"),
    ([f"a{i}" for i in range(11)], "2 to 10 answers, not 11"),
    (["yes", 2], "non-empty text"),
    (["yes", b"no"], "non-empty text"),
    (["yes", "  "], "non-empty text"),
    (["yes", None], "non-empty text"),
    (["yes", "yes"], "distinct"),
    ("yes", "a list of answers"),
    (None, "a list of answers"),
    ({"yes", "no"}, "a list of answers"),
])
def test_bad_labels_are_refused_by_name(labels, why):
    with pytest.raises(ValueError, match=rf"^labels: .*{re.escape(why)}"):
        device.krr_answer(labels, 0.5, 0.5, key="poll")


@pytest.mark.parametrize(("p", "q", "name"), [
    (0.6, 0.3, "p and q"),          # sums to 0.9
    (0.5, 0.5, "p and q"),          # k = 3: sums to 1.5
    (1.0, 0.0, "q"),                # no randomization: the truth would be sent
    (0.2, 0.4, "p"),                # the truth less likely than another answer
    (-0.5, 0.75, "p"),
    (1.5, -0.25, "p"),
    (math.nan, 0.25, "p"),
    (0.5, math.inf, "q"),
    (True, 0.25, "p"),
    ("0.5", 0.25, "p"),
    (0.5, None, "q"),
])
def test_p_and_q_that_are_not_krr_are_refused_by_name(p, q, name):
    with pytest.raises(ValueError, match=rf"^{re.escape(name)}: "):
        device.krr_answer(["A", "B", "C"], p, q, key="poll")


@pytest.mark.parametrize("k", range(2, 11))
@pytest.mark.parametrize("eps", EPSILONS)
def test_krr_probabilities_are_accepted(k, eps):
    p, q = krr_probabilities(eps, k)
    assert device._check_probabilities(p, q, k) == (p, q)


@pytest.mark.parametrize(("kwargs", "name"), [
    ({"sent": 3}, "sent"), ({"sent": -1}, "sent"), ({"sent": True}, "sent"),
    ({"sent": 1.0}, "sent"), ({"key": ""}, "key"), ({"key": 3}, "key"),
    ({"question": 3}, "question"),
])
def test_other_bad_arguments_are_refused_by_name(kwargs, name):
    with pytest.raises(ValueError, match=rf"^{name}: "):
        device.krr_answer(["A", "B", "C"], 0.5, 0.25, **{"key": "poll", **kwargs})


@pytest.mark.parametrize(("call", "name"), [
    (lambda: device.set_cookie("", "v", max_age_s=60, key="c"), "name"),
    (lambda: device.set_cookie("_streamlit_xsrf", "v", max_age_s=60, key="c"), "name"),
    (lambda: device.set_cookie("__Host-x", "v", max_age_s=60, key="c"), "name"),
    (lambda: device.set_cookie("a;b", "v", max_age_s=60, key="c"), "name"),
    (lambda: device.set_cookie("a b", "v", max_age_s=60, key="c"), "name"),
    (lambda: device.set_cookie("x" * 65, "v", max_age_s=60, key="c"), "name"),
    (lambda: device.set_cookie("tok", "a;b", max_age_s=60, key="c"), "value"),
    (lambda: device.set_cookie("tok", "a b", max_age_s=60, key="c"), "value"),
    (lambda: device.set_cookie("tok", "é", max_age_s=60, key="c"), "value"),
    (lambda: device.set_cookie("tok", "v" * 1025, max_age_s=60, key="c"), "value"),
    (lambda: device.set_cookie("tok", 5, max_age_s=60, key="c"), "value"),
    (lambda: device.set_cookie("tok", "v", max_age_s=0, key="c"), "max_age_s"),
    (lambda: device.set_cookie("tok", "v", max_age_s=1.5, key="c"), "max_age_s"),
    (lambda: device.set_cookie("tok", "v", max_age_s=True, key="c"), "max_age_s"),
    (lambda: device.set_cookie("tok", "v", max_age_s=401 * 86400, key="c"), "max_age_s"),
    (lambda: device.set_cookie("tok", "v", max_age_s=60, key=""), "key"),
    (lambda: device.forget_cookie("a=b", key="c"), "name"),
    (lambda: device.forget_cookie("tok", key=None), "key"),
])
def test_bad_cookies_are_refused_by_name(call, name):
    with pytest.raises(ValueError, match=rf"^{name}: "):
        call()


# --- in a script run (AppTest): what the browser is given, and one report per key --------

def _poll_app():
    import streamlit as st

    from ui.device import krr_answer

    sent = st.session_state.get("sent_before")
    j = krr_answer(["Yes", "No", "Maybe"], 0.5, 0.25, key="poll", sent=sent, question="Q?")
    st.session_state.returned = j


def _component(at):
    [element] = at.get("bidi_component")
    return element.proto


def _tap(at, value):
    """A run like the one the browser asks for when device.js reports ``value``: only the
    component's trigger, as Chromium sends it (tests/test_browser_device.py records it)."""
    states = WidgetStates()
    state = states.widgets.add()
    state.id = f"$$STREAMLIT_INTERNAL_KEY_{_component(at).id}__events"
    state.json_trigger_value = json.dumps([{"event": "reported", "value": value}])
    return at._run(states)


def test_the_browser_is_given_the_answers_p_q_and_nothing_more():
    at = AppTest.from_function(_poll_app).run()
    assert not at.exception
    proto = _component(at)
    assert json.loads(proto.json) == {"labels": ["Yes", "No", "Maybe"], "p": 0.5, "q": 0.25,
                                      "sent": None, "question": "Q?"}
    assert proto.component_name == "device_krr" and proto.isolate_styles
    assert proto.js_content == (REPO_ROOT / "ui/static/device.js").read_text(encoding="utf-8")
    assert proto.css_content == (REPO_ROOT / "ui/static/device.css").read_text(encoding="utf-8")
    assert proto.html_content == '<div class="device-krr"></div>'
    assert at.session_state.returned is None


def test_a_report_is_returned_in_its_run_then_the_buttons_stay_locked():
    at = AppTest.from_function(_poll_app).run()
    _tap(at, 2)
    assert not at.exception
    assert at.session_state.returned == 2
    assert json.loads(_component(at).json)["sent"] == 2  # locked in the same run
    at.run()
    assert at.session_state.returned is None
    assert json.loads(_component(at).json)["sent"] == 2
    # a second report for the same key (the locked buttons send none) is not taken, not
    # even the same one again
    for again in (0, 2):
        _tap(at, again)
        assert at.session_state.returned is None
        assert json.loads(_component(at).json)["sent"] == 2


@pytest.mark.parametrize("value", [3, -1, True, 1.0, "1", None, [1]])
def test_a_report_that_is_no_answer_is_ignored(value):
    at = AppTest.from_function(_poll_app).run()
    _tap(at, value)
    assert not at.exception
    assert at.session_state.returned is None
    assert json.loads(_component(at).json)["sent"] is None


def test_a_report_sent_earlier_is_shown_locked_and_not_taken_again():
    at = AppTest.from_function(_poll_app)
    at.session_state.sent_before = 1
    at.run()
    assert json.loads(_component(at).json)["sent"] == 1
    _tap(at, 0)
    assert at.session_state.returned is None
    assert json.loads(_component(at).json)["sent"] == 1
