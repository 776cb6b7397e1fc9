"""Korean all the way (issue 36): the English words and internal names a Korean page shows in
its tables, charts, formulas and messages.

The Markdown check of tests/test_ui_i18n.py counts runs of three English words; this one
counts every word of two or more Latin letters that is not a kept term (names, symbols,
units, abbreviations: ``KEPT_WORDS`` there), in:

- tables (``st.dataframe``, ``st.table``): every text cell, every header as shown (the
  column configuration's label where it gives one), and the index;
- charts (the Plotly spec each chart element carries): titles, axis titles, tick texts,
  annotations (facet titles included), legend titles, trace names, hover templates, texts
  and hover texts, custom data shown in hover, and categories written on an axis;
- formulas (``st.latex`` and ``$…$`` in any text): the contents of ``\\text{…}``,
  ``\\mathrm{…}`` and their kind (a command's own name, ``\\alpha``, is no word);
- messages (``st.error``, ``warning``, ``info``, ``success``, ``caption``): every word.

An identifier (``normal_score``, ``alpha1``) counts by its English parts.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator

# The sources' titles, cited as they are (docs/references.md): a citation is no sentence of
# the page.
TITLES = ("Gaussian differential privacy",
          "A parametric bootstrap test for comparing differentially private histograms",
          "parametric bootstrap test for comparing differentially private histograms",
          "The Korean Journal of Applied Statistics", "Korean Journal of Applied Statistics",
          "Journal of the Royal Statistical Society", "Series B",
          "Journal of Privacy and Confidentiality")

WORD = re.compile(r"[A-Za-z]{2,}")
_TEXT_COMMANDS = re.compile(r"\\(?:text|textrm|textsf|textit|textbf|mathrm|mbox|operatorname"
                            r"|mathit|mathsf|mathbf)\s*\{([^{}]*)\}")
_MATH = re.compile(r"\$\$(.+?)\$\$|\$([^$]+)\$", re.S)
_PLACEHOLDER = re.compile(r"%\{[^{}]*\}|<extra>.*?</extra>|<[^<>]*>", re.S)
_MARKDOWN_NOISE = re.compile(r":material/\w+:|\]\([^)]*\)|https?://\S+")


def kept_words() -> set[str]:
    from test_ui_i18n import KEPT_WORDS

    return KEPT_WORDS


def formula_words(latex: str) -> list[str]:
    """The English words of a formula: its \\text{…} parts (the rest is symbols)."""
    return [w for part in _TEXT_COMMANDS.findall(latex) for w in words(part, math=False)]


def words(text: str, *, math: bool = True) -> list[str]:
    """The words of ``text`` outside the kept terms; inside ``$…$`` only \\text{…} counts."""
    if not isinstance(text, str) or not text:
        return []
    found = []
    if math:
        for block, inline in _MATH.findall(text):
            found += formula_words(block or inline)
        text = _MATH.sub(" ", text)
    text = html.unescape(_PLACEHOLDER.sub(" ", _MARKDOWN_NOISE.sub(" ", text)))
    for title in TITLES:
        text = text.replace(title, " ")
    kept = kept_words()
    return found + [w for w in WORD.findall(text) if w not in kept]


# --- where a page shows them ----------------------------------------------------------------

def _headers(proto) -> dict[str, str]:
    """Column name -> header shown, from a dataframe element's column configuration."""
    try:
        config = json.loads(proto.columns) if proto.columns else {}
    except ValueError:
        config = {}
    shown = {}
    for name, given in config.items():
        column = name[4:] if name.startswith("col:") else name
        if isinstance(given, dict):
            if given.get("hidden"):
                shown[column] = ""
            elif given.get("label") is not None:
                shown[column] = given["label"]
    return shown


def table_texts(at) -> Iterator[tuple[str, str]]:
    """(where, text) of every header, index entry and text cell of the page's tables."""
    for kind in ("dataframe", "table"):
        for element in at.get(kind):
            frame = element.value
            headers = _headers(element.proto) if kind == "dataframe" else {}
            order = list(element.proto.column_order) if kind == "dataframe" else []
            hide_index = headers.get("_index") == ""
            for column in frame.columns:
                names = column if isinstance(column, tuple) else (column,)
                label = headers.get(str(names[-1]), None)
                if label == "" or (order and str(names[-1]) not in order):
                    continue
                shown = [label] if label is not None else [str(n) for n in names]
                for s in shown:
                    yield "table header", s
                for cell in frame[column]:
                    if isinstance(cell, str):
                        yield "table cell", cell
                    elif cell is None:
                        yield "table cell", "None"
            if not hide_index and not _plain_range(frame.index):
                for entry in frame.index:
                    for s in (entry if isinstance(entry, tuple) else (entry,)):
                        yield "table index", str(s)


def _plain_range(index) -> bool:
    """Whether a frame's index is the default 0, 1, 2, … (Streamlit shows it as row numbers)."""
    try:
        return list(index) == list(range(len(index)))
    except TypeError:
        return False


_CHART_TEXT_KEYS = {"name", "hovertemplate", "texttemplate", "text", "hovertext", "ticktext",
                    "customdata", "labels"}


def _strings(value) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)
    elif isinstance(value, dict) and "bdata" not in value:  # numbers, base64-packed
        for v in value.values():
            yield from _strings(v)


def _title(obj) -> Iterator[str]:
    t = (obj or {}).get("title") if isinstance(obj, dict) else None
    if isinstance(t, dict):
        t = t.get("text")
    if isinstance(t, str):
        yield t


def unnamed_trace_shown(trace: dict) -> bool:
    """Whether Plotly shows a trace's name though it has none ("trace 2"): in the legend
    (shown there), or in the hover's box beside the values (hover on, no ``<extra>``)."""
    if trace.get("name"):
        return False
    if trace.get("showlegend") is True:
        return True
    hover = trace.get("hoverinfo", "all")
    if hover in ("skip", "none") or trace.get("type") in ("table",):
        return False
    template = trace.get("hovertemplate")
    if template is not None:
        return "<extra>" not in template
    return "all" in hover or "name" in hover


def figure_texts(spec: str) -> Iterator[tuple[str, str]]:
    """(where, text) of every text of a Plotly figure spec a reader sees."""
    fig = json.loads(spec)
    layout = fig.get("layout", {})
    yield from (("chart title", s) for s in _title(layout))
    yield from (("chart legend", s) for s in _title(layout.get("legend")))
    for key, axis in layout.items():
        if re.match(r"(x|y|z)axis\d*$", key) and isinstance(axis, dict):
            yield from (("chart axis", s) for s in _title(axis))
            yield from (("chart ticks", s) for s in _strings(axis.get("ticktext", [])))
            for c in axis.get("categoryarray", []) or []:
                if isinstance(c, str):
                    yield "chart axis category", c
        if key.startswith("coloraxis") and isinstance(axis, dict):
            yield from (("chart colour bar", s) for s in _title(axis.get("colorbar")))
    for a in layout.get("annotations", []) or []:
        if isinstance(a.get("text"), str):
            yield "chart annotation", a["text"]
    for menu in layout.get("updatemenus", []) or []:
        for b in menu.get("buttons", []) or []:
            if isinstance(b.get("label"), str):
                yield "chart button", b["label"]
    for index, trace in enumerate(fig.get("data", []) or []):
        if unnamed_trace_shown(trace):  # Plotly names it "trace 2" in its hover or legend
            yield "chart trace name", f"trace {index}"
        if True:
            for key in _CHART_TEXT_KEYS:
                for s in _strings(trace.get(key)):
                    yield f"chart trace {key}", s
            for s in _title(trace.get("legendgrouptitle") or {}):
                yield "chart legend group", s
            for s in _strings((trace.get("legendgrouptitle") or {}).get("text")):
                yield "chart legend group", s
            for axis in ("x", "y"):
                values = trace.get(axis)
                if isinstance(values, list) and values and all(
                        isinstance(v, str) for v in values):
                    for v in values:
                        yield "chart axis category", v
            marker = trace.get("marker") or {}
            yield from (("chart colour bar", s) for s in _title(marker.get("colorbar")))


def chart_texts(at) -> Iterator[tuple[str, str]]:
    for element in at.get("plotly_chart"):
        yield from figure_texts(element.proto.spec)


MESSAGE_KINDS = ("error", "warning", "info", "success", "caption", "exception", "toast")


def message_texts(at) -> Iterator[tuple[str, str]]:
    for kind in MESSAGE_KINDS:
        for element in at.get(kind):
            yield f"message ({kind})", str(element.value)


def formula_texts(at) -> Iterator[tuple[str, str]]:
    """st.latex bodies (each a formula whole), and every other text's $…$ (words() reads
    those where it meets them)."""
    for element in at.get("latex"):
        yield "formula", element.value


def english_on_page(at) -> list[tuple[str, str, str]]:
    """(where, word, the text it is in) of every English word or internal name the page
    shows in its tables, charts, formulas and messages."""
    found = []
    for where, text in table_texts(at):
        found += [(where, w, text) for w in words(text)]
    for where, text in chart_texts(at):
        found += [(where, w, text) for w in words(text)]
    for where, text in formula_texts(at):
        body = text.strip().strip("$")
        found += [(where, w, text) for w in formula_words(body)]
    for where, text in message_texts(at):
        found += [(where, w, text) for w in words(text)]
    for kind in ("markdown",):  # formulas inside Markdown prose
        for element in at.get(kind):
            for block, inline in _MATH.findall(str(element.value)):
                found += [("formula in text", w, block or inline)
                          for w in formula_words(block or inline)]
    return found


# N written as "50M" beside M, the number of bins (issue 36): no shown text says it.
MILLIONS = re.compile(r"(?<![\w.·])\d+(?:\.\d+)?M\b")
