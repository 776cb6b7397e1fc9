"""Every use of a name Streamlit does not publish, in one place.

Streamlit has no public way to get the text a URL-bound widget writes to the address for
its value (an option's label, e.g. ``5-year groups (18 bins)`` for the option 5). The
page kit needs it to tell a link value the page used from one it could not use. This
module reaches it through Streamlit's session-state internals as Streamlit 1.67 has them.

Streamlit also cuts a metric's value, and a multiselect's chosen options, that do not fit
their width with an ellipsis ("0.0017…"): a number a reader cannot read. :func:`no_clip`
lets them wrap instead (and lets a displayed formula, KaTeX's ``.katex-display``, show
whole rather than scroll in a box a keyboard cannot reach: axe's
scrollable-region-focusable), with a style sheet that names Streamlit's own element test ids
(``stMetricValue``, ``stMetricLabel``) and Base Web's tag (``data-baseweb="tag"``), neither
of them public API.

A file uploaded in a session another server process held (a replica that died behind
HAProxy, a restarted server) comes back from the browser as a file id this process does
not have: Streamlit then keeps a ``DeletedFile`` in the widget's state, not public API
either. :func:`upload_lost` tells the page, which asks for the file again.

A language switch relabels the session's values that are texts shown (a tab, an option
given by its label), and not an option a widget names with a ``format_func``
(:func:`holds_option_keys`, :func:`option_labels`: the widget's options and the labels it
showed, read from its serializer); such a widget is set again to its own value so that the
browser is sent its label in the new language (else it keeps showing, and sending back, the
old one).

A link written with English option labels is read in the reader's language
(ui.language.localize_link): its values are rewritten before the widgets read them, also
for a parameter a widget of an earlier run is bound to, which Streamlit's public
``st.query_params`` refuses to set, and in the snapshot of the address that Streamlit seeds
widgets from (:func:`rewrite_link_value`).

tests/test_ui_internals.py checks, against the installed Streamlit, that every name used
here exists and gives the URL form of a widget: an upgrade that changes them fails that
test loudly instead of silently naming good link values as unusable. The browser test
tests/test_browser_values.py::test_no_metric_or_chip_is_cut checks the style sheet on every page.
"""

from __future__ import annotations

import json

import streamlit as st
from streamlit.runtime.state.session_state_proxy import get_session_state
from streamlit.runtime.uploaded_file_manager import DeletedFile

TESTED_STREAMLIT = "1.67"


def url_form(key: str) -> list | None:
    """The URL form of the value of the widget ``key``; None when the widget is not bound
    to the URL or has not been created in this run."""
    metadata = _metadata(key)
    if metadata is None or metadata.bind != "query-params":
        return None
    form = metadata.serializer(st.session_state[key])
    return list(form) if isinstance(form, (list, tuple)) else [form]


def _metadata(key: str):
    """The session's metadata of the widget ``key`` (its serializer, its binding), or None
    when no widget has that key."""
    state = get_session_state()._state
    widget_id = state.get_widget_id_from_key(key)
    return None if widget_id is None else state.get_widget_metadata(widget_id)


def _serde(key: str):
    """The serializer object of the widget ``key`` as its last run registered it, or None."""
    return getattr(getattr(_metadata(key), "serializer", None), "__self__", None)


def holds_option_keys(key: str) -> bool:
    """Whether the widget ``key`` holds an option that is not the text it shows: a
    ``format_func`` names its options (e.g. ``"classical"`` shown as "고전적"), so its
    value stays one of them in every language. False for a widget whose options are the
    texts shown, for a tab bar, and when the widget is not known."""
    return option_labels(key) is not None


def option_labels(key: str) -> list[str] | None:
    """The labels the widget ``key`` showed for its options on its last run, when a
    ``format_func`` names them (its options are not the texts shown); else None."""
    serde = _serde(key)
    options, label = getattr(serde, "options", None), getattr(serde, "format_func", None)
    if options is None or label is None:
        return None
    shown = getattr(serde, "formatted_options", None)
    if shown is None:  # (a select slider keeps them as a mapping to the option's index)
        shown = list(getattr(serde, "formatted_option_to_index", {}))
    if list(shown) == list(options):
        return None
    return [str(s) for s in shown]


def rewrite_link_value(key: str, values: list[str]) -> None:
    """Make ``values`` the link's value of ``key`` for this run's widgets and the address:
    in the query parameters, whether or not a widget is bound to ``key``, and in the
    snapshot taken when the page loaded, from which a URL-bound widget takes its first
    value."""
    with get_session_state().query_params() as qp:
        qp._set_item_internal(key, list(values))
        if key in qp._initial_query_params:
            qp._initial_query_params[key] = list(values)
        qp._send_query_param_msg()


def upload_lost(key: str) -> bool:
    """True when the file uploader ``key`` names a file this server process does not hold
    (the browser kept it from a session on another process, or before a restart)."""
    return isinstance(st.session_state.get(key), DeletedFile)


# Metric values and labels, and multiselect chips, wrap rather than end in an ellipsis; what
# has the keyboard's focus shows it. No "<" inside the sheet (not even in a comment): st.html
# sanitises with DOMPurify, which drops a style element whose text looks like markup.
NO_CLIP_CSS = """<style>
[data-testid="stMetricValue"], [data-testid="stMetricValue"] *,
[data-testid="stMetricLabel"], [data-testid="stMetricLabel"] * {
  white-space: normal !important; overflow: visible !important;
  text-overflow: clip !important; overflow-wrap: anywhere;
}
[data-testid="stMetricValue"] { height: auto !important; line-height: 1.2; }
/* The page header's row (ui.kit.HEADER_KEY): the title's box starts at 20rem and grows, so a
   long title wraps its own words and the buttons stay beside it at 1,280 px and wider
   (Streamlit's own basis is the title's whole width, which sent the buttons below it). */
.st-key-page_header [data-testid="stElementContainer"]:has([data-testid="stHeading"]) {
  flex: 1 1 20rem; min-width: 20rem; }
[data-baseweb="tag"] { max-width: none !important; height: auto !important; }
[data-baseweb="tag"] span { max-width: none !important; white-space: normal !important;
  overflow: visible !important; text-overflow: clip !important; }
.katex-display { overflow: visible !important; }
/* A visible focus on everything the keyboard reaches (WCAG 2.4.7): Streamlit draws none on
   its sidebar menu's links, and its own are faint. Okabe-Ito blue, 5.2:1 on
   white; drawn inside text boxes, whose frames clip what lies outside them. */
:focus-visible { outline: 3px solid #0072B2 !important; outline-offset: 2px !important; }
input:focus-visible, textarea:focus-visible { outline-offset: -3px !important; }
/* Radios, checkboxes, toggles: the focused input is clipped to 1 px; the label around it
   (React Aria's data-focus-visible) shows the focus instead of Streamlit's faint tint. */
label[data-focus-visible] { outline: 3px solid #0072B2 !important; outline-offset: 2px !important; }
/* A table's or chart's toolbar (stElementToolbar) is transparent until hovered: shown while
   one of its buttons has the keyboard's focus. */
[data-testid="stElementToolbar"]:focus-within { opacity: 1 !important; }
</style>"""


# The page's <html lang> (ui.language.mark_document): Streamlit writes "en" into its page and
# has no setting for it. One fixed script per interface language; no text of a user.
LANG_SCRIPTS = {code: f'<script>document.documentElement.lang = "{code}";</script>'
                for code in ("en", "ko")}


def mark_language(code: str) -> None:
    """Set the page's ``<html lang>`` to ``code`` ("en" or "ko")."""
    st.html(LANG_SCRIPTS[code], unsafe_allow_javascript=True)


# Charts and findings for screen readers (ui.kit.PageKit.end): one fixed script, fed the run's
# chart names and summaries and the findings that changed, as JSON data made inert here
# (every "<" written as \u003c, so no text can close the script). It gives each chart,
# found by its element's key class (st-key-<key>; not public API), the role of an image with its name and
# its one-sentence summary (the SVG inside is then not read tick by tick), and writes the
# findings that changed into a polite live region kept outside Streamlit's tree, so a screen
# reader says them once a moved control has its results. The image is Plotly's plot SVG (its
# first svg.main-svg; the layers drawn over it, legend and hover labels, are hidden from
# screen readers), not the chart's box, whose toolbar buttons stay reachable. A
# MutationObserver names a chart Plotly draws after the script ran.
A11Y_SCRIPT = """<script>(() => {
const data = JSON.parse(%s);
const w = window;
w.dpCharts = data.charts;
const name = () => {
  for (const [key, [label, summary]] of Object.entries(w.dpCharts || {})) {
    const svgs = document.querySelectorAll(
      `.st-key-${CSS.escape(key)} [data-testid="stPlotlyChart"] svg.main-svg`);
    if (!svgs.length) continue;
    const [plot, ...layers] = svgs;
    if (plot.getAttribute("aria-label") !== label
        || plot.getAttribute("aria-description") !== summary) {
      plot.setAttribute("role", "img");
      plot.setAttribute("aria-label", label);
      plot.setAttribute("aria-description", summary);
    }
    for (const layer of layers) layer.setAttribute("aria-hidden", "true");
  }
};
if (!w.dpChartObserver) {
  w.dpChartObserver = new MutationObserver(() => {
    if (!w.dpNaming) {
      w.dpNaming = true;
      requestAnimationFrame(() => { w.dpNaming = false; name(); });
    }
  });
  w.dpChartObserver.observe(document.body, {childList: true, subtree: true});
}
name();
let live = document.getElementById("dp-live");
if (!live) {
  live = document.createElement("div");
  live.id = "dp-live";
  live.setAttribute("role", "status");
  live.setAttribute("aria-live", "polite");
  live.setAttribute("aria-atomic", "true");
  live.style.cssText = "position:absolute;width:1px;height:1px;margin:-1px;padding:0;" +
    "overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0";
  document.body.appendChild(live);
}
if (data.announce) live.textContent = data.announce;
})();</script>"""


def script_data(value) -> str:
    """``value`` as a JavaScript string literal of its JSON, inert inside a ``<script>``:
    no "<" (so no "</script>" or "<!--"), and no line separators."""
    text = json.dumps(json.dumps(value, ensure_ascii=False), ensure_ascii=False)
    return (text.replace("<", "\\u003c").replace("\u2028", "\\u2028")
            .replace("\u2029", "\\u2029"))


def describe_charts(charts: dict[str, tuple[str, str]], announce: str) -> None:
    """Name each chart (key -> (name, one-sentence summary)) for screen readers, and say
    ``announce`` (the findings a moved control changed; "" for none) in the live region."""
    st.html(A11Y_SCRIPT % script_data({"charts": charts, "announce": announce}),
            unsafe_allow_javascript=True)


# Presenting mode (ui.present): larger text for a projector (Streamlit sizes its text in rem,
# from the root's font size; 16px -> 20px), body text read at 3 m (issue 36): Markdown
# paragraphs and list items, captions and metric labels 24 px, captions in the text's colour
# rather than Streamlit's faded one (the labels of controls, options, buttons, tabs and
# expanders keep their sizes at 20 px's root); no
# help icons beside controls' labels (Streamlit's stTooltipIcon around a bare button; it
# also wraps the widgets that have help, whose buttons and links have test ids: those stay).
# So that a page's main result (ui.present.lead) fits a 1280x720 first screen: a lower
# toolbar and a shorter gap above the title (Streamlit's 3.75rem and 6rem), a smaller title,
# and the header's buttons smaller, on the title's row (issue 36).
PRESENT_CSS = """<style>
html { font-size: 20px; }
[data-testid="stMain"] [data-testid="stMarkdownContainer"] :is(p, li):not(label *, button *, summary *, [role="tab"] *),
[data-testid="stMain"] [data-testid="stCaptionContainer"],
[data-testid="stMain"] [data-testid="stMetricLabel"],
[data-testid="stMain"] [data-testid="stMetricLabel"] p { font-size: 24px; }
[data-testid="stMain"] [data-testid="stCaptionContainer"] { color: inherit; }
[data-testid="stHeader"] { height: 2.5rem; }
[data-testid="stMainBlockContainer"] { padding-top: 2.75rem; }
[data-testid="stMain"] h1 { font-size: 1.8rem; padding-top: 0; padding-bottom: 0; }
[data-testid="stHorizontalBlock"]:has(> [data-testid="stElementContainer"] h1) { gap: 0.5rem; }
[data-testid="stHorizontalBlock"]:has(> [data-testid="stElementContainer"] h1) button {
  font-size: 0.8rem; min-height: 0; padding: 0.2rem 0.6rem; }
[data-testid="stHorizontalBlock"]:has(> [data-testid="stElementContainer"] h1) button p {
  font-size: 0.8rem; }
[data-testid="stTooltipIcon"]:has(> [data-testid="stTooltipHoverTarget"] > button:not([data-testid])) {
  display: none !important; }
</style>"""


def present_style() -> None:
    """The presenting mode's style sheet (above)."""
    st.html(PRESENT_CSS)


def no_clip() -> None:
    """Let every metric and multiselect chip of the page show its whole text, and
    everything the keyboard reaches show its focus (see above)."""
    st.html(NO_CLIP_CSS)
