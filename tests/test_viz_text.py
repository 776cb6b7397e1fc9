"""dpviz.text: the figures' words pass through _(), English unless a translation is plugged in
for the current context (a script run's thread)."""

import contextvars

import numpy as np

import dpviz
from dpviz.text import N_, _, use_translation
from vizkit import data_traces, legend_entries


def in_own_context(function):
    """``function()`` run in a copy of this context, so that a translation it sets stays there."""
    return contextvars.copy_context().run(function)


def test_english_by_default_and_values_fill_fields_but_not_plotly_fields():
    assert _("density") == "density"
    assert N_("density") == "density"
    assert _("observed T = {t}", t="3.1") == "observed T = 3.1"
    assert _("%{x}<br>estimate %{y:,.1f}<extra>{name}</extra>", name="A {b}") == \
        "%{x}<br>estimate %{y:,.1f}<extra>A {b}</extra>"
    assert _("no values: {braces} %{x} kept") == "no values: {braces} %{x} kept"


def test_a_translation_applies_in_its_context_only():
    korean = {"density": "밀도", "observed T = {t}": "관측된 T = {t}"}.get

    def translated():
        use_translation(lambda text: korean(text) or text)
        fig = dpviz.gaussian.histogram_release_figure(["a"], [1.0], [1.5], half_width=1.0)
        loss = dpviz.gaussian.privacy_loss_figure(0.5, 1.0, 1.0, tail_delta=0.1,
                                                  exact_delta=0.05)
        return _("observed T = {t}", t="2"), fig, loss

    text, fig, loss = in_own_context(translated)
    assert text == "관측된 T = 2"
    assert loss.layout.yaxis.title.text == "밀도"
    assert fig.data[0].name == "true count"  # no translation given: English
    # this context never set one
    assert _("observed T = {t}", t="2") == "observed T = 2"
    assert dpviz.gaussian.privacy_loss_figure(
        0.5, 1.0, 1.0, tail_delta=0.1, exact_delta=0.05).layout.yaxis.title.text == "density"


def test_every_builder_runs_translated():
    """A translation that changes every text (and moves a message's fields) leaves Plotly's
    fields intact and breaks no figure."""
    def translated():
        use_translation(lambda text: "«" + text + "»")
        fig = dpviz.fdp.attacker_test_figure(np.linspace(-3, 4, 30),
                                             np.exp(-np.linspace(-3, 4, 30) ** 2),
                                             np.exp(-(np.linspace(-3, 4, 30) - 1) ** 2), 0.5,
                                             alpha=0.1, beta=0.2)
        return fig, dpviz.report.html_report("T", notes=["n"])

    fig, report = in_own_context(translated)
    assert fig.layout.xaxis.title.text == "«output X»"
    assert data_traces(fig)[-1].hovertemplate == \
        "«x %{x:.2f}<br>density %{y:.3f}<extra>«output on D′»</extra>»"
    assert list(legend_entries(fig)) == ["«threshold t = 0.5: reject D if X > t»"]
    assert "<h2>«Notes»</h2>" in report
