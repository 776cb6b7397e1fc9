"""Uploaded CSV files read safely: counts per bin, raw values, one answer per record.

Every reader takes the file's bytes (never a path), refuses what it cannot use with an
:class:`UploadError` whose message says, in plain words, what to fix, and bounds the work
(bytes, rows, columns, magnitudes) so a hostile file costs no more than a valid one.

Every message that names a row gives its line in the file, the header row included (the
first line is row 1), as a spreadsheet or a text editor numbers it: a cell that is not a
number and a negative count in the same place name the same row.
"""

from __future__ import annotations

import csv
import io
import re

import numpy as np
import pandas as pd

from dpcore.errors import ArgumentError, Phrase
from dpcore.validation import integer_in_range

__all__ = [
    "UploadError",
    "categories_from_column",
    "check_same_length",
    "counts_from_column",
    "guess_file_kind",
    "read_answers_upload",
    "read_csv_upload",
]

_MAX_MAGNITUDE = 1e15
# Headers that name a column of counts (compared in lower case, without surrounding space).
COUNT_HEADERS = frozenset({"count", "counts", "n", "freq", "frequency", "frequencies",
                           "number", "total", "users", "people", "records", "persons"})


class UploadError(ArgumentError):
    """An uploaded file cannot be used; the message says what to fix.

    An :class:`dpcore.errors.ArgumentError` (so a ``ValueError``), raised by the readers
    of this module with a message meant to be shown to the person who uploaded the file;
    it keeps its template and fields, so that the message can be shown in their language.
    Cells, column names and categories are quoted in its fields as they are.

    Source: none (input checking of uploaded files, this project's own).

    Parameters
    ----------
    template : str
        What is wrong with the file and how to fix it, with ``{field}`` places.
    **fields
        The values of the places.

    Examples
    --------
    >>> err = UploadError("The file has {rows:,} data rows.", rows=120000)
    >>> isinstance(err, ValueError), str(err), err.fields
    (True, 'The file has 120,000 data rows.', {'rows': 120000})
    """


def _empty() -> UploadError:
    return UploadError("The file is empty. Upload a CSV file with at least one column of "
                       "numbers.")


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
    """A cell, column name or category as a message quotes it: at most 30 characters."""
    return f'"{text[:30]}…"' if len(text) > 30 else f'"{text}"'


def _read_csv_upload_iv(data, max_bytes, max_rows, max_columns) -> bytes:
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise ArgumentError("`{name}` must be bytes, got {kind}.", name="data",
                            kind=type(data).__name__)
    integer_in_range(max_bytes, "max_bytes", minimum=1, maximum=2**62)
    integer_in_range(max_rows, "max_rows", minimum=1, maximum=2**62)
    integer_in_range(max_columns, "max_columns", minimum=1, maximum=2**62)
    return bytes(data)


def _decode(data: bytes, max_bytes: int) -> str:
    """Check size and encoding of the raw bytes and return the text."""
    if not data.strip():
        raise _empty()
    if len(data) > max_bytes:
        raise UploadError("The file is {size:,} bytes, larger than the limit of {limit:,} bytes. "
                          "Upload a smaller file.", size=len(data), limit=max_bytes)
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
                raise UploadError("Row {row} has {columns} columns; at most {limit} columns are "
                                  "allowed. Remove the extra columns.",
                                  row=leading + len(rows) + pending_blank + 1, columns=len(row),
                                  limit=max_columns)
            rows.extend([] for _ in range(pending_blank))
            pending_blank = 0
            rows.append(row)
            if len(rows) > max_rows + 1:
                raise UploadError("The file has more than {limit:,} data rows; at most {limit:,} "
                                  "are allowed. Upload a shorter file or bin the values first.",
                                  limit=max_rows)
    except csv.Error as exc:
        raise UploadError("The file could not be read as CSV ({detail}). "
                          "Check that it is a plain CSV file.", detail=str(exc)) from None
    return rows, leading + 1


def _numeric_column(cells: list[str], name: str, first_row: int,
                    labels_hint: bool = False) -> np.ndarray:
    """Parse one column's cells to float64; blank cells are allowed only at its end.

    `first_row` is the file row number of ``cells[0]``, used in messages.
    """
    last = max((i for i, c in enumerate(cells) if c), default=-1)
    if last < 0:
        raise UploadError("Column {column} has no values. Fill it in or delete the column.",
                          column=_quote(str(name)))
    for i in range(last):
        if not cells[i]:
            raise UploadError("Row {row}, column {column}: the cell is blank but there are more "
                              "values below it. Fill in the blank cell or delete its row; blank "
                              "cells are allowed only at the end of a column.",
                              row=first_row + i, column=_quote(str(name)))

    def where(i):
        return Phrase("Row {row}, column {column}: {cell}", row=first_row + i,
                      column=_quote(str(name)), cell=_quote(cells[i]))

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
                    if labels_hint:
                        raise UploadError(
                            "{where} is not a number. Every cell must hold a plain number such "
                            "as 12 or 3.5. If the first column holds bin labels, add a header "
                            'row naming the columns (such as "bin,A,B"), or delete that column.',
                            where=where(i)) from None
                    raise UploadError("{where} is not a number. Every cell must hold a plain "
                                      "number such as 12 or 3.5.", where=where(i)) from None
                values.append(float(c.replace(",", "")))
    head = np.asarray(values, dtype=np.float64)
    for i in np.flatnonzero(~np.isfinite(head) | (np.abs(head) > _MAX_MAGNITUDE))[:1]:
        if cells[i].lower() in _NONFINITE:
            raise UploadError("{where} is not allowed; values must be finite numbers.",
                              where=where(i))
        raise UploadError("{where} is too large; values must be at most 1e15 in magnitude.",
                          where=where(i))
    out = np.full(len(cells), np.nan)
    out[:last + 1] = head
    return out


def read_csv_upload(data, *, max_bytes=5_000_000, max_rows=100_000, max_columns=20) -> pd.DataFrame:
    """Parse an uploaded CSV file of numbers.

    Source: none (input checking of uploaded files, this project's own).

    Parameters
    ----------
    data : bytes
        The file's content: UTF-8 text (a byte-order mark is accepted),
        comma-separated (tab or semicolon when the first line has no comma).
        ``bytearray`` and ``memoryview`` are accepted too.
    max_bytes : int, optional
        Limit on the file size in bytes (keyword-only; default 5,000,000).
    max_rows : int, optional
        Limit on the number of data rows (keyword-only; default 100,000).
    max_columns : int, optional
        Limit on the number of columns (keyword-only; default 20).

    Returns
    -------
    pandas.DataFrame
        One float64 column per numeric column of the file (``attrs["first_row"]``:
        the file line of the first data row). Names come from
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
    ValueError
        If `data` is not bytes ("`data` must be bytes"), or a limit is not an
        integer from 1 to 2**62 (the message names it).

    Notes
    -----
    Row numbers in messages are the file's lines, header included (the first
    line is row 1), as a spreadsheet or text editor numbers them. The frame
    keeps the line of its first data row in ``attrs["first_row"]``, so that
    :func:`counts_from_column` names a row of one of its columns the same way.
    Quoted numbers with thousands separators ("1,234") are accepted.

    Examples
    --------
    >>> read_csv_upload(b'''bin,A,B
    ... 0-4,10,12
    ... 5-9,7,
    ... ''')
            A     B
    bin
    0-4  10.0  12.0
    5-9   7.0   NaN
    >>> read_csv_upload(b'''x
    ... 1
    ...
    ... 2
    ... ''')
    Traceback (most recent call last):
        ...
    dpcore.uploads.UploadError: Row 3, column "x": the cell is blank but there are more values
    below it. Fill in the blank cell or delete its row; blank cells are allowed only at the end of
    a column.
    """
    data = _read_csv_upload_iv(data, max_bytes, max_rows, max_columns)
    text = _decode(data, max_bytes)
    rows, first_row = _records(text, max_rows, max_columns)
    if not rows:
        raise _empty()
    ncols, first, has_header = _layout(rows)
    body = rows[1:] if has_header else rows
    first_row += has_header
    if not body:
        raise UploadError("The file has a header row but no data rows. "
                          "Add the values below the header.")
    if len(body) > max_rows:
        raise UploadError("The file has {rows:,} data rows; at most {limit:,} are allowed. "
                          "Upload a shorter file or bin the values first.", rows=len(body),
                          limit=max_rows)

    names = _names(first, has_header, ncols)
    cells0 = _column(0, body)
    label_col = _is_label_column(cells0, ncols, has_header)
    start = 1 if label_col else 0
    # A first column of text that was not read as labels: the message says how to mark it.
    frame = pd.DataFrame({names[c]: _numeric_column(_column(c, body), names[c], first_row,
                                                    labels_hint=c == 0 and ncols > 1)
                          for c in range(start, ncols)})
    if label_col:
        frame.index = pd.Index(cells0, dtype=object,
                               name=first[0] if has_header and first[0] else None)
    frame.attrs["first_row"] = first_row  # the file line of the first data row
    return frame


def _column(c: int, body: list[list[str]]) -> list[str]:
    """Column ``c`` of the rows ``body``, "" where a row is shorter."""
    return [r[c] if c < len(r) else "" for r in body]


def _layout(rows: list[list[str]]) -> tuple[int, list[str], bool]:
    """The number of columns, the first row (padded to it) and whether it is a header.

    A header is a first row with a cell that is not a number, unless its only text is in a
    first column that holds text all the way down (labels).
    """
    ncols = max(len(r) for r in rows)
    first = rows[0] + [""] * (ncols - len(rows[0]))
    text_cells = [c for c, cell in enumerate(first) if cell and not _is_number(cell)]
    below0 = [cell for cell in _column(0, rows[1:]) if cell]
    labels_below = ncols > 1 and bool(below0) and not any(map(_is_number, below0))
    return ncols, first, bool(text_cells) and not (text_cells == [0] and labels_below)


def _names(first: list[str], has_header: bool, ncols: int) -> list[str]:
    """The columns' names: the header's, else "column j"; a repeated name gets " (2)", …"""
    names, seen = [], set()
    for c in range(ncols):
        name = first[c] if has_header and first[c] else f"column {c + 1}"
        base, k = name, 2
        while name in seen:
            name, k = f"{base} ({k})", k + 1
        seen.add(name)
        names.append(name)
    return names


def _is_label_column(cells0: list[str], ncols: int, has_header: bool) -> bool:
    """Whether the first column holds labels: all its cells are text, or, below a header,
    any of them is (labels such as "0".."84", "85+"). The other columns must then be
    numeric; one that is not raises its own error."""
    text0 = [not _is_number(x) for x in cells0 if x]
    return ncols > 1 and bool(text0) and (all(text0) or (has_header and any(text0)))


def read_answers_upload(data, *, max_bytes=5_000_000, max_rows=100_000,
                        max_columns=20) -> pd.DataFrame:
    """Parse an uploaded CSV file of answers, one row per person, as text.

    The same checks as :func:`read_csv_upload` (size, encoding, binary,
    empty, too many rows or columns, CSV syntax), but cells are kept as
    stripped text, so that "yes", "A" or "3" are all categories. The first
    row names the columns. Blank cells are kept as "" (read as no answer).

    Source: none (input checking of uploaded files, this project's own).

    Parameters
    ----------
    data : bytes
        The file's content, as for :func:`read_csv_upload`.
    max_bytes : int, optional
        Limit on the file size in bytes (keyword-only; default 5,000,000).
    max_rows : int, optional
        Limit on the number of data rows (keyword-only; default 100,000).
    max_columns : int, optional
        Limit on the number of columns (keyword-only; default 20).

    Returns
    -------
    pandas.DataFrame
        One column of str per column of the file, named by the header row
        ("column j" for a blank header cell), one row per data row, with ""
        for blank cells.

    Raises
    ------
    UploadError
        For the file problems of :func:`read_csv_upload`; if there is no data
        row below the header; if two header cells have the same name; or if a
        column has no answers at all.
    ValueError
        If `data` is not bytes, or a limit is not an integer from 1 to 2**62.

    Examples
    --------
    >>> table = read_answers_upload(b'''smoker,age
    ... yes,31
    ... no,
    ... yes,45
    ... ''')
    >>> table
      smoker age
    0    yes  31
    1     no
    2    yes  45
    >>> read_answers_upload(b'''a,a
    ... 1,2
    ... ''')
    Traceback (most recent call last):
        ...
    dpcore.uploads.UploadError: Two columns of the header row have the same name; rename one.
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
            raise UploadError("Column {column} has no values. Fill it in or delete the column.",
                              column=_quote(str(name)))
    return table


def guess_file_kind(data, *, max_bytes=5_000_000, max_rows=100_000,
                    max_columns=20) -> tuple[str, str | None]:
    """Whether an uploaded file of categories holds counts per category or one answer per row.

    Counts when the file looks like a histogram: a column whose header names counts
    (count, counts, n, freq, …: :data:`COUNT_HEADERS`, in any case) and is not a first
    column of labels; or exactly two columns, text labels that are all different and a
    column of numbers (more than half of its cells). Otherwise one answer per row. A file
    headed as counts is read as counts even when a cell is not a number or a count is
    negative, so that reading it as counts (:func:`read_csv_upload`,
    :func:`counts_from_column`) says what to fix.

    Source: none (input checking of uploaded files, this project's own).

    Parameters
    ----------
    data : bytes
        The file's content, as for :func:`read_csv_upload`.
    max_bytes : int, optional
        Limit on the file size in bytes (keyword-only; default 5,000,000).
    max_rows : int, optional
        Limit on the number of data rows (keyword-only; default 100,000).
    max_columns : int, optional
        Limit on the number of columns (keyword-only; default 20).

    Returns
    -------
    kind : str
        "counts" (to read with :func:`read_csv_upload`) or "categories" (one answer
        per row, to read with :func:`read_answers_upload`).
    column : str or None
        For counts, the column of counts as :func:`read_csv_upload` names it; else None.

    Raises
    ------
    UploadError
        For the file problems that stop any reading (see :func:`read_csv_upload`):
        empty, binary, non-UTF-8 or too large file, too many rows or columns, not CSV.
    ValueError
        If `data` is not bytes, or a limit is not an integer from 1 to 2**62.

    Examples
    --------
    >>> guess_file_kind(b'''label,count
    ... a,10
    ... b,20
    ... ''')
    ('counts', 'count')
    >>> guess_file_kind(b'''answer,age
    ... yes,31
    ... no,45
    ... yes,22
    ... ''')
    ('categories', None)
    """
    data = _read_csv_upload_iv(data, max_bytes, max_rows, max_columns)
    rows, _ = _records(_decode(data, max_bytes), max_rows, max_columns)
    if not rows:
        raise _empty()
    ncols, first, has_header = _layout(rows)
    body = rows[1:] if has_header else rows
    if not body:  # either reading says so
        return "categories", None
    names = _names(first, has_header, ncols)
    start = 1 if _is_label_column(_column(0, body), ncols, has_header) else 0
    for c in range(start, ncols) if has_header else ():
        if first[c].strip().lower() in COUNT_HEADERS:
            return "counts", names[c]
    if ncols == 2 and start == 1:
        labels, cells = _column(0, body), [x for x in _column(1, body) if x]
        if (all(labels) and len(set(labels)) == len(labels)
                and 2 * sum(map(_is_number, cells)) > len(cells)):
            return "counts", names[1]
    return "categories", None


def categories_from_column(column, *, max_categories: int = 1000):
    """Categories of a column of answers: (labels, counts, index of each answer).

    Blank answers are left out; numbers are categories like any text (``3``
    and ``3.0`` are read as the same number when the column is numeric).
    Labels are sorted. Raises :class:`UploadError` for fewer than 2 or more
    than ``max_categories`` categories, or no answers at all.

    Source: none (input checking of uploaded files, this project's own).

    Parameters
    ----------
    column : array_like or pandas.Series
        One column of answers, e.g. of :func:`read_answers_upload`. A numeric
        column's values are written with ``format(v, "g")``; NaN is dropped.
    max_categories : int, optional
        Largest number of different answers allowed (keyword-only; default 1000).

    Returns
    -------
    labels : list of str
        The categories, sorted as strings.
    counts : numpy.ndarray
        float array: the number of answers in each category.
    index : numpy.ndarray
        int array: the category of each non-blank answer, in the column's order
        (blank answers have no entry).

    Raises
    ------
    UploadError
        If the column has no non-blank answer, a single category, or more than
        `max_categories` categories (the message names the column).

    Examples
    --------
    >>> labels, counts, index = categories_from_column(["yes", "no", "", "yes"])
    >>> labels, counts, index
    (['no', 'yes'], array([1., 2.]), array([1, 0, 1]))
    >>> categories_from_column(["a", "a"])
    Traceback (most recent call last):
        ...
    dpcore.uploads.UploadError: Column "answers" has a single category ("a"); at least 2
    different answers are needed.
    """
    column = pd.Series(column)
    name = column.name if column.name is not None else "answers"
    if pd.api.types.is_numeric_dtype(column):
        values = column.dropna().map(lambda v: f"{v:g}")
    else:
        values = column.dropna().astype(str).str.strip()
        values = values[values != ""]
    if values.empty:
        raise UploadError("Column {column} has no values: every answer in it is blank.",
                          column=_quote(str(name)))
    labels, index, counts = np.unique(values.to_numpy(dtype=str), return_inverse=True,
                                      return_counts=True)
    if labels.size < 2:
        raise UploadError("Column {column} has a single category ({category}); at least 2 "
                          "different answers are needed.", column=_quote(str(name)),
                          category=_quote(str(labels[0])))
    if labels.size > max_categories:
        raise UploadError("Column {column} has {categories:,} different categories; at most "
                          "{limit:,} are supported. Group rare answers first.",
                          column=_quote(str(name)), categories=labels.size, limit=max_categories)
    return [str(v) for v in labels], counts.astype(float), index


def counts_from_column(column, *, name: str | None = "A",
                       first_row: int | None = None) -> np.ndarray:
    """Check a column of uploaded histogram counts.

    Source: none (input checking of uploaded files, this project's own).

    Parameters
    ----------
    column : array_like or pandas.Series
        One column of `read_csv_upload`; NaN marks cells missing at its end.
    name : str or None, optional
        What the user calls this histogram (e.g. "A"), used in messages
        (keyword-only; default ``"A"``); None names it by its column alone.
    first_row : int or None, optional
        The file line of the column's first value, for the row a message names
        (keyword-only). None (the default): for a column of
        :func:`read_csv_upload`, the line its frame keeps in
        ``attrs["first_row"]``, so that rows are the file's lines, header
        included, as in that reader's messages; 1 for other input (rows then
        count the values from 1).

    Returns
    -------
    numpy.ndarray
        float64 counts: finite, non-negative, at least 2 bins, positive total.
        Fractional counts are accepted.

    Raises
    ------
    UploadError
        Naming the histogram (and the column, for a named Series): not
        numbers, not one column, missing cells (a column shorter than the
        longest), fewer than 2 bins, an infinite or negative count, a total
        above 1e15, or all counts 0.
    ValueError
        If `first_row` is not an integer from 1 to 2**62.

    Examples
    --------
    >>> counts_from_column([4, 0, 7.5])
    array([4. , 0. , 7.5])
    >>> table = read_csv_upload(b'''women
    ... 1
    ... -2
    ... ''')
    >>> counts_from_column(table["women"], name="B")
    Traceback (most recent call last):
        ...
    dpcore.uploads.UploadError: Histogram B (column "women") has a negative count (-2 in row 3);
    counts must be 0 or more.
    """
    named = isinstance(column, pd.Series) and column.name is not None
    if name is None:
        who = (Phrase('Column "{column}"', column=column.name) if named
               else Phrase("The histogram"))
    elif named:
        who = Phrase('Histogram {histogram} (column "{column}")', histogram=name,
                     column=column.name)
    else:
        who = Phrase("Histogram {histogram}", histogram=name)
    try:
        arr = np.asarray(column, dtype=np.float64)
    except (TypeError, ValueError):
        raise UploadError("{who} must contain only numbers.", who=who) from None
    if arr.ndim != 1:
        raise UploadError("{who} must be a single column of counts.", who=who)
    if first_row is None:
        first_row = column.attrs.get("first_row", 1) if isinstance(column, pd.Series) else 1
    first_row = integer_in_range(first_row, "first_row", minimum=1, maximum=2**62)
    missing = np.isnan(arr)
    if missing.any():
        raise UploadError("{who} has {values} values but the longest column has {longest}; "
                          "columns of counts must all have the same number of rows, one per bin.",
                          who=who, values=int((~missing).sum()), longest=arr.size)
    if arr.size < 2:
        if arr.size == 1:
            raise UploadError("{who} has 1 bin; a histogram needs at least 2 bins.", who=who)
        raise UploadError("{who} has {bins} bins; a histogram needs at least 2 bins.", who=who,
                          bins=arr.size)
    if not np.all(np.isfinite(arr)):
        raise UploadError("{who} contains an infinite value; counts must be finite numbers.",
                          who=who)
    negative = np.flatnonzero(arr < 0)
    if negative.size:
        i = int(negative[0])
        raise UploadError("{who} has a negative count ({count:g} in row {row}); counts must be 0 "
                          "or more.", who=who, count=arr[i], row=first_row + i)
    if arr.sum() > _MAX_MAGNITUDE:
        raise UploadError("{who} adds up to {total:.3g}; totals up to 1e15 are supported.", who=who,
                          total=arr.sum())
    if not arr.sum() > 0:
        raise UploadError("{who} has all counts equal to 0; at least one count must be positive.",
                          who=who)
    return arr


def check_same_length(a, b, *, names=("A", "B")) -> None:
    """Require two histograms to have the same number of bins.

    Source: none (input checking of uploaded files, this project's own).

    Parameters
    ----------
    a : array_like
        The first histogram's counts (anything with a ``len``).
    b : array_like
        The second histogram's counts.
    names : tuple of (str, str), optional
        What the user calls them, used in the message (keyword-only; default
        ``("A", "B")``).

    Returns
    -------
    None
        Returns nothing when the lengths agree.

    Raises
    ------
    UploadError
        "A has 20 bins but B has 18; both histograms need the same bins."

    Examples
    --------
    >>> check_same_length([1, 2, 3], [4, 5, 6])
    >>> check_same_length([1, 2, 3], [4, 5], names=("Korea", "USA"))
    Traceback (most recent call last):
        ...
    dpcore.uploads.UploadError: Korea has 3 bins but USA has 2; both histograms need the same
    bins.
    """
    la, lb = len(a), len(b)
    if la != lb:
        raise UploadError("{first} has {bins_first} bins but {second} has {bins_second}; both "
                          "histograms need the same bins.", first=names[0], bins_first=la,
                          second=names[1], bins_second=lb)
