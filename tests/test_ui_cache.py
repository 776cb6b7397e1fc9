"""ui.cache.counted: a Streamlit cache that counts its calls and its computations (the
class benchmarks report the hit rate from these counts)."""

from __future__ import annotations

import json

import streamlit as st

from ui import cache


def test_counted_cache_counts_calls_and_misses_and_writes_them_when_asked(tmp_path, monkeypatch):
    path = tmp_path / "stats.json"
    monkeypatch.setenv(cache.STATS_ENV, str(path))
    runs = []

    @cache.counted(st.cache_data(max_entries=4, show_spinner=False))
    def square(x: int, _note: str = "") -> int:
        """A cached square (``_note`` is not part of the key, as Streamlit's rule says)."""
        runs.append(x)
        return x * x

    square.clear()
    assert [square(3), square(3, _note="again"), square(4), square(3)] == [9, 9, 16, 9]
    assert runs == [3, 4]  # computed once per key: the cache is Streamlit's, keyed as ever
    name = f"{square.__module__}.{square.__qualname__}"
    assert cache.stats()[name] == (4, 2)
    assert json.loads(path.read_text())[name] == [4, 2]
    assert square.__doc__.startswith("A cached square")
