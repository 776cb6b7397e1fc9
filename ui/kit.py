"""The page kit: a page's title, shareable link, exports, one-click report and link check.

A page starts with ``kit = page_header(title)`` and ends with ``kit.end()``; in between,
``kit.chart`` and ``kit.table`` draw figures and tables with their exports and collect
them for the page's report, and ``kit.finding`` / ``kit.settings`` / ``kit.note`` give the
report its plain-language verdict, its parameters and its caveats. ``kit.stop()`` ends the
page early (after an error) and still gives it its link, report and link note.
"""

from __future__ import annotations

from collections.abc import Hashable
from contextlib import contextmanager
from dataclasses import dataclass, field, fields, is_dataclass

import pandas as pd
import streamlit as st
from pandas.io.formats.style import Styler

import dpcode
import dpviz
from ui import internals, language, links, present, sources
from ui.format import slug
from ui.text import esc, language as reader_language, speaking, t

REPORT_TABLE_ROWS = 200  # rows of a table kept in a report
REPORT_BUTTON_KEY = "page_report_download"
TRY_KEY = "try_this_open"  # session state: the experiment the reader just opened
TRY_PARAM = "try"  # URL parameter of an experiment's link: which experiment it opens
VIEW_KEY = "page_view_shown"  # session state: (page title, part) of the session's last run
FINDINGS_KEY = "page_findings_said"  # session state: (page title, findings) of the last run


@dataclass(frozen=True)
class Experiment:
    """A guided experiment: what to do, the link values that set the page up for it, and
    what to notice once it is set up."""

    title: str  # what the reader does, in one line ("Set A = B and …")
    notice: str  # what to notice (Markdown; shown under the button and once it is open)
    query: dict[str, str]  # the page's URL parameters for it (all others at defaults)


def _headers(config: dict | None) -> dict[str, str]:
    """Column -> header, from a table's ``column_config`` (ui.format.headed)."""
    return {column: given["label"] for column, given in (config or {}).items()
            if isinstance(given, dict) and given.get("label")}


@dataclass
class PageKit:
    """What a page gives its report, and the slots the header keeps for the end of the page."""

    title: str
    url_in: dict[str, list[str]]  # the link's values of controls that take them on this run
    notice: object  # container for the note on unusable link values
    report_slot: object  # st.empty inside the report popover
    link_slot: object  # st.empty inside the share popover
    findings: list[str] = field(default_factory=list)
    parameters: dict[str, str] = field(default_factory=dict)
    figures: list[tuple[str, object]] = field(default_factory=list)
    tables: list[tuple[str, pd.DataFrame]] = field(default_factory=list)
    table_headers: dict[str, dict[str, str]] = field(default_factory=dict)  # name -> headers
    notes: list[str] = field(default_factory=list)
    # The numbers the page shows, label -> value as computed: what the view's code prints.
    numbers: dict[str, object] = field(default_factory=dict)
    inputs: set[str] = field(default_factory=set)  # labels of numbers that are settings
    code_slot: object = None  # st.empty inside the code popover
    code_builder: object = None  # link -> dpcode.Program of this view, set by code()
    code_problem: str | None = None  # why this view has no code (an error state)
    source: str = ""  # the link to this view, set by end()
    ended: bool = False
    previous_view: tuple | None = None  # (title, part) the session's run before this one drew
    # The charts drawn, key -> (name, one-sentence summary): for screen readers.
    described: dict[str, tuple[str, str]] = field(default_factory=dict)
    announced: str = ""  # what the live region says after this run (changed_findings)
    # Presenting mode: the container of the view's main result, under the header
    # (ui.present.lead; None otherwise), and whether the page draws in it now (leading()).
    lead: object = None
    in_lead: bool = False
    lead_chart_height: int = present.LEAD_CHART_HEIGHT

    def opened(self, part: str = "") -> bool:
        """Whether this run opens the page, or its ``part`` (e.g. a tab): a new session (a
        link, a reload), a page opened from another page, or another part of this page drawn
        by the run before. False when a control of the part drawn before moved.

        A page that computes for seconds does so when it is opened and on request, and
        answers a moved control at once from what it computed before."""
        view = (self.title, part)
        st.session_state[VIEW_KEY] = view
        return self.previous_view != view

    @contextmanager
    def leading(self, chart_height: int = present.LEAD_CHART_HEIGHT):
        """What the page draws in this block is its main result (its verdict or key number,
        its main chart): in presenting mode it goes to :attr:`lead`, first under the title,
        its charts ``chart_height`` px tall (at least 300); otherwise in place. Inside,
        :attr:`in_lead` says which (e.g. to leave out a heading the chart's name repeats)."""
        if self.lead is None:
            yield
            return
        self.in_lead, self.lead_chart_height = True, chart_height
        try:
            with self.lead:
                yield
        finally:
            self.in_lead = False

    # --- what the page shows, with its exports ------------------------------------------

    def chart(self, fig, *, key: str, name: str, file: str | None = None, drawn: bool = True,
              **kwargs) -> None:
        """A Plotly chart with its data (CSV) and itself (standalone HTML) to download, and
        in words and as a table for a reader who does not see it: screen readers read it as
        an image named ``name`` with a one-sentence summary (:func:`dpviz.describe.figure_summary`,
        as under the figure in the report), and an expander below shows the summary and,
        when opened, the figure's numbers as a table.
        ``file``: the name the download files are made from, when not ``name`` (a file name
        people's scripts know, kept when the shown name changes). ``drawn`` False (a closed
        tab): for the report only."""
        if not drawn:
            self.figures.append((name, fig))
            return
        drawn_fig = (dpviz.style.SentFigure.of_spec(dpviz.style.presented(
            fig, height=self.lead_chart_height if self.in_lead else None))
            if present.presenting() else fig)
        st.plotly_chart(drawn_fig, key=key, **kwargs)
        summary = dpviz.describe.figure_summary(fig)
        self.described[key] = (name, summary)
        self.figures.append((name, fig))
        if not present.shows_exports():
            return
        stem = slug(file or name)
        with st.container(horizontal=True, gap="small"):
            st.download_button(
                t("Data (CSV)"), lambda f=fig: dpviz.export.csv_text(dpviz.export.figure_data(f)),
                file_name=f"{stem}.csv", mime="text/csv", on_click="ignore",
                icon=":material/table:", key=f"{key}_csv", type="tertiary",
                help=t("The numbers plotted, one row per point."))
            st.download_button(
                t("Chart (HTML)"), speaking(lambda f=fig: dpviz.export.figure_html(f, name)),
                file_name=f"{stem}.html", mime="text/html", on_click="ignore",
                icon=":material/download:", key=f"{key}_html", type="tertiary",
                help=t("This chart as an interactive page that opens without the app."))
        self.chart_text(fig, key=f"{key}_text", name=name, summary=summary)

    @staticmethod
    def chart_text(fig, *, key: str, name: str, summary: str) -> None:
        """The chart's summary and, once the reader opens it, its numbers as a table (made
        only then: the expander reruns the page when it opens)."""
        with st.expander(t("{name}: in words and as a table", name=esc(name)), key=key,
                         on_change="rerun", icon=":material/table_rows:"):
            st.markdown(esc(summary))
            if st.session_state.get(key):
                frame, total = dpviz.describe.figure_table(fig)
                st.table(frame)
                if total > len(frame):
                    st.caption(t("The first {shown} of {total} rows: the Data (CSV) download "
                                 "has them all.", shown=len(frame), total=f"{total:,}"))

    def table(self, frame: pd.DataFrame, *, key: str, name: str,
              csv: pd.DataFrame | None = None, file: str | None = None, drawn: bool = True,
              **kwargs) -> None:
        """A table with a CSV download (``csv``: the frame to export, if not ``frame``;
        ``file``: the name its file name is made from, when not ``name``); ``drawn`` False
        (a closed tab): for the report only."""
        data = frame if csv is None else csv
        if isinstance(data, Styler):
            data = data.data
        # The report shows the table under the page's headers (its column config, in the
        # reader's language); the CSV, and the kit's frame, keep the column names.
        self.table_headers[name] = _headers(kwargs.get("column_config"))
        if not drawn:
            self.tables.append((name, data.head(REPORT_TABLE_ROWS)))
            return
        st.dataframe(frame, key=key, **kwargs)
        self.tables.append((name, data.head(REPORT_TABLE_ROWS)))
        if not present.shows_exports():
            return
        st.download_button(t("Table (CSV)"), lambda d=data: dpviz.export.csv_text(d),
                           file_name=f"{slug(file or name)}.csv", mime="text/csv",
                           on_click="ignore", icon=":material/table:", key=f"{key}_csv",
                           type="tertiary", help=t("This table as a CSV file."))

    def metric(self, label: str, value, text: str | None = None, *, where=None,
               given: bool = False, **kwargs) -> None:
        """A metric showing ``text`` (``value`` as it is when None) in ``where`` (a column or
        container; the page's current place when None), its ``value`` kept as computed for
        the view's code (:attr:`numbers`); ``given``: a setting shown back, which the code
        writes as it is (:attr:`inputs`)."""
        self.numbers[label] = value
        if given:
            self.inputs.add(label)
        (where or st).metric(label, value if text is None else text, **kwargs)

    def number(self, label: str, value, *, given: bool = False) -> None:
        """A number the page shows in a sentence, caption or table, kept for the view's code
        (``given``: a setting shown back, as in :meth:`metric`)."""
        self.numbers[label] = value
        if given:
            self.inputs.add(label)

    def code(self, builder) -> None:
        """The view as code: ``builder(link)`` returns its :class:`dpcode.Program` (called
        only when a file is downloaded). Offered by the header's Code button."""
        self.code_builder = builder

    # --- what the report says -------------------------------------------------------------

    def finding(self, text: str) -> None:
        """A plain-language verdict for the report (shown first in it)."""
        self.findings.append(text)

    def settings(self, values) -> None:
        """The settings behind the results: a dict label -> value, or a page's settings
        object (a dataclass; its ``report_items()`` if it has one, else its fields)."""
        if is_dataclass(values) and not isinstance(values, type):
            items = (values.report_items() if hasattr(values, "report_items")
                     else {f.name: getattr(values, f.name) for f in fields(values)})
        else:
            items = dict(values)
        self.parameters.update({str(k): str(v) for k, v in items.items()})

    def note(self, text: str) -> None:
        """A method note or caveat for the report."""
        self.notes.append(text)

    def try_this(self, page, experiments: list[Experiment]) -> None:
        """The page's guided experiments, each a link that sets the page up in one click,
        with what to notice; the one just opened is named above the page's controls.

        The link is ``page`` (a :class:`ui.registry.PageSpec`) with the experiment's values
        and ``TRY_PARAM``: :func:`page_header` sees that parameter and opens the view as a
        fresh visit to the link would, every other control back to its default."""
        opened = st.session_state.get(TRY_KEY)
        with st.expander(t("Try this"), icon=":material/science:", expanded=False):
            for i, ex in enumerate(experiments):
                query = {key: language.spoken(value) for key, value in ex.query.items()}
                st.page_link(page.script, label=t(ex.title), icon=":material/play_arrow:",
                             query_params={**query, TRY_PARAM: str(i)},
                             help=t("Sets the page up for this experiment, every other "
                                    "setting back to its default."))
                st.caption(t(ex.notice))
        for ex in experiments:
            # Named while the URL still says what the experiment set (a value equal to
            # its control's default is left out of the URL by Streamlit).
            if str(experiments.index(ex)) == opened and all(k not in st.query_params or links.same(
                    st.query_params.get_all(k), language.spoken(v)) for k, v in ex.query.items()):
                st.info(t("**{title}**. {notice}", title=t(ex.title), notice=t(ex.notice)),
                        icon=":material/science:")

    def ask(self, message: str, *, key: str, help: str | None = None) -> bool:
        """Offer work that takes longer than a moved control should (a simulation of a
        second or more): ``message`` says what it costs, beside a *Simulate* button (widget
        ``key``). True in the run the button starts (the offer is then cleared); else False,
        and the report says that part of the view was not simulated.

        Pages compute such work by themselves when they or their tab are opened
        (:meth:`opened`) and answer a moved control at once from what they computed before;
        a class moving sliders then costs the server a rerun per change, not a simulation."""
        offer = st.empty()
        with offer.container():
            st.info(message, icon=":material/hourglass_empty:")
            pressed = st.button(t("Simulate"), type="primary", icon=":material/play_arrow:",
                                key=key, help=help or t("Run the simulation at these settings."))
        if pressed:
            offer.empty()
            return True
        self.note(t("Part of this view had not been simulated at its settings when this report "
                    "was made: the report has no results from that part."))
        return False

    def requested(self, store: str, settings: Hashable, *, quick: bool, opened: bool,
                  message: str, key: str, help: str | None = None, ask: bool = True) -> bool:
        """Whether to run a long computation for ``settings`` (hashable) in this run: it is
        ``quick``, the page or its tab was ``opened``, it ran before in this session (kept in
        session state ``store``; its result is in the server's cache), or the user pressed
        *Simulate* (:meth:`ask`, offered when ``ask``). Remembers ``settings`` when True."""
        ran = st.session_state.setdefault(store, set())
        if not (quick or opened or settings in ran) and not (
                ask and self.ask(message, key=key, help=help)):
            return False
        if len(ran) > 256:  # a session's memory stays small
            ran.clear()
        ran.add(settings)
        return True

    # --- errors and the end of the page ----------------------------------------------------

    def error(self, message: str) -> None:
        """A plain-language error, the same way on every page (never a traceback)."""
        st.error(message, icon=":material/error:")

    def fail(self, message: str) -> None:
        """Show a plain-language error and stop the page (its Code button says why it offers
        no code)."""
        self.error(message)
        self.code_problem = message
        self.code_builder = None
        self.stop()

    def wait(self, message: str) -> None:
        """Say what the page waits for (e.g. a file) and stop it."""
        st.info(message, icon=":material/upload_file:")
        self.stop()

    def stop(self) -> None:
        """Stop the page early, still giving it its link, report and link note."""
        self.end()
        st.stop()

    def report_tables(self) -> list[tuple[str, pd.DataFrame]]:
        """The tables as the report shows them: under the page's headers."""
        return [(name, frame.rename(columns=self.table_headers.get(name, {})))
                for name, frame in self.tables]

    def report_builder(self, source: str):
        """Makes the report when called, from the kit as it is then (the page adds to it
        until end()), with the link end() gives the view, or else ``source``. It runs when
        the download is pressed, outside the script run: no Streamlit calls."""

        def build() -> str:
            return dpviz.report.html_report(
                self.title, findings=list(self.findings), parameters=dict(self.parameters),
                figures=list(self.figures), tables=self.report_tables(), notes=list(self.notes),
                source=self.source or source, lang=reader_language())

        return speaking(build)

    def report_button(self, *, key: str, help: str | None = None) -> None:
        """The page's one-page HTML report to download (the file of the header's Report
        button), for a page that offers it in its own place too (e.g. a Report tab)."""
        st.download_button(t("Download the report (HTML)"), self.report_builder(links.view_link()),
                           file_name=f"{slug(self.title)}_report.html", mime="text/html",
                           on_click="ignore", icon=":material/download:", type="primary",
                           key=key,
                           help=help or t("Findings, settings, every chart and table of this "
                                          "view."))

    def end(self) -> None:
        """Ends the page: the link to this view, its report, the note on unusable link values."""
        if self.ended:
            return
        self.ended = True
        self.source = links.view_link()
        self.link_slot.code(self.source or t("(the address appears when the page is opened in "
                                             "a browser)"), language=None, wrap_lines=True)
        bad = links.unusable(self.url_in) + language.unusable_link() + present.unusable_link()
        if bad:
            self.notice.warning(links.unusable_note(bad), icon=":material/link_off:")
        with self.report_slot.container():
            self.report_button(key=REPORT_BUTTON_KEY)
            st.caption(t("{f} finding(s), {c} chart(s), {n} table(s).", f=len(self.findings),
                         c=len(self.figures), n=len(self.tables)))
        if self.code_slot is not None:
            with self.code_slot.container():
                self.code_buttons()
        self.announced = self.changed_findings()
        internals.describe_charts(self.described, self.announced)

    def changed_findings(self) -> str:
        """The findings of this run that the last run of the same page did not have (a
        moved control's new results), for the live region; "" when the page was opened."""
        said = st.session_state.get(FINDINGS_KEY)
        st.session_state[FINDINGS_KEY] = (self.title, list(self.findings))
        if not said or said[0] != self.title:
            return ""
        return " ".join(f for f in self.findings if f not in said[1])

    def code_buttons(self) -> None:
        """The Code popover's downloads: the view as a Python script and as a Jupyter
        notebook, and the data files they read; or why there is none."""
        if self.code_builder is None:
            st.caption(self.code_problem or t("No code for this view: it has no results at "
                                              "its settings (the page says why)."))
            return
        program = self.code_builder(self.source)
        # The code runs with the dpcore wheel this server runs (no package of that name on an
        # index is ours): offered beside it, built from the source tree on the first click.
        version = dpcode.wheel.build_version()
        command = dpcode.wheel.install_command(version)
        st.download_button(t("Python script (.py)"), speaking(lambda: dpcode.script_text(program)),
                           file_name=f"{program.stem}.py", mime="text/x-python",
                           on_click="ignore", icon=":material/code:", key="page_code_py",
                           help=t("Runs with Python 3.11 or later and the dpcore wheel below: "
                                  "save both in one folder and install the wheel with "
                                  "`{command}`.", command=command))
        st.download_button(t("Jupyter notebook (.ipynb)"),
                           speaking(lambda: dpcode.notebook_text(program)),
                           file_name=f"{program.stem}.ipynb", mime="application/x-ipynb+json",
                           on_click="ignore", icon=":material/article:", key="page_code_ipynb",
                           help=t("The same code, cell by cell, with the charts inline."))
        st.download_button(t("dpcore wheel (.whl)"), lambda: dpcode.wheel.wheel_bytes(version),
                           file_name=dpcode.wheel.wheel_name(version),
                           mime="application/octet-stream", on_click="ignore",
                           icon=":material/deployed_code:", key="page_code_wheel",
                           help=t("The dpcore package this dashboard runs, build {build}, which "
                                  "the code imports: save it beside the script and install it "
                                  "with `{command}`. pip takes numpy, scipy, pandas and plotly "
                                  "from the package index.",
                                  build=version.partition("+")[2], command=command))
        for i, (name, text) in enumerate(program.files.items()):
            st.download_button(t("Data file {name}", name=name), text, file_name=name,
                               mime="text/csv", on_click="ignore", icon=":material/table:",
                               key=f"page_code_file_{i}",
                               help=t("Read by the code: save it beside the script."))
        st.caption(t("The code computes every number this view shows with dpcore, with the "
                     "same settings and seed, and prints it with the page's label."))


def page_style() -> None:
    """The style sheet every page needs: whole metrics and chips, a visible focus. Given by
    :func:`page_header`; a page without that header (the start page) calls it itself."""
    internals.no_clip()


def session_wide(key: str) -> bool:
    """Whether session-state ``key`` belongs to the session rather than to a page's view: the
    language and presenting mode (whose controls app.py draws before the page, on every
    run) and the files the reader uploaded (:func:`ui.sources.kept_upload`)."""
    return (key in language.SESSION_KEYS or key in present.SESSION_KEYS
            or key.endswith(sources.KEPT_SUFFIX))


def fresh_visit() -> None:
    """Forget the page's settings, as a fresh visit to the link would: every session-state
    key but the :func:`session_wide` ones. Those stay: the language control is already drawn
    in this run, and a control's state must never go missing under it (its callback, on the
    next change, reads it); a reader's language, presenting mode and files are not
    settings of the view an experiment sets up."""
    for key in list(st.session_state):
        if not session_wide(key):
            del st.session_state[key]


HEADER_KEY = "page_header"  # its row's title box is sized by ui.internals.NO_CLIP_CSS


def page_header(title: str) -> PageKit:
    """The page title with its "Share", "Report" and "Code" buttons (the page gives its code
    with :meth:`PageKit.code`); returns the page's kit."""
    if TRY_PARAM in st.query_params:  # an experiment's link: a fresh visit to it
        opened = st.query_params[TRY_PARAM]
        fresh_visit()
        del st.query_params[TRY_PARAM]
        st.session_state[TRY_KEY] = opened
    url_in = links.link_values_in_use()
    previous_view = st.session_state.get(VIEW_KEY)
    st.session_state[VIEW_KEY] = (title, "")
    page_style()
    # One row that wraps: in a narrow window the buttons move below the title rather than
    # shrink until their labels are cut. The title gives way first (internals.NO_CLIP_CSS):
    # down to 20rem it wraps its own words, so that at 1,280 px and wider the buttons stay
    # beside it (a long title pushed them onto a second row, issue 36).
    header = st.container(horizontal=True, vertical_alignment="bottom", gap="small",
                          key=HEADER_KEY)
    header.title(title, width="stretch")
    with header.popover(t("Share"), icon=":material/link:", width="content",
                        help=t("A link to exactly this view: every setting, the seed "
                               "included.")):
        st.markdown(t("**Link to this view**"))
        link_slot = st.empty()
        st.caption(t("Copy it with the button at the right of the box. Opening it shows this "
                     "page with the same settings and the same random draws."))
    with header.popover(t("Report"), icon=":material/description:", width="content",
                        help=t("A one-page HTML report of this view, to send to someone "
                               "without the app.")):
        report_slot = st.empty()
        report_slot.caption(t("The report is ready once the page has its results."))
    with header.popover(t("Code"), icon=":material/code:", width="content",
                        help=t("This view as a Python script and a Jupyter notebook that "
                               "reproduce its numbers with dpcore.")):
        code_slot = st.empty()
        code_slot.caption(t("The code is ready once the page has its results."))
    presenting = present.presenting()
    header.button(t("Stop presenting") if presenting else t("Present"),
                  icon=":material/cancel_presentation:" if presenting
                  else ":material/present_to_all:",
                  key="page_present", on_click=present.switch, width="content",
                  help=t("Back to the normal view.") if presenting else
                  t("For a projector: larger text and charts, no help icons, the sidebar "
                    "closed; every setting stays. The link of this view opens it so."))
    notice = st.container()
    return PageKit(title=title, url_in=url_in, notice=notice, report_slot=report_slot,
                   link_slot=link_slot, previous_view=previous_view, code_slot=code_slot,
                   lead=present.lead())

