"""The journey tester: every page driven through random sequences of what people do, with
the invariants checked after every step (tests/journeykit.py says which steps and which
invariants).

Hypothesis's stateful testing (``RuleBasedStateMachine``) draws the sequences under a fixed
seed (``derandomize``): the same journeys on every run and machine. A failing sequence
shrinks to a shortest one, which is then kept below as an explicit regression example.

Tiers (README, "Tests"): the default suite takes ``JOURNEY_STEPS`` (60) steps a page;
``scripts/test.sh --all`` sets ``JOURNEY_STEPS=2000``. Every run prints how often each rule
fired and each invariant was checked, and the time each page took.
"""

from __future__ import annotations

import json
import math
import os
import re
import time

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as hs
from hypothesis.stateful import (RuleBasedStateMachine, initialize, invariant, precondition,
                                 rule, run_state_machine_as_test)

import dpcode
from conftest import REPO_ROOT, thread_speaking
from journeykit import (FILES, HEADER_BUTTONS, RuleCounts, browser_sets, fresh, link_query, movable,
                        numbers, option_values, pick, same_numbers, tab_containers, value_at)
from pagekit import link_view, metrics
from test_dpcode import _plain, run_script, script_runner  # noqa: F401  (fixture)
from dpviz.risk import percent as risk_percent
from test_ui_i18n import assert_korean_all_the_way, english_sentences, shown_texts as korean_texts
from test_values_in_use import (E_NOTATION, SPECS, Boxed, calls, close, reads_as,  # noqa: F401
                                shown_texts, shown_values, value_of)
from ui import registry
from ui.kit import TRY_PARAM

pytestmark = pytest.mark.usefixtures("fixed_machine_speed", "quick_size_check")


@pytest.fixture
def quick_size_check(monkeypatch):
    """The compare page's *Check this setting* at R = 40, B = 20 in journeys (at its own
    R = 1,000 it takes about half a minute at M = 86); its sentences are the same."""
    from dpcore import simulation

    monkeypatch.setattr(simulation, "SIZE_CHECK_REPS", 40)
    monkeypatch.setattr(simulation, "SIZE_CHECK_BOOT", 20)

STEPS = int(os.environ.get("JOURNEY_STEPS", "60"))  # per page
STEPS_PER_JOURNEY = 40  # at least; a journey takes 40 to 50 steps
# JOURNEY_SHRINK=0: report a failing journey as found, without shrinking it (a quick look).
PHASES = [p for p in Phase if os.environ.get("JOURNEY_SHRINK", "1") != "0" or p != Phase.shrink]
CODE_RUNS = int(os.environ.get("JOURNEY_CODE_RUNS", "3"))  # Code scripts run, per page
TOOL_PAGES = list(registry.TOOL_PAGES)
SPEC_OF = {s.page.script: s for s in SPECS}
# A number a link's label names ("2-RR", "ε = 1", "k = 50", "μ = 0.25").
LABEL_NUMBER = re.compile(r"(?<![\w.])\d+(?:,\d{3})*(?:\.\d+)?(?![\w.]|,\d)")
RECORDED = json.loads((REPO_ROOT / "tests" / "fixtures" / "links_2026_11.json").read_text(
    encoding="utf-8"))["links"]
ARTIFACT = REPO_ROOT / "test-artifacts" / "journeys"
# A measured size and its verdict, as the compare page states it (issue 35).
# Issue 36's sentence of what a privacy level means for one person, at the prior 50%.
ONE_PERSON = re.compile(r"^At (.+?), an attacker who is 50% sure beforehand (?:that a person is in "
                        r"the data can be at most|guesses right whether a person is in the data "
                        r"at most) \*\*([\d.]+%)\*\*")
SIZE_CLAUSE = re.compile(r"rejected \d+\.\d% \(95% interval (\d+\.\d)%–(\d+\.\d)%\) of the "
                         r"time(: too liberal|: conservative|, keeping its 5% significance level)")


SECONDS = {}  # page -> rule or invariant -> seconds spent (printed with the counts)
OPEN_FINDINGS = {}  # page -> what an open finding saw (written with the counts)
# Arguments a spec gives a control that another control takes over in a journey: B's own N
# ("a separate N for B", cmp_n_b) and B's own ε (plan_alpha2), which the specs' link
# states never turn on.
OWN_CONTROL = {("cmp_n", "n2"), ("plan_alpha", "alpha2")}


def timed(fn):
    """Adds the time a rule or invariant takes to SECONDS, under its name."""
    import functools

    @functools.wraps(fn)
    def wrapper(self, *args, **kwargs):
        start = time.perf_counter()
        try:
            return fn(self, *args, **kwargs)
        finally:
            spent = SECONDS.setdefault(self.page.name, {})
            spent[fn.__name__] = spent.get(fn.__name__, 0.0) + time.perf_counter() - start
    return wrapper


class Journey(RuleBasedStateMachine):
    """One person's session on one page (``page``): steps and invariants. Subclassed per
    page by :func:`journey_for`."""

    page: registry.PageSpec = registry.COMPARE
    counts: RuleCounts = RuleCounts()
    calls: list = []
    runner = None
    tmp = None
    links_seen: dict = {}  # (page, share link) -> the numbers it opened with
    deferred: dict = {}  # the downloads the runs offered (conftest.deferred)

    def __init__(self):
        super().__init__()
        self.lang = "en"
        self.at = None
        self.code_runs = 0

    # --- the session ---------------------------------------------------------------------

    @property
    def spec(self) -> registry.PageSpec:
        """The page the session shows (a link may lead to another page)."""
        from ui.text import LANGUAGES, catalog

        title = self.at.title[0].value if self.at.title else ""
        for p in registry.PAGES:
            names = {p.label, p.title}
            names |= {catalog(code).gettext(n) for n in (p.label, p.title) for code in LANGUAGES
                      if code != "en"}  # (a Korean view's title is in Korean)
            if title in names:
                return p
        raise AssertionError(f"no page is titled {title!r}")

    def run(self) -> None:
        """Run the page as the browser asks for it: the widgets' values written with the
        labels the last run showed, in its language."""
        self.calls.clear()  # the dpcore calls of this run (those its cache did not answer)
        with thread_speaking(self.lang):
            self.at.run()
        self.after_run()

    def after_run(self) -> None:
        if "lang" in self.at.session_state:
            self.lang = self.at.session_state["lang"]

    def open_fresh(self, query: dict[str, str], spec=None) -> None:
        self.calls.clear()
        lang = query.get("lang", self.lang)
        self.lang = lang if lang in ("en", "ko") else "en"
        self.at = fresh(spec or self.page, query, lang=self.lang)
        self.after_run()

    def uploading(self) -> bool:
        """Whether the view shows a file uploader (a user's file, not in any link)."""
        return bool(self.at.get("file_uploader"))

    # --- steps ---------------------------------------------------------------------------

    @initialize(lang=hs.sampled_from(["en", "ko"]))
    @timed
    def open_page(self, lang):
        """Arrive by the page's address, in English or in Korean."""
        self.counts["open the page"] += 1
        self.open_fresh({"lang": lang})

    @rule(which=hs.floats(0, 1), u=hs.floats(0, 1), v=hs.floats(0, 1))
    @timed
    def move_control(self, which, u, v):
        """Move any control of the page to any value its widget allows."""
        controls = movable(self.at)
        if not controls:
            return
        w = pick(controls, which)
        value = value_at(self.at, w, u, v)
        if value is None:
            return
        self.counts[f"move {w.type}"] += 1
        browser_sets(self.at, w, value)
        self.run()

    @rule(which=hs.floats(0, 1), u=hs.floats(0, 1))
    @timed
    def switch_tab(self, which, u):
        tabs = tab_containers(self.at)
        if not tabs:
            return
        key, labels = pick(tabs, which)
        self.open_tab(key, labels, pick(labels, u))

    def open_tab(self, key: str, labels: list[str], label: str) -> None:
        """A click on a tab: the session's open tab, and the address (the tabs are bound to
        it; the first tab, their default, is left out)."""
        self.counts["switch tab"] += 1
        self.at.session_state[key] = label
        if label == labels[0]:
            if key in self.at.query_params:
                del self.at.query_params[key]
        else:
            self.at.query_params[key] = label
        self.run()

    @rule()
    @timed
    def switch_language(self):
        self.counts["switch language"] += 1
        browser_sets(self.at, self.at.radio(key="lang"), "ko" if self.lang == "en" else "en")
        self.run()

    @rule()
    @timed
    def toggle_presenting(self):
        self.counts["toggle presenting"] += 1
        self.at.button(key="page_present").click()
        self.run()

    @rule(which=hs.floats(0, 1))
    @timed
    def follow_a_link(self, which):
        """Click a link of the page (a "Try this" experiment, a link to another page) in the
        same session, as the browser does: its page with its query, and nothing else."""
        links = [lk for lk in self.at.get("page_link") if lk.proto.query_string]
        if links:
            self.follow(pick(links, which))

    @rule(which=hs.floats(0, 1), u=hs.floats(0, 1))
    @timed
    def go_to_another_page_by_its_link(self, which, u):
        """Open the tab that links to another page with this view's settings ("See the
        trade-off curve of 2-RR at ε = 1 on the f-DP page"), and click that link."""
        for key, labels in tab_containers(self.at)[:1]:
            start = int(u * len(labels)) % len(labels)
            for label in labels[start:] + labels[:start]:
                if self.links_to_pages():
                    break
                self.open_tab(key, labels, label)
        links = self.links_to_pages()
        if links:
            self.follow(pick(links, which))

    def links_to_pages(self) -> list:
        return [lk for lk in self.at.get("page_link")
                if lk.proto.query_string and TRY_PARAM not in link_query(
                    "?" + lk.proto.query_string)]

    def follow(self, link) -> None:
        query = link_query("?" + link.proto.query_string)
        spec = next((p for p in registry.PAGES if link.proto.page in
                     (p.script, p.url_path, "/" + p.url_path)), None)
        assert spec is not None, link.proto.page
        self.counts["follow a Try-this link" if TRY_PARAM in query else
                    "follow a link to a page"] += 1
        for key in list(self.at.query_params):
            del self.at.query_params[key]
        for key, value in query.items():
            self.at.query_params[key] = value
        self.at.switch_page(spec.script)
        self.run()
        if TRY_PARAM not in query:
            self.the_link_opens_what_it_says(link.proto.label)

    def the_link_opens_what_it_says(self, label: str) -> None:
        """A link to another page names the settings it carries ("See the trade-off curve of
        2-RR at ε = 1 on the f-DP page"): each number of its label is the value of a control
        of the page it opened (a link builder off by one shows another)."""
        said = [float(n.replace(",", "")) for n in LABEL_NUMBER.findall(label)]
        if not said:
            return
        values = [v for w in (*self.at.get("slider"), *self.at.get("select_slider"),
                              *self.at.get("number_input"))
                  for v in np.ravel(np.asarray(w.value, dtype=object))
                  if isinstance(v, (int, float, np.number))]
        chosen = " ".join(str(w.value) for kind in ("selectbox", "radio")
                          for w in self.at.get(kind))  # ("Population 2020: Korea")
        for number, text in zip(said, LABEL_NUMBER.findall(label)):
            assert (any(math.isclose(number, float(v), rel_tol=1e-9) for v in values)
                    or re.search(rf"(?<![\d.]){re.escape(text)}(?![\d])", chosen)), (
                f"the link {label!r} opened the page with {number} in no control: {values}")
        self.counts["check: a link opens what it says"] += 1

    @rule()
    @timed
    def open_the_share_link(self):
        """Open the view's Share link in a new session."""
        kit = self.kit()
        if kit is None or not kit.source:
            return
        self.counts["open the share link"] += 1
        self.open_fresh(link_query(kit.source), self.spec)

    @rule(which=hs.floats(0, 1))
    @timed
    def open_a_recorded_link(self, which):
        """Open a link recorded before the redesign (tests/fixtures/links_2026_11.json)."""
        recorded = [r for r in RECORDED if r["url_path"] == self.page.url_path]
        if not recorded:
            return
        self.counts["open a recorded link"] += 1
        self.open_fresh(dict(pick(recorded, which)["query"]))

    @rule(which=hs.floats(0, 1), file=hs.sampled_from(sorted(FILES)), u=hs.floats(0, 1))
    @timed
    def upload(self, which, file, u):
        """Choose a file as a data source and upload a good or a bad file (for A or B)."""
        uploaders = self.at.get("file_uploader")
        if not uploaders:
            sources = [w for w in self.at.get("selectbox") if w.key and
                       "upload" in option_values(self.at, w)]
            if not sources:
                return
            self.counts["choose upload"] += 1
            pick(sources, which).set_value("upload")
            self.run()
            uploaders = self.at.get("file_uploader")
            if not uploaders:
                return
        self.counts[f"upload {file}"] += 1
        pick(uploaders, u).set_value((f"{file.replace(' ', '_')}.csv", FILES[file], "text/csv"))
        self.run()

    @rule(which=hs.floats(0, 1))
    @timed
    def press_a_button(self, which):
        """Press a button of the page (Simulate, Run, New draw, Flip again)."""
        buttons = [b for b in self.at.button if b.key not in HEADER_BUTTONS and not b.disabled]
        if not buttons:
            return
        b = pick(buttons, which)
        self.counts["press a button"] += 1
        b.click()
        self.run()

    @rule()
    @timed
    def open_report(self):
        """Open Report and download it: the one-page HTML report of the view."""
        kit = self.kit()
        if kit is None:
            return
        self.counts["download the report"] += 1
        html = kit.report_builder(kit.source)()
        assert html.startswith("<!DOCTYPE html>"), html[:100]
        assert "Traceback" not in html

    @precondition(lambda self: self.code_runs < CODE_RUNS)
    @rule()
    @timed
    def run_the_code(self):
        """Open Code, download the script and run it: it prints the page's numbers."""
        kit = self.kit()
        if kit is None or kit.code_builder is None or self.uploading():
            return
        self.code_runs += 1
        self.counts["run the Code script"] += 1
        program = kit.code_builder(kit.source)
        # The script as the Code button's download gives it (made in the run's language).
        text = self.deferred[f"{program.stem}.py"]()
        folder = self.tmp / f"code{self.counts['run the Code script']}"
        folder.mkdir()
        printed = dpcode.read_printed(run_script(text, program.files, folder, self.runner))
        shown = {k: _plain(v) for k, v in kit.numbers.items()}
        assert {k: printed.get(k) for k in shown} == shown

    # --- invariants ----------------------------------------------------------------------

    def kit(self):
        from conftest import LAST_KIT

        return LAST_KIT[-1] if LAST_KIT and LAST_KIT[-1].ended else None

    @invariant()
    @timed
    def no_exception_and_no_traceback(self):
        if self.at is None:
            return
        self.counts["check: clean"] += 1
        assert not self.at.exception, "\n\n".join(
            f"{e.message}\n{''.join(e.stack_trace)}" for e in self.at.exception)
        for e in self.at.error:
            assert "Traceback" not in e.value and 'File "' not in e.value, e.value
        for text in shown_texts(self.at):
            assert not E_NOTATION.search(text), f"e-notation in {text!r}"

    @invariant()
    @timed
    def every_control_shows_the_value_in_use(self):
        if self.at is None:
            return
        spec = SPEC_OF.get(self.spec.script)
        if spec is None:
            return
        widgets = shown_values(self.at)
        # The specs (tests/test_values_in_use.py) say where a control's value goes on a
        # page's first tab; other tabs call the same functions for their own curves.
        first_tabs = all(self.at.session_state[key] == labels[0]
                         for key, labels in tab_containers(self.at)
                         if key in self.at.session_state)
        for key, uses in spec.uses.items() if first_tabs else ():
            if key not in widgets:
                continue
            for use in uses:
                if (key, use.arg) in OWN_CONTROL:
                    continue
                seen = [value_of(use, args, result) for name, args, result in self.calls
                        if name == use.function]
                seen = [v for v in seen if v is not None and np.ndim(v) == 0]
                if len({repr(v) for v in seen}) > 1:  # a table or curve over the values
                    continue
                wrong = [v for v in seen if not close(use.map(widgets[key]), v)]
                assert not wrong, (f"{key} shows {widgets[key]!r}, but {use.function} got "
                                   f"{use.arg} = {wrong[:3]}")
                if seen:
                    self.counts["check: value in use"] += 1
        kit = self.kit()
        if kit is None or self.lang != "en" or self.uploading():
            return  # (an upload's own numbers replace some controls': "153 (as uploaded)")
        for key, label in spec.report.items():
            text = kit.parameters.get(label)
            if text is None or key not in widgets or not re.search(r"\d", text):
                continue  # ("no solution": the page says why there is no number)
            value = widgets[key].shown if isinstance(widgets[key], Boxed) else widgets[key]
            assert reads_as(text, value), f"{key} shows {value!r}, the report says {text!r}"
            self.counts["check: report says the value"] += 1

    def view(self, at=None) -> dict[str, str]:
        """What a view shows for the share-link check: the open tab of each tab container
        and the metrics."""
        at = at or self.at
        shown = {f"tab {key}": at.session_state[key] for key, _ in tab_containers(at)
                 if key in at.session_state}
        # A table is named by its columns (a view may show a table the other does not: a
        # simulation run in one, and what ε means for one person in both), then its place
        # among tables of the same columns.
        tables, seen = {}, {}
        for d in at.dataframe:
            columns = ",".join(map(str, d.value.columns))
            seen[columns] = seen.get(columns, 0) + 1
            tables[f"table {d.proto.id or columns} #{seen[columns]}"] = d.value.to_csv()
        return {**shown, **metrics(at), **tables}

    @invariant()
    @timed
    def the_share_link_reopens_the_same_numbers(self):
        """The view's Share link, opened in a new session, shows the numbers this view shows
        (those both show: a view may still offer a simulation the link's view ran). A link
        checked so before is not opened again: the numbers it showed then must be these."""
        kit = self.kit()
        if kit is None or not kit.source or self.uploading():
            return
        shown = self.view()
        key = (self.spec.script, kit.source)
        reopened = self.links_seen.get(key)
        if reopened is None:
            calls = list(self.calls)
            reopened = self.links_seen[key] = self.view(
                fresh(self.spec, link_query(kit.source), lang=self.lang))
            self.calls[:] = calls
            self.counts["check: share link reopened"] += 1
        else:
            self.counts["check: share link seen before"] += 1
        both = {k for k in shown if k in reopened}
        differ = same_numbers({k: shown[k] for k in both}, {k: reopened[k] for k in both})
        assert not differ, (kit.source, {k: (shown[k], reopened[k]) for k in differ})

    @invariant()
    @timed
    def a_link_value_the_page_does_not_use_is_said(self):
        """A slider or number box showing another number than its URL parameter holds (a
        value beyond its range, clamped) says so on the page: its caption ("… is outside …;
        … is used") or the note on link values that could not be used."""
        if self.at is None or self.lang != "en":
            return
        said = " ".join(x.value for kind in ("caption", "warning", "info")
                        for x in self.at.get(kind))
        for w in [*self.at.get("slider"), *self.at.get("number_input")]:
            key = (w.key or "").removesuffix("_slider")
            text = self.at.query_params.get(key) if key in self.at.query_params else None
            if text is None or getattr(w, "form_id", ""):
                continue  # (a form's control is in use once the form is submitted)
            try:
                asked, value = float(str(text).replace(",", "")), float(w.value)
            except (TypeError, ValueError):
                continue
            self.counts["check: clamped values said"] += 1
            if not math.isclose(asked, value, rel_tol=1e-9, abs_tol=1e-12):
                assert "is outside" in said or "could not be used" in said, (
                    f"{key}: the link asks for {text}, the control shows {w.value}, and the "
                    f"page does not say so")

    @invariant()
    @timed
    def a_size_verdict_follows_its_interval(self):
        """Issue 35: every measured size the compare page states ("rejected 7.9% (95%
        interval 6.8%–9.1%) of the time: too liberal") has the verdict its interval gives,
        one-sided against 5%, and the test it then trusts follows from both verdicts."""
        if self.at is None or self.lang != "en":
            return
        for text in (x.value for kind in ("info", "warning") for x in self.at.get(kind)):
            if not text.startswith("Under 'no difference'"):
                continue
            self.counts["check: size verdicts"] += 1
            found = SIZE_CLAUSE.findall(text)
            assert len(found) == 2, text
            liberal = []
            for low, high, words in found:
                said = {": too liberal": "liberal", ": conservative": "conservative",
                        ", keeping its 5% significance level": "keeps"}[words]
                # The bounds are shown to 0.1 point: any value they round from may be meant.
                allowed = {"liberal" if lo > 0.05 else "conservative" if hi < 0.05 else "keeps"
                           for lo in (float(low) / 100 - 0.0005, float(low) / 100 + 0.0005)
                           for hi in (float(high) / 100 - 0.0005, float(high) / 100 + 0.0005)}
                assert said in allowed, (text, low, high, said)
                liberal.append(said == "liberal")
            trust = {(False, False): "Either can be trusted here.",
                     (True, False): "Trust the calibrated normal-score test here.",
                     (False, True): "Trust Algorithm 1 here.",
                     (True, True): "Neither keeps its level here"}[tuple(liberal)]
            assert trust in text, text

    @precondition(lambda self: self.at is not None
                  and any(b.key == "cmp_check" for b in self.at.button))
    @rule()
    @timed
    def check_this_setting(self):
        """Press *Check this setting* on the compare page (offered off the grid)."""
        self.counts["check this setting"] += 1
        self.at.button(key="cmp_check").click()
        self.run()

    @invariant()
    @timed
    def a_korean_view_has_no_english_sentence(self):
        """In Korean: no English sentence anywhere, and (issue 36) no English word or
        internal name in a table, chart, formula or message, nor N written "50M"."""
        if self.at is None or self.lang != "ko" or self.uploading():
            return
        left = [run for text in korean_texts(self.at) for run in english_sentences(text)]
        assert not left, left[:5]
        assert_korean_all_the_way(self.at, self.spec.name)
        self.counts["check: Korean only"] += 1

    @invariant()
    @timed
    def what_one_person_reads_is_one_number(self):
        """Issue 36: the sentence of what the page's privacy level means for one person gives
        the same digits as its table's row at the prior 50%, and under pure ε (a level "ε =
        x") the odds bound e^x/(1 + e^x) written out here."""
        if self.at is None or self.lang != "en":
            return
        said = [m for m in (ONE_PERSON.match(x.value) for x in self.at.markdown) if m]
        if not said:
            return
        [(level, number)] = [m.groups() for m in said]
        # its table (Markdown): prior, most sure after, best guess without, with the release
        [row] = [cells for x in self.at.markdown for line in x.value.splitlines()
                 if (cells := [c.strip() for c in line.strip("| ").split("|")])[0] == "50%"
                 and len(cells) == 4]
        bounded = row[1] != "—"
        assert (row[1] if bounded else row[3]) == number, (level, number, row)
        pure = re.fullmatch(r"ε = ([\d.]+)", level)
        if pure and bounded:
            eps = float(pure.group(1))
            assert number == risk_percent(math.exp(eps) / (1 + math.exp(eps))), (level, number)
        self.counts["check: one person"] += 1

    @invariant()
    @timed
    def presenting_shows_no_downloads(self):
        """Issue 36: a projected view shows no CSV or HTML downloads of its charts and tables
        (the header's report and code stay)."""
        state = None if self.at is None else self.at.session_state
        if state is None or "present" not in state or not state["present"]:
            return
        shown = [b.key for b in self.at.download_button
                 if b.key and b.key.endswith(("_csv", "_html"))]
        assert not shown, shown
        self.counts["check: presenting"] += 1


def journey_for(page: registry.PageSpec, runner, tmp) -> type[Journey]:
    return type(f"Journey_{page.name}", (Journey,),
                {"page": page, "counts": RuleCounts(), "calls": [], "runner": runner,
                 "tmp": tmp, "links_seen": {}})


# Open findings of the journeys at 220 steps, not yet fixed (README, "Tests"): the Share
# link of these views reopens other numbers. Expected to fail until they are.
OPEN: dict[str, str] = {
    "fdp": "after random substitution and Laplace are toggled on the curves tab, the Share "
           "link (…fdp_show_rs=true&fdp_rs_gamma=5&fdp_rs_n=7&fdp_show_lap=false…) reopens "
           "the curves table with other values (README, Tests, Open)",
}
JOURNEY_PAGES = [pytest.param(p, id=p.name, marks=[pytest.mark.xfail(
    reason=f"open finding: {OPEN[p.name]}", strict=False)] if p.name in OPEN else [])
    for p in TOOL_PAGES]


@pytest.mark.timeout(1800)
@pytest.mark.parametrize("page", JOURNEY_PAGES)
def test_journeys(page, calls, deferred, script_runner, tmp_path, capsys):
    machine = journey_for(page, script_runner, tmp_path)
    machine.calls = calls
    machine.deferred = deferred
    start = time.perf_counter()
    run_state_machine_as_test(machine, settings=settings(
        max_examples=-(-STEPS * 9 // (8 * STEPS_PER_JOURNEY)),  # a step may find nothing to do stateful_step_count=STEPS_PER_JOURNEY + 10,
        report_multiple_bugs=False,  # an open finding's page: found, not shrunk again
        phases=[ph for ph in PHASES if page.name not in OPEN or ph != Phase.shrink],
        derandomize=True, database=None, deadline=None,
        suppress_health_check=list(HealthCheck)), _min_steps=STEPS_PER_JOURNEY)
    took = time.perf_counter() - start
    steps = sum(v for k, v in machine.counts.items() if not k.startswith("check:"))
    ARTIFACT.mkdir(parents=True, exist_ok=True)
    (ARTIFACT / f"{page.name}.json").write_text(json.dumps(
        {"steps": steps, "seconds": round(took, 1), "counts": dict(machine.counts),
         "seconds by step and check": {k: round(v, 1) for k, v in SECONDS.get(page.name, {}).items()},
         "open findings": OPEN_FINDINGS.get(page.name, [])[:5]},
        ensure_ascii=False, indent=1), encoding="utf-8")
    with capsys.disabled():
        print(f"\n{machine.counts.line(f'{page.name}: {steps} steps in {took:.0f} s')}")
        print("  seconds: " + ", ".join(f"{k} {v:.0f}" for k, v in sorted(
            SECONDS.get(page.name, {}).items(), key=lambda kv: -kv[1])))
    assert steps >= STEPS, f"only {steps} steps"


# --- journeys that failed once, shrunk, kept as regression examples ----------------------------

INVARIANTS = ("no_exception_and_no_traceback", "every_control_shows_the_value_in_use",
              "the_share_link_reopens_the_same_numbers", "a_link_value_the_page_does_not_use_is_said",
              "a_size_verdict_follows_its_interval", "a_korean_view_has_no_english_sentence")


def replay(page: registry.PageSpec, steps, *, calls, deferred, runner, tmp) -> Journey:
    """Run ``steps`` ((rule, arguments) pairs) on a new session of ``page``, checking every
    invariant after each, as the state machine does."""
    machine = journey_for(page, runner, tmp)()
    type(machine).calls, type(machine).deferred = calls, deferred
    for name, kwargs in steps:
        getattr(machine, name)(**kwargs)
        for check in INVARIANTS:
            getattr(machine, check)()
    return machine


REGRESSIONS = {
    # A "Try this" link, then any control moved: the language control's state had been
    # wiped under its own callback (Chromium: KeyError 'lang'; tests/test_browser_journeys.py).
    "try this, then move": (registry.LDP, [
        ("open_page", {"lang": "en"}), ("follow_a_link", {"which": 0.0}),
        ("move_control", {"which": 0.0, "u": 1.0, "v": 0.0}),
        ("switch_language", {}), ("move_control", {"which": 0.5, "u": 0.0, "v": 0.0})]),
    # A tab opened in Korean, then English chosen: the tab had left the address, so the
    # Share link opened another tab than the one on screen.
    "tab in Korean, then English": (registry.LDP, [
        ("open_page", {"lang": "ko"}), ("switch_tab", {"which": 0.0, "u": 0.5}),
        ("switch_language", {}), ("open_the_share_link", {})]),
    # A file for A, then another for B, on the compare page (one uploader for both).
    "upload for A, then for B": (registry.COMPARE, [
        ("open_page", {"lang": "en"}), ("upload", {"which": 0.0, "file": "counts", "u": 0.0}),
        ("upload", {"which": 1.0, "file": "two columns", "u": 0.0}),
        ("run_the_code", {}), ("open_report", {})]),
    # The Gaussian page's "classical" experiment, then Korean chosen: the method's option
    # key "classical" (also a message) was relabelled to "고전적", no option, and σ fell
    # back to analytic under a Share link that said classical.
    "classical, then Korean": (registry.GAUSSIAN, [
        ("open_page", {"lang": "en"}), ("follow_a_link", {"which": 0.9855747588624375}),
        ("switch_language", {})]),
}


@pytest.mark.parametrize("name", REGRESSIONS)
def test_a_journey_that_failed_once(name, calls, deferred, script_runner, tmp_path):
    page, steps = REGRESSIONS[name]
    machine = replay(page, steps, calls=calls, deferred=deferred, runner=script_runner,
                     tmp=tmp_path)
    assert not machine.at.exception
