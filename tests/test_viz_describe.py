"""dpviz.describe: every figure in one sentence and as a table (issue 24: charts for screen
readers). The sentence's ranges and the table's rows are checked against the figure's own
numbers (dpviz.export.figure_data), read independently here."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest

from dpviz import describe
from dpviz.export import figure_data
from dpviz.style import is_legend_entry, legend_entry
from dpviz.text import use_translation
from vizkit import every_figure

FIGURES = every_figure()
IDS = [label for label, _, _ in FIGURES]
SUPERSCRIPTS = str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")


def read_number(text: str) -> float:
    """A number as describe writes it ("1,234", "5×10⁻⁵", "10⁻³") back to a float."""
    power = re.fullmatch(r"(-?)(?:([\d.]+)×)?10([⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)", text)
    if power:
        sign, mantissa, exponent = power.groups()
        return float(f"{sign}{mantissa or 1}") * 10 ** int(exponent.translate(SUPERSCRIPTS))
    return float(text.replace(",", ""))


@pytest.mark.parametrize(("value", "text"), [
    (0, "0"), (0.05, "0.05"), (0.123456, "0.1235"), (1, "1"), (999.96, "1,000"),
    (1234.5, "1,234"), (20_000, "20,000"), (-30, "-30"), (5e-5, "5×10⁻⁵"), (1e-3, "0.001"),
    (9.999e-4, "9.999×10⁻⁴"), (9.99996e-4, "10⁻³"), (2.5e9, "2.5×10⁹"), (1e-7, "10⁻⁷"), (-4.2e-6, "-4.2×10⁻⁶")])
def test_numbers_are_written_as_the_axes_write_them(value, text):
    assert describe._number(value) == text
    assert read_number(text) == pytest.approx(value, rel=1e-3, abs=1e-12)


@pytest.mark.parametrize(("label", "fig", "builder"), FIGURES, ids=IDS)
def test_the_summary_is_one_sentence_with_the_figures_axes_series_and_ranges(label, fig,
                                                                             builder):
    summary = describe.figure_summary(fig)
    assert summary.endswith(".") and "\n" not in summary and "<" not in summary, summary
    data = figure_data(fig)
    if data.empty:
        assert "no data" in summary
        return
    # Every series it names is a data trace of the figure, never a legend entry of a line
    # or band (those name shapes, not data).
    names = [t.name for t in fig.data if not is_legend_entry(t) and t.name]
    entries = [t.name for t in fig.data if is_legend_entry(t)]
    for name in names[:describe.SERIES_NAMED]:
        assert re.sub(r"<[^>]+>", " ", name).split()[0] in summary, (name, summary)
    for entry in entries:
        assert entry not in summary or entry in " ".join(names), (entry, summary)
    # The value range it gives is the figure's: the smallest and largest y plotted (x for a
    # histogram, whose counts Plotly makes), to the 4 digits written.
    values = [v for v in re.findall(r"from (\S+) to (\S+?)[.,]?(?: |$)", summary)]
    assert values, summary
    low, high = (read_number(v.rstrip(".,")) for v in values[-1])
    hist = all(t.type == "histogram" for t in fig.data if not is_legend_entry(t))
    horizontal = all(getattr(t, "orientation", None) == "h" for t in fig.data
                     if not is_legend_entry(t))
    column = "x" if hist or horizontal else "y"
    plotted = pd.to_numeric(data[column], errors="coerce").dropna()
    plotted = plotted[np.isfinite(plotted)]
    assert low == pytest.approx(plotted.min(), rel=1e-3, abs=1e-300), summary
    assert high == pytest.approx(plotted.max(), rel=1e-3, abs=1e-300), summary


def test_a_category_axis_is_counted_and_its_ends_named():
    fig = go.Figure([go.Bar(x=["a", "b", "c"], y=[3, 1, 2], name="A"),
                     go.Bar(x=["a", "b", "c"], y=[0, 5, 1], name="B"),
                     legend_entry("critical value", color="#000000")])
    fig.update_layout(xaxis_title="category", yaxis_title="users")
    assert describe.figure_summary(fig) == (
        "Bar chart of users for 3 values of category (a to c), for A; B: users from 0 to 5.")


def test_many_series_are_counted_not_all_named():
    fig = go.Figure([go.Scatter(x=[0, 1], y=[i, i + 1], name=f"s{i}", mode="lines")
                     for i in range(8)])
    fig.update_layout(xaxis_title="t", yaxis_title="v")
    assert describe.figure_summary(fig) == (
        "Line chart of v against t, for s0; s1; s2; s3; s4 and 3 more: t from 0 to 1, "
        "v from 0 to 8.")


def test_a_histogram_gives_the_range_of_its_values():
    rng = np.random.default_rng(7)
    draws = rng.normal(size=500)
    fig = go.Figure([go.Histogram(x=draws, name="null")])
    fig.update_layout(xaxis_title="statistic")
    assert describe.figure_summary(fig) == (
        f"Histogram of statistic, for null: values from {describe._number(draws.min())} "
        f"to {describe._number(draws.max())}.")


def test_the_summary_is_in_the_readers_language():
    from ui.text import catalog

    fig = go.Figure([go.Scatter(x=[0, 1], y=[0.5, 1], mode="lines", name="A")])
    fig.update_layout(xaxis_title="ε", yaxis_title="δ(ε)")
    use_translation(catalog("ko").gettext)
    try:
        korean = describe.figure_summary(fig)
        table, _ = describe.figure_table(fig)
    finally:
        use_translation(None)
    assert korean == "ε에 따른 δ(ε)의 선그래프(A): ε는 0에서 1까지, δ(ε)는 0.5에서 1까지."
    assert list(table.columns) == ["계열", "ε", "δ(ε)"]


@pytest.mark.parametrize(("label", "fig", "builder"), FIGURES, ids=IDS)
def test_the_table_is_the_figures_data_under_its_axes_titles(label, fig, builder):
    table, total = describe.figure_table(fig)
    data = figure_data(fig)
    assert total == len(data)
    assert len(table) == min(total, describe.TABLE_ROWS)
    assert len(table.columns) == len(data.columns)
    assert len(set(table.columns)) == len(table.columns)
    titles = {fig.layout.xaxis.title.text, fig.layout.yaxis.title.text} - {None}
    assert {re.sub(r"<[^>]+>", " ", t).strip() for t in titles} <= {
        " ".join(str(c).split()) for c in table.columns} | {"x", "y"} | set(table.columns)
    # Same rows, in the same order, numbers to 4 significant digits.
    for column, header in zip(data.columns, table.columns):
        if column in ("trace", "subplot"):
            continue
        wanted = pd.to_numeric(data[column].head(len(table)), errors="coerce")
        if wanted.notna().sum() != data[column].head(len(table)).notna().sum():
            assert list(table[header]) == list(data[column].head(len(table))), column
            continue
        for got, want in zip(table[header], wanted):
            if pd.isna(want):
                assert got == "–"
            else:
                assert read_number(got) == pytest.approx(want, rel=1e-3, abs=1e-300), column
    if "subplot" in data:  # panels numbered in the order they are drawn
        panels = list(dict.fromkeys(data["subplot"]))
        assert list(table["panel"]) == [str(panels.index(s) + 1)
                                        for s in data["subplot"].head(len(table))]
