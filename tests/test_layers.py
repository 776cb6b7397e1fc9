"""The layers: dpcore is numerics only, so importing all of it loads neither Plotly nor
Streamlit (figures and the report are dpviz's, the pages are the views')."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Run in a fresh interpreter: in this one, other tests have long imported both.
IMPORT_ALL = """
import importlib, pkgutil, sys
import dpcore
names = sorted(m.name for m in pkgutil.iter_modules(dpcore.__path__))
for name in names:
    importlib.import_module(f"dpcore.{name}")
print(",".join(names))
print(",".join(sorted(m for m in ("plotly", "streamlit", "dpviz") if m in sys.modules)))
"""


def test_importing_every_dpcore_module_loads_neither_plotly_nor_streamlit():
    done = subprocess.run([sys.executable, "-c", IMPORT_ALL], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, check=True)
    imported, loaded = done.stdout.splitlines()
    assert {"histogram", "homogeneity", "study"} <= set(imported.split(","))
    assert loaded == ""
