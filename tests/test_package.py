"""The dpcore package: its __all__ and docstring name every public module."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import dpcore

# Moving to the dpviz package (they draw and write HTML; dpcore computes). Once they are gone
# this set subtracts nothing.
LEAVING = {"figures", "report"}


def public_modules() -> set[str]:
    folder = Path(dpcore.__file__).parent
    return {p.stem for p in folder.glob("*.py") if not p.stem.startswith("_")} - LEAVING


def test_all_lists_every_public_module():
    assert sorted(dpcore.__all__) == dpcore.__all__
    assert set(dpcore.__all__) == public_modules()
    assert not LEAVING & set(dpcore.__all__)


def test_every_listed_module_imports():
    for name in dpcore.__all__:
        importlib.import_module(f"dpcore.{name}")


def test_docstring_has_one_entry_per_module():
    listed = re.findall(r"^- :mod:`dpcore\.(\w+)`", dpcore.__doc__, flags=re.MULTILINE)
    assert listed == dpcore.__all__
