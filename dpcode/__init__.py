"""dpcode: a dashboard view as a runnable Python script and Jupyter notebook.

Pure functions of a view's settings (no Streamlit): each page's module builds a
:class:`Program` (markdown and code cells) that reproduces the page's numbers with
``dpcore`` calls and draws its figures with ``dpviz``; :func:`script_text` writes it as a
plain script and :func:`notebook_text` as a notebook (``nbformat``). One module per page:

- :mod:`dpcode.calibration` -- "Test calibration"
- :mod:`dpcode.compare`  -- "Compare two private histograms"
- :mod:`dpcode.gaussian` -- "Gaussian mechanism"
- :mod:`dpcode.ldp`      -- "Randomized response (local DP)"
- :mod:`dpcode.planner`  -- "Privacy–utility planner"
- :mod:`dpcode.substitution` -- "Random substitution"

What the page shows as a number, the program prints as ``label: value`` from a value it
computed (never a literal), so a test can run it and compare (``tests/test_dpcode.py``).
User text (a file's column name, a label) reaches the code only as a Python string literal
(:func:`literal`), never in a comment or as code.

The Markdown cells and the words the code prints are in the reader's language (through
:func:`dpviz.text._`, as the figures' words; the pages pass their labels translated); the
code and its comments stay English.
"""

from __future__ import annotations

import json
import textwrap
from dataclasses import dataclass, field

import numpy as np

from dpcode import wheel
from dpviz.text import _

__all__ = ["Cell", "Code", "Program", "literal", "show", "array_literal", "script_text", "notebook_text",
           "read_printed", "EMBED_LIMIT"]

#: Numbers of uploaded data written into the code; more are read from a CSV file saved
#: beside the script (:attr:`Program.files`).
EMBED_LIMIT = 2_000


@dataclass(frozen=True)
class Cell:
    """One step of a program: Markdown text, or Python code (``script``: the code the plain
    script runs instead, when it differs, e.g. writing a figure to a file rather than
    showing it inline)."""

    kind: str  # "markdown" or "code"
    text: str
    script: str | None = None


@dataclass(frozen=True)
class Program:
    """A view as code: its title, the link it reproduces, its cells and the data files the
    code reads (file name -> CSV text), saved beside the script."""

    title: str
    link: str
    stem: str  # the file names' stem: <stem>.py, <stem>.ipynb
    cells: tuple[Cell, ...]
    files: dict[str, str] = field(default_factory=dict)


class Code(str):
    """Python source to be written as it is (e.g. ``Code("1.0 / 1.5")``): a value the code
    computes from settings, so that the code shows how, rather than its result."""


def literal(value) -> str:
    """``value`` (str, int, float, bool, None, list or tuple of them) as Python source that
    evaluates to it: ``repr`` for strings (quotes, backslashes, newlines and any Unicode
    round-trip) and floats (the shortest text that reads back to the same float); a
    :class:`Code` as it is."""
    if isinstance(value, Code):
        return str(value)
    if isinstance(value, (bool, type(None), str, int)):
        return repr(value)
    if isinstance(value, (float, np.floating)):
        value = float(value)
        if not np.isfinite(value):
            return f"float({str(value)!r})"
        return repr(value)
    if isinstance(value, np.integer):
        return repr(int(value))
    if isinstance(value, (list, tuple)):
        inner = ", ".join(literal(v) for v in value)
        return f"[{inner}]" if isinstance(value, list) else f"({inner}{',' if len(value) == 1 else ''})"
    raise TypeError(f"no literal for {type(value).__name__}")


def array_literal(values, per_line: int = 10) -> str:
    """A 1-d array as ``np.array([...])`` source, wrapped ``per_line`` numbers a line; whole
    numbers are written as integers, with dtype float when the values are float."""
    arr = np.asarray(values)
    whole = arr.dtype.kind in "iu" or bool(np.all(np.isfinite(arr)) and np.all(arr == np.round(arr)))
    items = [literal(int(v)) if whole else literal(float(v)) for v in arr.ravel()]
    lines = [", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]
    body = (",\n    ".join(lines))
    dtype = ", dtype=float" if arr.dtype.kind == "f" else ""
    if len(lines) <= 1:
        return f"np.array([{body}]{dtype})"
    return f"np.array([\n    {body},\n]{dtype})"


def show(fig: str, file: str, script: bool, indent: str = "") -> str:
    """Code that shows the figure ``fig``: inline in a notebook, written to the HTML ``file``
    by a script (which says where)."""
    if script:
        written = literal(_("Chart written to {file}", file=file))
        return f"{indent}{fig}.write_html({file!r})\n{indent}print({written})"
    return f"{indent}{fig}.show()"


def _header(program: Program, versions: dict[str, str]) -> list[Cell]:
    check = "\n".join([
        "import warnings",
        "",
        "import numpy as np",
        "",
        "import dpcore",
        "",
        "# Generated with these versions (dpcore's: the release and the build id of the wheel",
        "# above): the same seed gives the same random draws only with the same versions.",
        f"GENERATED_WITH = {{'dpcore': {versions['dpcore']!r}, 'numpy': {versions['numpy']!r}}}",
        "running = {'dpcore': dpcore.__version__, 'numpy': np.__version__}",
        "if running != GENERATED_WITH:",
        "    warnings.warn(f'This code was generated with {GENERATED_WITH} and runs with "
        "{running}: '",
        "                  'random draws, and so the numbers, may differ from the dashboard.',",
        "                  stacklevel=1)",
    ])
    # The install command on a line of its own, indented (a Markdown code block): the
    # script's comment keeps it whole, ready to copy.
    install = _("It runs with Python 3.11 or later and the dpcore package the dashboard "
                "runs: save the wheel `{wheel}` (the Code button's download) beside this file "
                "and install it with\n\n    {command}\n\npip takes numpy, scipy, pandas and "
                "plotly from the package index.",
                wheel=wheel.wheel_name(versions["dpcore"]),
                command=wheel.install_command(versions["dpcore"]))
    intro = [_("This code reproduces the numbers and figures of the dashboard view at\n<{link}>",
               link=program.link)] if program.link else []
    return [
        Cell("markdown", "\n\n".join([f"# {program.title}", *intro, install])),
        Cell("code", check),
    ]


def versions() -> dict[str, str]:
    """The versions of dpcore and numpy this process runs: dpcore's is the version of the
    wheel the dashboard hands over (:func:`dpcode.wheel.build_version`, the release and the
    build id), which that wheel, installed, reports as ``dpcore.__version__``."""
    return {"dpcore": wheel.build_version(), "numpy": np.__version__}


def all_cells(program: Program) -> list[Cell]:
    return [*_header(program, versions()), *program.cells]


def _comment(markdown: str) -> str:
    """Markdown as comment lines of at most 88 characters."""
    lines = []
    for line in markdown.splitlines():
        lines += textwrap.wrap(line, 86, break_long_words=False, break_on_hyphens=False) or [""]
    return "\n".join(f"# {line}".rstrip() for line in lines)


def script_text(program: Program) -> str:
    """The program as a plain Python script (Markdown cells as comments)."""
    cells = all_cells(program)
    title = program.title.replace('"""', "'''")
    parts = [f'"""{title}: the dashboard view as a script (generated by the dashboard)."""']
    for cell in cells:
        if cell.kind == "markdown":
            parts.append(_comment(cell.text))
        else:
            parts.append(cell.script if cell.script is not None else cell.text)
    return "\n\n".join(parts) + "\n"


def notebook_text(program: Program) -> str:
    """The program as a Jupyter notebook (nbformat 4), as JSON text."""
    import nbformat  # noqa: PLC0415 - only the notebook needs it
    from nbformat import v4

    cells = [v4.new_markdown_cell(c.text) if c.kind == "markdown" else v4.new_code_cell(c.text)
             for c in all_cells(program)]
    nb = v4.new_notebook(cells=cells, metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
        "language_info": {"name": "python"},
    })
    nbformat.validate(nb)
    return nbformat.writes(nb)


def read_printed(output: str) -> dict[str, object]:
    """The ``label: value`` lines a program printed, label -> value (a number, or the text
    after the last ": " when it is not one; a label may hold ": " itself)."""
    found: dict[str, object] = {}
    for line in output.splitlines():
        label, sep, value = line.rpartition(": ")
        if not sep:
            continue
        try:
            found[label] = json.loads(value)
        except ValueError:  # (print writes an infinite float as Python does: inf, -inf)
            found[label] = float(value) if value in ("inf", "-inf") else value
    return found
