"""The README's class-capacity curve from benchmarks/capacity.py's results.

    .venv/bin/python benchmarks/capacity_curve.py                 # benchmarks/capacity.json
    .venv/bin/python benchmarks/capacity_curve.py results.json --out docs/class_capacity.png

Draws p95 latency (change → `script_finished`) against the number of simulated students,
one line per replica count, solid for every page's changes and dotted for all but the
planner's searches, with the 1 s target; saves it as HTML beside the picture and as a PNG
taken by Debian's Chromium (Playwright, as the browser tests drive it).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import plotly.graph_objects as go

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from browserkit import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from dpviz.style import _LAYOUT, OKABE_ITO  # noqa: E402

COLORS = [OKABE_ITO["blue"], OKABE_ITO["vermillion"], OKABE_ITO["bluish green"]]


def curve(results: list[dict]) -> go.Figure:
    fig = go.Figure()
    for i, n in enumerate(sorted({r["replicas"] for r in results})):
        rows = sorted((r for r in results if r["replicas"] == n), key=lambda r: r["students"])
        name = "1 process" if n == 1 else f"{n} replicas behind HAProxy"
        color = COLORS[i % len(COLORS)]
        fig.add_trace(go.Scatter(
            x=[r["students"] for r in rows], y=[r["p95"] for r in rows], mode="lines+markers",
            name=name, line=dict(color=color, width=3)))
    fig.add_hline(y=1.0, line=dict(color="#7F7F7F", dash="dash"))
    fig.add_annotation(x=1, xref="paper", y=0, yref="y", text="target: p95 = 1 s",  # log10(1)
                       showarrow=False, xanchor="right", yanchor="bottom")
    ticks = [0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20]
    fig.update_layout(
        **{**_LAYOUT, "legend": dict(orientation="v", x=0, y=-0.22, xanchor="left",
                                     yanchor="top"),
           "margin": dict(l=70, r=20, t=60, b=40)},
        width=900, height=560, title="Simulated students (a change every 5 s each) on 2 cores",
        xaxis_title="students", yaxis_title="p95 latency, change → result (s)")
    fig.update_yaxes(type="log", tickvals=ticks, ticktext=[f"{v:g}" for v in ticks])
    return fig


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", nargs="?", default=str(ROOT / "benchmarks" / "capacity.json"))
    parser.add_argument("--out", default=str(ROOT / "docs" / "class_capacity.png"))
    args = parser.parse_args()
    fig = curve(json.loads(Path(args.results).read_text()))
    out = Path(args.out)
    html = out.with_suffix(".html")
    fig.write_html(html, include_plotlyjs=True, full_html=True)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 920, "height": 580})
        page.goto(html.resolve().as_uri())
        page.wait_for_selector(".main-svg")
        page.locator(".plot-container").first.screenshot(path=str(out))
        browser.close()
    html.unlink()
    print(f"{out.relative_to(ROOT) if out.is_relative_to(ROOT) else out}")


if __name__ == "__main__":
    main()
