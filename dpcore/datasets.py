"""Population tables, the paper's bin shapes, binning and CSV upload parsing.

The shipped table ``dpcore/data/population_age_2020.csv`` holds the 2020
population by single year of age (0..84 and 85+) of the USA and of Korea, the
latter also split into the central and noncentral regions; see
``dpcore/data/README.md`` for its provenance.

The shapes of `shape_probabilities` are the multinomial parameters p0 of
Son, Park & Jung (2022), section 2.3.
"""

from __future__ import annotations

import csv
import functools
import importlib.resources
import io
import re

import numpy as np
import pandas as pd
from scipy import stats

from dpcore.validation import (
    finite_scalar,
    integer_in_range,
    one_of,
    probabilities,
    real_vector,
)

__all__ = [
    "AGE_WIDTHS",
    "POPULATIONS",
    "SHAPES",
    "UploadError",
    "age_bin_index",
    "age_bin_labels",
    "age_groups",
    "age_histogram",
    "regroup_ages",
    "bin_values",
    "categories_from_column",
    "check_same_length",
    "counts_from_column",
    "draw_histogram",
    "load_population",
    "proportions",
    "read_answers_upload",
    "read_csv_upload",
    "shape_counts",
    "shape_probabilities",
]

POPULATIONS = {
    "usa": "USA",
    "korea": "Korea",
    "korea_central": "Korea central (Seoul, Incheon, Gyeonggi)",
    "korea_noncentral": "Korea noncentral (other 14 regions)",
}

SHAPES = {"uniform": "Uniform", "increasing": "Increasing", "normal": "Normal"}

AGE_WIDTHS = (1, 5, 10)

_DATA_FILE = "population_age_2020.csv"
_TOP_AGE = 85          # last row of the table: 85 and over
_MAX_M = 100_000
_MAX_N = 10**12
_MAX_MAGNITUDE = 1e15
_EN_DASH = "\u2013"
_EMPTY = "The file is empty. Upload a CSV file with at least one column of numbers."


class UploadError(ValueError):
    """An uploaded file cannot be used; the message says what to fix."""


# ---------------------------------------------------------------------------
# argument checks bound to the age tables (the others: dpcore.validation)
# ---------------------------------------------------------------------------

def _width_iv(width) -> int:
    if isinstance(width, (bool, np.bool_)) or width not in AGE_WIDTHS:
        raise ValueError(f"`width` must be 1, 5 or 10, got {width!r}.")
    return int(width)


def _last_bin(width: int) -> int:
    """Index of the open-ended top bin: it starts at 85 (widths 1, 5) or 80 (width 10)."""
    start = _TOP_AGE if width in (1, 5) else 80
    return start // width


# ---------------------------------------------------------------------------
# population table and age bins
# ---------------------------------------------------------------------------

@functools.lru_cache(maxsize=1)
def _population_table() -> pd.DataFrame:
    source = importlib.resources.files("dpcore").joinpath("data", _DATA_FILE)
    with source.open("rb") as fh:
        table = pd.read_csv(fh, index_col="age")
    table = table[list(POPULATIONS)].astype(np.int64)
    expected = np.arange(_TOP_AGE + 1)
    if not np.array_equal(table.index.to_numpy(), expected):
        raise RuntimeError(f"{_DATA_FILE}: ages must be 0..{_TOP_AGE} in order.")
    return table


def load_population() -> pd.DataFrame:
    """The 2020 population by single year of age.

    Returns
    -------
    pandas.DataFrame
        86 rows indexed by ``age`` 0..85 (85 means 85 and over), one int64
        column of persons per key of `POPULATIONS`. A fresh copy on each call.
    """
    return _population_table().copy()


def age_bin_labels(width: int) -> list[str]:
    """Labels of the age bins of a given width.

    Parameters
    ----------
    width : {1, 5, 10}
        Bin width in years. The top bin is open-ended: "85+" for widths 1 and
        5, "80+" for width 10.

    Returns
    -------
    list of str
        86, 18 or 9 labels, e.g. ``"0–4", ..., "80–84", "85+"`` for width 5.
    """
    width = _width_iv(width)
    last = _last_bin(width)
    if width == 1:
        labels = [str(a) for a in range(last)]
    else:
        labels = [f"{k * width}{_EN_DASH}{k * width + width - 1}" for k in range(last)]
    return labels + [f"{last * width}+"]


def age_bin_index(ages, width: int) -> np.ndarray:
    """Bin index of each age, ``min(floor(age / width), last)``.

    Parameters
    ----------
    ages : array_like
        Non-negative finite ages; fractional ages are floored.
    width : {1, 5, 10}
        Bin width; the last bin holds every age from 85 (widths 1, 5) or 80
        (width 10) upwards.

    Returns
    -------
    numpy.ndarray
        int64 indices into ``age_bin_labels(width)``, same shape as `ages`.
    """
    width = _width_iv(width)
    try:
        arr = np.asarray(ages, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError("`ages` must be numbers.") from None
    if not np.all(np.isfinite(arr)):
        raise ValueError("`ages` must be finite (no NaN or infinity).")
    if np.any(arr < 0):
        raise ValueError("`ages` must be non-negative.")
    return np.minimum(np.floor(arr / width), _last_bin(width)).astype(np.int64)


def regroup_ages(counts_by_age, width: int) -> np.ndarray:
    """Single-year counts (ages 0, 1, …, 85+) summed into the bins of ``width`` years.

    Returns float counts aligned with ``age_bin_labels(width)``.
    """
    counts = np.asarray(counts_by_age, dtype=float)
    if counts.ndim != 1 or counts.size != _TOP_AGE + 1:
        raise ValueError(f"`counts_by_age` must hold {_TOP_AGE + 1} counts, one per age "
                         f"0 to {_TOP_AGE}+, got shape {counts.shape}.")
    index = age_bin_index(np.arange(counts.size), width)
    return np.bincount(index, weights=counts, minlength=_last_bin(_width_iv(width)) + 1)


def age_histogram(population: str, width: int = 1) -> pd.Series:
    """Population counts summed into age bins.

    Parameters
    ----------
    population : str
        A key of `POPULATIONS`.
    width : {1, 5, 10}, optional
        Bin width in years (default 1).

    Returns
    -------
    pandas.Series
        int64 counts indexed by ``age_bin_labels(width)``, named `population`.
        The total equals the population's total.
    """
    one_of(population, "population", POPULATIONS)
    width = _width_iv(width)
    column = _population_table()[population]
    counts = np.zeros(_last_bin(width) + 1, dtype=np.int64)
    np.add.at(counts, age_bin_index(column.index.to_numpy(), width), column.to_numpy())
    return pd.Series(counts, index=age_bin_labels(width), name=population, dtype=np.int64)


def age_groups(population: str, k: int) -> pd.Series:
    """Population counts in k age groups of (nearly) equal width, for 2 ≤ k ≤ 86.

    The single years 0 … 84 and the open group 85+ are cut at
    round(86 j / k), j = 1 … k − 1; the last group is open-ended ("… +").
    """
    k = integer_in_range(k, "k", minimum=2, maximum=_TOP_AGE + 1)
    single = age_histogram(population, 1).to_numpy()
    cuts = np.round(np.linspace(0, _TOP_AGE + 1, k + 1)).astype(int)
    counts = np.add.reduceat(single, cuts[:-1])
    labels = []
    for lo, hi in zip(cuts[:-1], cuts[1:]):
        if hi == _TOP_AGE + 1:
            labels.append(f"{lo}+")
        elif hi - lo == 1:
            labels.append(str(lo))
        else:
            labels.append(f"{lo}{_EN_DASH}{hi - 1}")
    return pd.Series(counts, index=labels, name=population, dtype=np.int64)


# ---------------------------------------------------------------------------
# shapes, binning and sampling
# ---------------------------------------------------------------------------

def shape_probabilities(shape: str, m: int) -> np.ndarray:
    """Multinomial parameter p0 of one of the paper's three shapes.

    With bins j = 1..M (Son, Park & Jung 2022, section 2.3):

    - ``"uniform"``:    p_j = 1/M
    - ``"increasing"``: p_j = j / sum_{i=1}^M i
    - ``"normal"``:     p_j proportional to phi(-3 + 6 (j-1)/(M-1)), phi the
      N(0, 1) density, i.e. the density at M equally spaced points on [-3, 3].

    Parameters
    ----------
    shape : {"uniform", "increasing", "normal"}
        A key of `SHAPES`.
    m : int
        Number of bins M, 2 <= M <= 100,000.

    Returns
    -------
    numpy.ndarray
        Float array of length M summing to 1.
    """
    one_of(shape, "shape", SHAPES)
    m = integer_in_range(m, "m", minimum=2, maximum=_MAX_M)
    j = np.arange(1, m + 1, dtype=np.float64)
    if shape == "uniform":
        return np.full(m, 1.0 / m)
    if shape == "increasing":
        return j / (m * (m + 1) / 2)
    weights = stats.norm.pdf(-3.0 + 6.0 * (j - 1) / (m - 1))
    return weights / weights.sum()


def shape_counts(shape: str, m: int, n: int) -> np.ndarray:
    """n records spread over M bins as closely as whole numbers allow to a shape.

    The counts n·p_j of ``shape_probabilities(shape, m)`` rounded down, the
    remaining records given one each to the bins with the largest remainders
    (ties to the lower bin), so the counts sum to n and differ from n·p_j by
    less than 1. Uniform data with M dividing n is exactly n/M per bin.
    """
    p = shape_probabilities(shape, m)
    n = integer_in_range(n, "n", minimum=0, maximum=_MAX_N)
    exact = n * p
    counts = np.floor(exact).astype(np.int64)
    short = n - int(counts.sum())
    order = np.argsort(-(exact - counts), kind="stable")
    counts[order[:short]] += 1
    return counts


def _bin_values_iv(values, width, m, lo, hi):
    arr = real_vector(values, "values")
    if arr.size == 0:
        raise ValueError("`values` must not be empty.")
    if not np.all(np.isfinite(arr)):
        raise ValueError("`values` must be finite (drop NaN before binning).")
    if (width is None) == (m is None):
        raise ValueError("Give exactly one of `width` (age bins) or `m` (equal-width bins).")
    if width is not None:
        if lo is not None or hi is not None:
            raise ValueError("`lo` and `hi` apply only with `m`, not with `width`.")
        return arr, _width_iv(width), None, None, None
    m = integer_in_range(m, "m", minimum=2, maximum=_MAX_M)
    bounds = []
    for name, given, default in (("lo", lo, arr.min()), ("hi", hi, arr.max())):
        if given is None:
            bounds.append(float(default))
            continue
        bounds.append(finite_scalar(given, name))
    lo, hi = bounds
    if not lo < hi:
        raise ValueError(f"`lo` must be less than `hi`, got lo={lo:g}, hi={hi:g} "
                         "(give both when all values are equal).")
    return arr, None, m, lo, hi


def bin_values(values, *, width=None, m=None, lo=None, hi=None) -> np.ndarray:
    """Counts of raw values in age bins or in `m` equal-width bins.

    Parameters
    ----------
    values : array_like
        1-D, non-empty, finite. Drop missing values (NaN) before calling, e.g.
        ``column.dropna()`` on a column of `read_csv_upload`.
    width : {1, 5, 10}, optional
        Age bins as in `age_bin_index`; values must then be non-negative.
    m : int, optional
        Number of equal-width bins over [lo, hi], 2 <= m <= 100,000.
    lo, hi : float, optional
        Range of the `m` bins; default the minimum and maximum of `values`.
        The top edge is inclusive; values outside [lo, hi] are not counted.

    Returns
    -------
    numpy.ndarray
        int64 counts, of length 86, 18 or 9 (`width`) or `m`.

    Notes
    -----
    Exactly one of `width` and `m` must be given. The edges of the `m` bins
    are ``np.linspace(lo, hi, m + 1)``, as in ``np.histogram``.
    """
    arr, width, m, lo, hi = _bin_values_iv(values, width, m, lo, hi)
    if width is not None:
        index = age_bin_index(arr, width)
        return np.bincount(index, minlength=_last_bin(width) + 1).astype(np.int64)
    counts, _ = np.histogram(arr, bins=m, range=(lo, hi))
    return counts.astype(np.int64)


def draw_histogram(p, n: int, *, rng=None) -> np.ndarray:
    """One histogram drawn from Multinomial(n, p).

    Parameters
    ----------
    p : array_like
        Bin probabilities: 1-D, at least 2 entries, non-negative, summing to 1
        within 1e-8 (renormalised exactly before sampling).
    n : int
        Total count, 0 <= n <= 10**12.
    rng : None, int or numpy.random.Generator, optional
        Source of randomness, normalised with ``np.random.default_rng``.

    Returns
    -------
    numpy.ndarray
        int64 counts summing to `n`.
    """
    p = probabilities(p, "p")
    n = integer_in_range(n, "n", minimum=0, maximum=_MAX_N)
    rng = np.random.default_rng(rng)
    return rng.multinomial(n, p).astype(np.int64)


def proportions(counts) -> np.ndarray:
    """Counts divided by their total.

    Parameters
    ----------
    counts : array_like
        1-D, finite, non-negative, with a positive total.

    Returns
    -------
    numpy.ndarray
        Float array summing to 1.
    """
    arr = real_vector(counts, "counts")
    if not np.all(np.isfinite(arr)):
        raise ValueError("`counts` must be finite (no NaN or infinity).")
    if np.any(arr < 0):
        raise ValueError("`counts` must be non-negative.")
    total = arr.sum()
    if not total > 0:
        raise ValueError("`counts` must have a positive total.")
    return arr / total


# ---------------------------------------------------------------------------
# uploads
# ---------------------------------------------------------------------------

_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")
_GROUPED = re.compile(r"[+-]?\d{1,3}(?:,\d{3})+(?:\.\d*)?")
_NONFINITE = {"inf", "+inf", "-inf", "infinity", "+infinity", "-infinity",
              "nan", "+nan", "-nan"}


def _is_number(text: str) -> bool:
    """Whether a stripped, non-blank cell reads as a number (inf and nan included)."""
    return (_NUMBER.fullmatch(text) is not None or _GROUPED.fullmatch(text) is not None
            or text.lower() in _NONFINITE)


def _quote(text: str) -> str:
    return f'"{text[:30]}…"' if len(text) > 30 else f'"{text}"'


def _read_csv_upload_iv(data, max_bytes, max_rows, max_columns) -> bytes:
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise ValueError(f"`data` must be bytes, got {type(data).__name__}.")
    integer_in_range(max_bytes, "max_bytes", minimum=1, maximum=2**62)
    integer_in_range(max_rows, "max_rows", minimum=1, maximum=2**62)
    integer_in_range(max_columns, "max_columns", minimum=1, maximum=2**62)
    return bytes(data)


def _decode(data: bytes, max_bytes: int) -> str:
    """Check size and encoding of the raw bytes and return the text."""
    if not data.strip():
        raise UploadError(_EMPTY)
    if len(data) > max_bytes:
        raise UploadError(f"The file is {len(data):,} bytes, larger than the limit of "
                          f"{max_bytes:,} bytes. Upload a smaller file.")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise UploadError("The file is saved as UTF-16 text. "
                          "Save it as CSV UTF-8 and upload it again.")
    if data.startswith(b"PK\x03\x04"):
        raise UploadError("The file looks like an Excel workbook, not a CSV file. "
                          "Save it as CSV UTF-8 and upload it again.")
    if b"\x00" in data:
        raise UploadError("The file contains binary data, not CSV text. "
                          "Upload a CSV file saved as UTF-8 text.")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UploadError("The file is not UTF-8 text (it may be saved as Latin-1, "
                          "CP949/EUC-KR or another legacy encoding). Save it as UTF-8 "
                          '(in Excel: Save As "CSV UTF-8") and upload it again.') from None


def _delimiter(text: str) -> str:
    """Comma, unless the first non-blank line has no comma but a tab or semicolon."""
    first = next((line for line in io.StringIO(text, newline="") if line.strip()), "")
    if "," not in first:
        for sep in ("\t", ";"):
            if sep in first:
                return sep
    return ","


def _records(text: str, max_rows: int, max_columns: int) -> tuple[list[list[str]], int]:
    """Read the CSV records, with cells stripped and trailing blank cells removed.

    Blank rows before the first and after the last non-blank row are dropped.
    Returns the rows and the file row number of the first one.
    """
    rows: list[list[str]] = []
    leading = pending_blank = 0
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(text))
    try:
        for record in reader:
            row = [cell.strip() for cell in record]
            while row and not row[-1]:
                row.pop()
            if not row:
                if rows:
                    pending_blank += 1
                else:
                    leading += 1
                continue
            if len(row) > max_columns:
                raise UploadError(f"Row {leading + len(rows) + pending_blank + 1} has {len(row)} "
                                  f"columns; at most {max_columns} columns are allowed. "
                                  "Remove the extra columns.")
            rows.extend([] for _ in range(pending_blank))
            pending_blank = 0
            rows.append(row)
            if len(rows) > max_rows + 1:
                raise UploadError(f"The file has more than {max_rows:,} data rows; at most "
                                  f"{max_rows:,} are allowed. Upload a shorter file or bin the "
                                  "values first.")
    except csv.Error as exc:
        raise UploadError(f"The file could not be read as CSV ({exc}). "
                          "Check that it is a plain CSV file.") from None
    return rows, leading + 1


def _numeric_column(cells: list[str], name: str, first_row: int, hint: str = "") -> np.ndarray:
    """Parse one column's cells to float64; blank cells are allowed only at its end.

    `first_row` is the file row number of ``cells[0]``, used in messages.
    """
    last = max((i for i, c in enumerate(cells) if c), default=-1)
    if last < 0:
        raise UploadError(f'Column "{name}" has no values. Fill it in or delete the column.')
    for i in range(last):
        if not cells[i]:
            raise UploadError(f'Row {first_row + i}, column "{name}": the cell is blank but there '
                              "are more values below it. Fill in the blank cell or delete its row; "
                              "blank cells are allowed only at the end of a column.")

    def where(i):
        return f'Row {first_row + i}, column "{name}": {_quote(cells[i])}'

    filled = cells[:last + 1]
    try:
        values = [float(c) for c in filled]
    except ValueError:
        values = []
        for i, c in enumerate(filled):
            try:
                values.append(float(c))
            except ValueError:
                if _GROUPED.fullmatch(c) is None:
                    raise UploadError(f"{where(i)} is not a number. Every cell must hold a plain "
                                      f"number such as 12 or -3.5.{hint}") from None
                values.append(float(c.replace(",", "")))
    head = np.asarray(values, dtype=np.float64)
    for i in np.flatnonzero(~np.isfinite(head) | (np.abs(head) > _MAX_MAGNITUDE))[:1]:
        if cells[i].lower() in _NONFINITE:
            raise UploadError(f"{where(i)} is not allowed; values must be finite numbers.")
        raise UploadError(f"{where(i)} is too large; values must be at most 1e15 in magnitude.")
    out = np.full(len(cells), np.nan)
    out[:last + 1] = head
    return out


def read_csv_upload(data, *, max_bytes=5_000_000, max_rows=100_000, max_columns=20) -> pd.DataFrame:
    """Parse an uploaded CSV file of numbers.

    Parameters
    ----------
    data : bytes
        The file's content: UTF-8 text (a byte-order mark is accepted),
        comma-separated (tab or semicolon when the first line has no comma).
    max_bytes, max_rows, max_columns : int, optional
        Limits on the file size, the number of data rows and of columns.

    Returns
    -------
    pandas.DataFrame
        One float64 column per numeric column of the file. Names come from
        the header row when the first row has a cell that is not a number,
        otherwise "column 1", "column 2", ... by position in the file. A
        column shorter than the longest one is padded with NaN at its end.
        When there are several columns and the first one holds only text (bin
        labels such as "0–4"), or has a header and at least one cell below it
        that is not a number (labels such as "0", ..., "84", "85+"), it
        becomes the index (str, named after its header if any) and every other
        column must be numeric; otherwise the index is a RangeIndex.

    Raises
    ------
    UploadError
        With a message saying what to fix: empty, binary, non-UTF-8 or too
        large file; no data rows; too many rows or columns; a cell that is not
        a number; a blank cell within a column; inf or nan; a magnitude above
        1e15. Negative values are accepted.

    Notes
    -----
    Row numbers in messages are those of the file, header included, as a
    spreadsheet numbers them.
    Quoted numbers with thousands separators ("1,234") are accepted.
    """
    data = _read_csv_upload_iv(data, max_bytes, max_rows, max_columns)
    text = _decode(data, max_bytes)
    rows, first_row = _records(text, max_rows, max_columns)
    if not rows:
        raise UploadError(_EMPTY)
    ncols = max(len(r) for r in rows)

    def column(c, body):
        return [r[c] if c < len(r) else "" for r in body]

    # A header is a first row with a cell that is not a number, unless its only
    # text is in a first column that holds text all the way down (labels).
    first = rows[0] + [""] * (ncols - len(rows[0]))
    text_cells = [c for c, cell in enumerate(first) if cell and not _is_number(cell)]
    below0 = [cell for cell in column(0, rows[1:]) if cell]
    labels_below = ncols > 1 and bool(below0) and not any(map(_is_number, below0))
    has_header = bool(text_cells) and not (text_cells == [0] and labels_below)
    body = rows[1:] if has_header else rows
    first_row += has_header
    if not body:
        raise UploadError("The file has a header row but no data rows. "
                          "Add the values below the header.")
    if len(body) > max_rows:
        raise UploadError(f"The file has {len(body):,} data rows; at most {max_rows:,} are "
                          "allowed. Upload a shorter file or bin the values first.")

    names, seen = [], set()
    for c in range(ncols):
        name = first[c] if has_header and first[c] else f"column {c + 1}"
        base, k = name, 2
        while name in seen:
            name, k = f"{base} ({k})", k + 1
        seen.add(name)
        names.append(name)

    # The first column holds bin labels when all its cells are text, or, below a
    # header, when any of them is (labels such as "0".."84", "85+"). The other
    # columns must then be numeric; one that is not raises its own error.
    cells0 = column(0, body)
    text0 = [not _is_number(x) for x in cells0 if x]
    label_col = ncols > 1 and bool(text0) and (all(text0) or (has_header and any(text0)))
    start = 1 if label_col else 0
    hint = (" If the first column holds bin labels, add a header row naming the columns "
            '(such as "bin,A,B"), or delete that column.' if ncols > 1 else "")
    frame = pd.DataFrame({names[c]: _numeric_column(column(c, body), names[c], first_row,
                                                    hint if c == 0 else "")
                          for c in range(start, ncols)})
    if label_col:
        frame.index = pd.Index(cells0, dtype=object,
                               name=first[0] if has_header and first[0] else None)
    return frame


def read_answers_upload(data, *, max_bytes=5_000_000, max_rows=100_000,
                        max_columns=20) -> pd.DataFrame:
    """Parse an uploaded CSV file of answers, one row per person, as text.

    The same checks as :func:`read_csv_upload` (size, encoding, binary,
    empty, too many rows or columns, CSV syntax), but cells are kept as
    stripped text, so that "yes", "A" or "3" are all categories. The first
    row names the columns. Blank cells are kept as "" (read as no answer).
    """
    data = _read_csv_upload_iv(data, max_bytes, max_rows, max_columns)
    rows, _ = _records(_decode(data, max_bytes), max_rows, max_columns)
    if len(rows) < 2:
        raise UploadError("The file has no data rows: it needs a header row naming its "
                          "columns and at least one row of answers below it.")
    header, body = rows[0], rows[1:]
    width = max(len(header), max(len(r) for r in body))
    names = [header[j] if j < len(header) and header[j] else f"column {j + 1}"
             for j in range(width)]
    if len(set(names)) < len(names):
        raise UploadError("Two columns of the header row have the same name; rename one.")
    table = pd.DataFrame([r + [""] * (width - len(r)) for r in body], columns=names, dtype=str)
    for name in names:
        if not (table[name] != "").any():
            raise UploadError(f'Column "{name}" has no values. Fill it in or delete the column.')
    return table


def categories_from_column(column, *, max_categories: int = 1000):
    """Categories of a column of answers: (labels, counts, index of each answer).

    Blank answers are left out; numbers are categories like any text (``3``
    and ``3.0`` are read as the same number when the column is numeric).
    Labels are sorted. Raises :class:`UploadError` for fewer than 2 or more
    than ``max_categories`` categories, or no answers at all.
    """
    column = pd.Series(column)
    name = column.name if column.name is not None else "answers"
    if pd.api.types.is_numeric_dtype(column):
        values = column.dropna().map(lambda v: f"{v:g}")
    else:
        values = column.dropna().astype(str).str.strip()
        values = values[values != ""]
    if values.empty:
        raise UploadError(f'Column "{name}" has no values: every answer in it is blank.')
    labels, index, counts = np.unique(values.to_numpy(dtype=str), return_inverse=True,
                                      return_counts=True)
    if labels.size < 2:
        raise UploadError(f'Column "{name}" has a single category ("{labels[0]}"); at least 2 '
                          "different answers are needed.")
    if labels.size > max_categories:
        raise UploadError(f'Column "{name}" has {labels.size:,} different categories; at most '
                          f"{max_categories:,} are supported. Group rare answers first.")
    return [str(v) for v in labels], counts.astype(float), index


def counts_from_column(column, *, name: str = "A") -> np.ndarray:
    """Check a column of uploaded histogram counts.

    Parameters
    ----------
    column : array_like or pandas.Series
        One column of `read_csv_upload`; NaN marks cells missing at its end.
    name : str, optional
        What the user calls this histogram (e.g. "A"), used in messages.

    Returns
    -------
    numpy.ndarray
        float64 counts: finite, non-negative, at least 2 bins, positive total.

    Raises
    ------
    UploadError
        Naming the histogram (and the column, for a named Series).
    """
    who = f"Histogram {name}"
    if isinstance(column, pd.Series) and column.name is not None:
        who += f' (column "{column.name}")'
    try:
        arr = np.asarray(column, dtype=np.float64)
    except (TypeError, ValueError):
        raise UploadError(f"{who} must contain only numbers.") from None
    if arr.ndim != 1:
        raise UploadError(f"{who} must be a single column of counts.")
    missing = np.isnan(arr)
    if missing.any():
        raise UploadError(f"{who} has {int((~missing).sum())} values but the longest column has "
                          f"{arr.size}; columns of counts must all have the same number of rows, "
                          "one per bin.")
    if arr.size < 2:
        raise UploadError(f"{who} has {arr.size} bin{'s' if arr.size != 1 else ''}; "
                          "a histogram needs at least 2 bins.")
    if not np.all(np.isfinite(arr)):
        raise UploadError(f"{who} contains an infinite value; counts must be finite numbers.")
    negative = np.flatnonzero(arr < 0)
    if negative.size:
        i = int(negative[0])
        raise UploadError(f"{who} has a negative count ({arr[i]:g} in row {i + 1}); "
                          "counts must be 0 or more.")
    if arr.sum() > _MAX_MAGNITUDE:
        raise UploadError(f"{who} adds up to {arr.sum():.3g}; totals up to 1e15 are supported.")
    if not arr.sum() > 0:
        raise UploadError(f"{who} has all counts equal to 0; at least one count must be positive.")
    return arr


def check_same_length(a, b, *, names=("A", "B")) -> None:
    """Require two histograms to have the same number of bins.

    Parameters
    ----------
    a, b : array_like
        The two histograms' counts.
    names : tuple of str, optional
        What the user calls them, used in the message.

    Raises
    ------
    UploadError
        "A has 20 bins but B has 18; both histograms need the same bins."
    """
    la, lb = len(a), len(b)
    if la != lb:
        raise UploadError(f"{names[0]} has {la} bins but {names[1]} has {lb}; "
                          "both histograms need the same bins.")
