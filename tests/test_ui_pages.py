"""ui.pages: every page of the registry has its logic module, whose settings are one frozen
dataclass (what the URL holds; what the report and a code generator read)."""

from __future__ import annotations

import dataclasses
import importlib

import pytest

from ui import registry

PAGES = list(registry.TOOL_PAGES)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_page_gathers_its_settings_in_one_frozen_dataclass(page):
    module = importlib.import_module(f"ui.pages.{page.name}")
    settings = module.Settings
    assert dataclasses.is_dataclass(settings) and settings.__dataclass_params__.frozen
    assert callable(getattr(settings, "report_items", None))
    assert "tab" in {f.name for f in dataclasses.fields(settings)} or page is registry.COMPARE
