"""The protocol-level client (tests/protocolkit.py) against a real `streamlit run app.py`:
it opens every routed page and moves every slider on it to a value drawn across its range,
as the browser would; each run ends successfully with no exception element, and the
slider comes back at the value sent (so the server took the change as the browser's)."""

from __future__ import annotations

from urllib.parse import urlsplit

import numpy as np
import pytest

from browserkit import start_streamlit, stop_streamlit
from conftest import routed_pages
from protocolkit import ProtocolSession, other_value


@pytest.fixture(scope="module")
def host(tmp_path_factory):
    try:
        server = start_streamlit(tmp_path_factory.mktemp("protocol") / "server.log")
    except RuntimeError as exc:
        pytest.fail(str(exc), pytrace=False)
    yield urlsplit(server.url).netloc
    stop_streamlit(server.proc)


@pytest.mark.parametrize("spec", routed_pages(), ids=lambda p: p.url_path or "home")
def test_the_protocol_client_opens_every_page_and_moves_its_sliders(host, spec):
    rng = np.random.default_rng(20)
    with ProtocolSession(host, spec.url_path) as session:
        first = session.open()
        assert first.ok, first.exceptions
        assert first.elements
        sliders = session.sliders()
        if spec.url_path:
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
