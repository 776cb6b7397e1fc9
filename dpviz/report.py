"""One-page HTML reports: parameters, plain-language findings, figures and tables.

A report is a single self-contained HTML file (plotly.js inlined once), to be
sent to someone without the dashboard. Every text is HTML-escaped, so names
taken from uploads cannot inject markup. The report's own words (headings, the line
saying when it was made) are in the reader's language (:mod:`dpviz.text`).
"""

from __future__ import annotations

import datetime as _dt
import html

import pandas as pd

from dpviz.describe import figure_summary
from dpviz.text import _

__all__ = ["html_report"]

_STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; max-width: 60rem;
       margin: 2rem auto; padding: 0 1rem; color: #1f2430; line-height: 1.5; }
h1 { font-size: 1.6rem; margin-bottom: 0.2rem; }
h2 { font-size: 1.2rem; margin-top: 2rem; border-bottom: 1px solid #ddd; }
.meta { color: #666; font-size: 0.9rem; }
.finding { font-size: 1.1rem; background: #f3f6fb; border-left: 4px solid #0072B2;
           padding: 0.6rem 1rem; margin: 0.6rem 0; }
table { border-collapse: collapse; font-size: 0.9rem; margin: 0.5rem 0; }
th, td { border: 1px solid #ddd; padding: 0.25rem 0.6rem; text-align: right; }
th { background: #f5f5f5; }
td.key { text-align: left; font-weight: 600; }
.note { color: #555; font-size: 0.9rem; }
.summary { color: #333; font-size: 0.95rem; }
"""


def _table(frame: pd.DataFrame) -> str:
    return frame.to_html(index=False, border=0, escape=True, na_rep="–",
                         float_format=lambda v: f"{v:.4g}")


def html_report(title: str, *, findings=(), parameters=None, figures=(), tables=(), notes=(),
                source: str = "", lang: str = "en") -> str:
    """The report as an HTML string.

    Parameters
    ----------
    title : str
    findings : sequence of str
        Plain-language sentences, shown first.
    parameters : mapping of str to str, optional
        The settings behind the results.
    figures : sequence of (caption, plotly.graph_objects.Figure)
    tables : sequence of (caption, pandas.DataFrame)
    notes : sequence of str
        Method notes and caveats, shown last.
    source : str
        Where the report comes from (e.g. the dashboard's address).
    lang : str
        The language the report is written in, for the page's ``lang`` attribute (BCP 47,
        e.g. "ko").
    """
    esc = html.escape
    stamp = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    parts = [
        "<!DOCTYPE html>", f'<html lang="{esc(lang, quote=True)}"><head><meta charset="utf-8">',
        f"<title>{esc(title)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{esc(title)}</h1>",
        '<p class="meta">' + esc(_("Generated {stamp} from {source}.", stamp=stamp, source=source)
                                 if source else _("Generated {stamp}.", stamp=stamp)) + "</p>",
    ]
    if findings:
        parts.append(f"<h2>{esc(_('Findings'))}</h2>")
        parts += [f'<p class="finding">{esc(s)}</p>' for s in findings]
    if parameters:
        parts.append(f"<h2>{esc(_('Settings'))}</h2><table>")
        parts += [f'<tr><td class="key">{esc(str(k))}</td><td>{esc(str(v))}</td></tr>'
                  for k, v in parameters.items()]
        parts.append("</table>")
    first = True
    for caption, fig in figures:
        parts.append(f"<h2>{esc(caption)}</h2>")
        # The figure in one sentence, as the page gives it to screen readers (issue 24).
        parts.append(f'<p class="summary">{esc(figure_summary(fig))}</p>')
        parts.append(fig.to_html(full_html=False, include_plotlyjs=first,
                                 config={"displaylogo": False}))
        first = False
    for caption, frame in tables:
        parts.append(f"<h2>{esc(caption)}</h2>")
        parts.append(_table(frame))
    if notes:
        parts.append(f"<h2>{esc(_('Notes'))}</h2>")
        parts += [f'<p class="note">{esc(s)}</p>' for s in notes]
    parts.append("</body></html>")
    return "\n".join(parts)
