"""The protocol-level client (tests/protocolkit.py) against a real `streamlit run app.py`:
it opens every routed page and moves every slider on it to a value drawn across its range,
as the browser would; each run ends successfully with no exception element, and the
slider comes back at the value sent (so the server took the change as the browser's)."""

from __future__ import annotations

from urllib.parse import urlsplit

import numpy as np
import pytest

from browserkit import running_server, stop_streamlit
from conftest import routed_pages
from protocolkit import ProtocolSession, other_value, with_param
from ui import registry
from ui.sources import SOURCE_LABELS, UPLOAD


@pytest.fixture(scope="module")
def host(tmp_path_factory):
    server = running_server(tmp_path_factory.mktemp("protocol") / "server.log")
    yield urlsplit(server.url).netloc
    stop_streamlit(server.proc)


@pytest.mark.parametrize("spec", routed_pages(), ids=lambda p: p.url_path or "home")
def test_the_protocol_client_opens_every_page_and_moves_its_sliders(host, spec):
    rng = np.random.default_rng(20)
    with ProtocolSession(host, spec.url_path) as session:
        first = session.open()
        assert first.ok, first.exceptions
        assert first.elements
        if spec not in registry.TOOL_PAGES:
            return  # the start page and the Class pages (their sliders sit in forms)
        sliders = session.sliders()
        assert sliders, "a tool page with no slider"
        before = drawn(first)
        for key, element in sliders.items():
            value = other_value(element.slider, rng)
            run = session.set_slider(key, value)
            assert run.ok, (key, value, run.exceptions)
            # The server took the change as the browser's: the page it draws is another.
            now = drawn(run)
            assert now != before, (key, value)
            before = now


def drawn(run) -> list[bytes]:
    """What a run drew, apart from the widgets themselves (whose protos hold defaults)."""
    return [e.SerializeToString() for e in run.elements]


def test_the_protocol_client_uploads_a_file_as_the_browser_does(host):
    """compare_histograms with histogram A from an uploaded file (its address: source A is
    the upload): before the upload the page waits for a file. The client uploads a CSV of
    18 counts (the 5-year age groups histogram B, a population, is binned into) into the
    uploader ``cmp_file``; the rerun computes with the file: A's true N shown is the file's
    total. A later change keeps the file (the uploader's state goes with every rerun)."""
    counts = np.random.default_rng(20).integers(50, 1000, size=18)
    csv = ("count\n" + "\n".join(map(str, counts)) + "\n").encode()
    true_n = f"true N = {int(counts.sum()):,}"
    query = with_param("", "cmp_a", [SOURCE_LABELS[UPLOAD]])
    with ProtocolSession(host, registry.COMPARE.url_path, query) as session:
        waiting = session.open()
        assert waiting.ok, waiting.exceptions
        assert any(text.startswith("Upload a CSV file") for text in texts(waiting))
        assert true_n not in texts(waiting)
        run = session.upload("cmp_file", "counts.csv", csv)
        assert run.ok, run.exceptions
        assert true_n in texts(run), texts(run)
        assert not any(text.startswith("Upload a CSV file") for text in texts(run))
        slider = session.sliders()["cmp_alpha_a"].slider
        run = session.set_slider("cmp_alpha_a", other_value(slider, np.random.default_rng(20)))
        assert run.ok, run.exceptions
        assert true_n in texts(run)


def texts(run) -> list[str]:
    """The text a run drew: Markdown (captions too) and alerts."""
    return [getattr(e, kind).body for e in run.elements
            if (kind := e.WhichOneof("type")) in ("markdown", "alert")]
