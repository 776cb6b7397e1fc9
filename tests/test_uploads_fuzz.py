"""Fuzz test of dpcore.uploads.read_csv_upload: a hostile upload is refused plainly, never a crash.

Anyone can upload a file to the dashboard, so the CSV reader must hold for any input, not only
for the files written by hand in test_uploads.py. Hypothesis feeds it (1) arbitrary bytes and
byte soups of CSV fragments and broken UTF-8, (2) well-formed but strange CSV text: numbers in
every notation, CSV-injection payloads, Markdown, HTML and LaTeX links, right-to-left and
zero-width characters, quotes and embedded newlines, ragged rows, three delimiters, two line
ends, a byte-order mark, UTF-8, UTF-16 or Latin-1, and (3) grids of plain numbers around small
size limits. Every run must either return a DataFrame within the limits (at most max_rows rows
and max_columns columns, float64 columns of finite numbers, NaN only as padding at the end of a
shorter column) or raise UploadError with a plain message (non-empty, no traceback or exception
repr); any other exception fails the test, and a file over max_bytes is always refused. Grids of
plain numbers must come back as exactly those numbers.

This is the issue "Hostile uploads" target: the reader's fuzz test runs ≥ 2,000 examples in CI
(1,000 + 1,000 + 500 here) without an unexpected exception. Runs are derandomized and use no
example database, so CI and a developer see the same examples.
"""

import csv
import io

import numpy as np
import pandas as pd
from hypothesis import example, given, settings
from hypothesis import strategies as st

from dpcore.uploads import UploadError, read_csv_upload

DEFAULTS = {"max_bytes": 5_000_000, "max_rows": 100_000, "max_columns": 20}
MAX_MESSAGE = 400  # characters
# What a message must not contain unless the user's own file does (messages quote cells).
NOT_PLAIN = ("Traceback", "Error(", "<class", "Exception")


def limit(name, small):
    """The default limit, or one time in four a small one that the generated files can hit."""
    return st.integers(0, 3).flatmap(lambda k: small if k == 3 else st.just(DEFAULTS[name]))


limits = st.fixed_dictionaries({"max_bytes": limit("max_bytes", st.integers(1, 400)),
                                "max_rows": limit("max_rows", st.integers(1, 6)),
                                "max_columns": limit("max_columns", st.integers(1, 5))})


def check_contract(data: bytes, lim: dict):
    """Run the reader on `data` and check the contract.

    Returns (frame, None) when the file is read and (None, message) when it is refused.
    """
    try:
        frame = read_csv_upload(data, **lim)
    except UploadError as exc:  # any other exception propagates and fails the test
        message = str(exc)
        assert isinstance(message, str) and message.strip(), repr(exc)
        # It quotes a cell or name shortened: a message stays a sentence or two.
        assert len(message) <= MAX_MESSAGE, message
        echoed = data.decode("utf-8", errors="replace")
        for marker in NOT_PLAIN:
            assert marker not in message or marker in echoed, message
        return None, message
    assert len(data) <= lim["max_bytes"], "a file over max_bytes was read"
    assert isinstance(frame, pd.DataFrame)
    assert 1 <= frame.shape[1] <= lim["max_columns"], frame.shape
    assert 1 <= frame.shape[0] <= lim["max_rows"], frame.shape
    assert isinstance(frame.index, pd.RangeIndex) or all(isinstance(v, str) for v in frame.index)
    assert frame.columns.is_unique and all(isinstance(c, str) for c in frame.columns)
    for name in frame.columns:
        values = frame[name].to_numpy()
        assert values.dtype == np.float64, (name, values.dtype)
        n = int(np.isfinite(values).sum())
        assert n >= 1, f"column {name!r} has no finite value"
        assert np.isfinite(values[:n]).all() and np.isnan(values[n:]).all(), values
        assert np.abs(values[:n]).max() <= 1e15, values
    return frame, None


# ---------------------------------------------------------------------------
# (1) arbitrary bytes
# ---------------------------------------------------------------------------

FRAGMENTS = [
    b",", b";", b"\t", b"\n", b"\r", b"\r\n", b'"', b'""', b" ", b"\x00", b"\x0b", b"\x1c",
    b"0", b"1", b"9", b"-", b"+", b".", b"e", b"E", b"x", b"nan", b"inf", b"1e400", b"1,000",
    b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff", b"PK\x03\x04", b"\xc3\xa9", b"\xe2\x80\xae",
    b"\xe2\x80\x8b", b"\xd9\xa1", b"\xef\xbc\x91", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80",
    b"\xc0\x80", b"\x80", b"=1+2", b"@SUM(1)",
]
PLAIN = [b"1", b"-2.5", b"3e2", b",", b",", b"\n", b"\n", b"x"]
byte_inputs = st.one_of(
    st.binary(max_size=400),
    st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.sampled_from(PLAIN), st.binary(max_size=2)),
             max_size=60).map(b"".join),
)


@settings(max_examples=1000, deadline=None, derandomize=True, database=None)
@given(data=byte_inputs, lim=limits)
@example(data=b'"' + b"1" * 200_000 + b'"\n', lim=DEFAULTS)  # over csv's field size limit
@example(data=b"1\n" * 200_001, lim=DEFAULTS)  # over the default row limit
@example(data=b",".join([b"1"] * 21) + b"\n", lim=DEFAULTS)  # over the default column limit
def test_arbitrary_bytes_are_read_or_refused_plainly(data, lim):
    check_contract(data, lim)


# ---------------------------------------------------------------------------
# (2) well-formed but strange CSV text
# ---------------------------------------------------------------------------

NUMBER_CELLS = [
    "0", "-0", "42", "-17", "3.25", "-.5", "5.", "+4", "  3 ", "007", "1e3", "1E-300", "4.9e-324",
    "1e15", "-1e15", "1e16", "1e400", "-1e400", "123456789012345678901234567890", "nan", "NaN",
    "-nan", "inf", "-Infinity", "1,000", "1,234,567.5", "12,34", "1_000", "0x10", "0b1", "1/2",
    "\u0661\u0662\u0663", "\uff11\uff12\uff13", "\u0663\u066b\u0665", "\u00bd", "\u00b2",
    "1\u00a0000", "(5)", "5%", "$5", "1.2.3", "--1", "e5", ".", "-",
]
TEXT_CELLS = [
    "=1+2", "+cmd|calc", "@SUM(1)", "-2+3", '=HYPERLINK("http://example.org")', "\t=1", "\r=1",
    "[x](https://example.org)", "![i](https://example.org/p.png)", "<script>alert(1)</script>",
    "\\href{https://example.org}{x}", "$x^2$", "**bold**", "\u202eevil", "1\u200b", "\u200b",
    "\ufeff", "\ufeffx", '"', '""', 'a"b', "line\nbreak", "a\r\nb", "cr\ronly", "", " ", "\t",
    "0\u20134", "85+", "bin", "age", "column 1", "column 2", "x", "x (2)", "A", "A", "caf\u00e9",
    "\u5e74\u9f62", "\U0001f600", "a,b", "a;b", "None", "null", "TRUE", "#N/A",
]
cells = st.one_of(
    st.sampled_from(NUMBER_CELLS),
    st.sampled_from(TEXT_CELLS),
    st.integers(-(10**20), 10**20).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.floats(-1e16, 1e16).map(lambda x: f"{x:,.3f}"),
    st.text(max_size=6),
)

plain_numbers = st.one_of(st.integers(-(10**6), 10**6).map(str),
                          st.floats(-1e15, 1e15, allow_nan=False).map(repr))
LABELS = ["0\u20134", "5\u20139", "85+", "0", "84", "", "bin", "\u200b", "=1+2", "1,000"]


@st.composite
def csv_files(draw):
    """A CSV file built from strange cells, as bytes in some encoding."""
    if draw(st.booleans()):  # anything goes
        rows = draw(st.lists(st.lists(cells, max_size=6), max_size=8))
    else:  # numbers, with a few strange cells, bin labels and short rows
        nrows, ncols = draw(st.integers(1, 8)), draw(st.integers(1, 6))
        rows = [draw(st.lists(plain_numbers, min_size=ncols, max_size=ncols))
                for _ in range(nrows)]
        for _ in range(draw(st.integers(0, 2))):
            i, j = draw(st.integers(0, nrows - 1)), draw(st.integers(0, ncols - 1))
            rows[i][j] = draw(cells)
        if draw(st.booleans()):
            rows = [[draw(st.sampled_from(LABELS))] + row for row in rows]
        for i in range(nrows):
            if draw(st.integers(0, 7)) == 0:
                rows[i] = rows[i][:draw(st.integers(0, len(rows[i])))]
    if draw(st.booleans()):
        rows.insert(0, draw(st.lists(st.sampled_from(TEXT_CELLS), min_size=1, max_size=6)))
    delimiter = draw(st.sampled_from([",", ";", "\t"]))
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    style = draw(st.sampled_from(["minimal", "all", "raw"]))
    if style == "raw":  # joined as is: quotes and newlines in cells are left unbalanced
        text = newline.join(delimiter.join(row) for row in rows)
        text += draw(st.sampled_from(["", newline]))
    else:
        out = io.StringIO(newline="")
        quoting = csv.QUOTE_MINIMAL if style == "minimal" else csv.QUOTE_ALL
        writer = csv.writer(out, delimiter=delimiter, lineterminator=newline, quoting=quoting)
        writer.writerows(rows)
        text = out.getvalue()
    if draw(st.booleans()):
        text = "\ufeff" + text
    encoding = draw(st.sampled_from(["utf-8"] * 7 + ["utf-16", "utf-16-le", "latin-1"]))
    return text.encode(encoding, errors="replace")


@settings(max_examples=1000, deadline=None, derandomize=True, database=None)
@given(data=csv_files(), lim=limits)
def test_strange_csv_text_is_read_or_refused_plainly(data, lim):
    check_contract(data, lim)


# ---------------------------------------------------------------------------
# (3) plain numbers, around the size limits
# ---------------------------------------------------------------------------

finite = st.floats(-1e15, 1e15, allow_nan=False, allow_infinity=False)
header_names = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,7}", fullmatch=True).filter(
    lambda s: s.lower() not in {"inf", "nan", "infinity"})


@st.composite
def number_grids(draw):
    """A rectangular grid of plain numbers: (file bytes, the numbers, header or None)."""
    nrows, ncols = draw(st.integers(1, 8)), draw(st.integers(1, 6))
    values = np.array(draw(st.lists(finite, min_size=nrows * ncols, max_size=nrows * ncols)),
                      dtype=np.float64).reshape(nrows, ncols)
    delimiter = draw(st.sampled_from([",", ";", "\t"]))

    def write(x):
        kind = draw(st.sampled_from(["repr", "int", "padded", "plus", "grouped"]))
        if kind == "int" or (kind == "grouped" and delimiter == ","):
            x = float(round(x))
            return x, f"{int(x):,}" if kind == "grouped" else str(int(x))
        if kind == "padded":
            return x, f"  {x!r} "
        if kind == "plus" and not repr(x).startswith("-"):
            return x, f"+{x!r}"
        return x, repr(x)

    expected = np.empty_like(values)
    lines = []
    header = draw(st.one_of(st.none(), st.lists(header_names, min_size=ncols, max_size=ncols,
                                                unique=True)))
    out = io.StringIO(newline="")
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\n")
    if header is not None:
        writer.writerow(header)
    for i in range(nrows):
        row = []
        for j in range(ncols):
            expected[i, j], cell = write(float(values[i, j]))
            row.append(cell)
        lines.append(row)
    writer.writerows(lines)
    text = out.getvalue()
    if draw(st.booleans()):
        text = text.replace("\n", "\r\n")
    if draw(st.booleans()):
        text = "\ufeff" + text
    return text.encode("utf-8"), expected, header


@settings(max_examples=500, deadline=None, derandomize=True, database=None)
@given(grid=number_grids(), lim=limits)
def test_plain_numbers_come_back_exactly_within_the_limits(grid, lim):
    data, expected, header = grid
    nrows, ncols = expected.shape
    frame, message = check_contract(data, lim)
    # The limits are checked in this order: bytes, then columns (row by row), then rows.
    if len(data) > lim["max_bytes"]:
        assert "larger than the limit" in message
        return
    if ncols > lim["max_columns"]:
        assert f"{ncols} columns; at most {lim['max_columns']} columns" in message, message
        return
    if nrows > lim["max_rows"]:
        assert f"at most {lim['max_rows']:,} are allowed" in message, message
        return
    assert frame is not None, f"a valid file of numbers was refused: {data!r}"
    names = header if header is not None else [f"column {j + 1}" for j in range(ncols)]
    assert list(frame.columns) == names
    assert isinstance(frame.index, pd.RangeIndex) and len(frame) == nrows
    np.testing.assert_array_equal(frame.to_numpy(), expected)
