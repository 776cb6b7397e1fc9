"""Tests of dpcore.uploads: every reader against files written by hand, every refusal
with a message that says what to fix."""

import numpy as np
import pandas as pd
import pytest

from dpcore import uploads
from dpcore.datasets import age_bin_labels
from dpcore.uploads import (
    UploadError,
    check_same_length,
    counts_from_column,
    read_csv_upload,
)

EN = "\u2013"  # the en dash of age-group labels


# ---------------------------------------------------------------------------
# read_csv_upload: valid files
# ---------------------------------------------------------------------------

def test_upload_one_column_with_header():
    df = read_csv_upload(b"temperature\n12.5\n-3\n7e1\n")
    assert list(df.columns) == ["temperature"]
    assert df["temperature"].dtype == np.float64
    assert df["temperature"].tolist() == [12.5, -3.0, 70.0]
    assert isinstance(df.index, pd.RangeIndex)


def test_upload_two_columns_without_header():
    df = read_csv_upload(b"1,2\r\n3,4\r\n5,6\r\n")
    assert list(df.columns) == ["column 1", "column 2"]
    assert df.to_numpy().tolist() == [[1, 2], [3, 4], [5, 6]]


def test_upload_label_column_and_counts():
    text = f"age,A,B\n0{EN}4,10,12\n5{EN}9,20,18\n85+,5,0\n"
    df = read_csv_upload(text.encode())
    assert list(df.columns) == ["A", "B"]
    assert list(df.index) == [f"0{EN}4", f"5{EN}9", "85+"]
    assert df.index.name == "age"
    assert df["B"].tolist() == [12.0, 18.0, 0.0]


def test_upload_label_column_without_header():
    df = read_csv_upload(f"0{EN}9,1,2\n10+,3,4\n".encode())
    assert list(df.index) == [f"0{EN}9", "10+"]
    assert df.shape == (2, 2)


def test_upload_columns_of_different_lengths():
    df = read_csv_upload(b"x,y\n1,10\n2,20\n3\n4,\n")
    assert df["x"].tolist() == [1, 2, 3, 4]
    assert df["y"].iloc[:2].tolist() == [10, 20]
    assert df["y"].iloc[2:].isna().all()
    assert df["y"].dropna().tolist() == [10, 20]


def test_upload_bom_and_blank_lines():
    df = read_csv_upload(b"\xef\xbb\xbfcount\r\n1\r\n2\r\n\r\n\r\n")
    assert list(df.columns) == ["count"]
    assert df["count"].tolist() == [1, 2]


def test_upload_tab_separated_and_grouped_thousands():
    assert read_csv_upload(b"a\tb\n1\t2\n")["b"].tolist() == [2.0]
    assert read_csv_upload(b'n\n"1,234,567"\n-8\n')["n"].tolist() == [1_234_567.0, -8.0]


# ---------------------------------------------------------------------------
# read_csv_upload: errors
# ---------------------------------------------------------------------------

@pytest.mark.parametrize(
    "data,match",
    [
        (b"", "empty"),
        (b" \n\n", "empty"),
        ("연령,인구\n0,1\n".encode("cp949"), "not UTF-8.*Save it as UTF-8"),
        ("café\n1\n".encode("latin-1"), "not UTF-8.*Save it as UTF-8"),
        (b"x\n1\x00\x02\n", "binary"),
        (b"PK\x03\x04\x14\x00\x06\x00", "Excel"),
        ("x\n1\n".encode("utf-16"), "UTF-16"),
        (b"x,y\n", "no data rows"),
        (b"x\n1\nabc\n", r'Row 3, column "x": "abc" is not a number'),
        (b"1,2\n3,4 apples\n", r'Row 2, column "column 2": "4 apples" is not a number'),
        (b"x\n1\n\n3\n", r'Row 3, column "x".*blank'),
        (b"x,y\n1,2\n,4\n5,6\n", r'Row 3, column "x".*blank'),
        (b"x\n1\ninf\n", r'"inf".*finite'),
        (b"x\n1\nNaN\n", r'"NaN".*finite'),
        (b"x\n-Infinity\n", "finite"),
        (b"x\n2e15\n", r'Row 2, column "x": "2e15" is too large'),
        (b"x\n-1e400\n", "too large"),
    ],
)
def test_upload_errors(data, match):
    with pytest.raises(UploadError, match=match):
        read_csv_upload(data)


def test_upload_error_is_value_error():
    assert issubclass(UploadError, ValueError)


def test_upload_long_bad_text_is_truncated():
    bad = "y" * 50
    with pytest.raises(UploadError) as info:
        read_csv_upload(f"x\n1\n{bad}\n".encode())
    message = str(info.value)
    assert f'"{"y" * 30}…"' in message and "y" * 31 not in message


def test_upload_size_limit():
    data = b"x\n" + b"1\n" * 100
    assert len(read_csv_upload(data, max_bytes=len(data))) == 100
    with pytest.raises(UploadError, match="larger than the limit"):
        read_csv_upload(data, max_bytes=len(data) - 1)


def test_upload_row_and_column_limits():
    assert len(read_csv_upload(b"x\n" + b"1\n" * 5, max_rows=5)) == 5
    with pytest.raises(UploadError, match="data rows"):
        read_csv_upload(b"x\n" + b"1\n" * 6, max_rows=5)
    with pytest.raises(UploadError, match="data rows"):
        read_csv_upload(b"1\n" * 1000, max_rows=5)
    row = ",".join(["1"] * 4).encode()
    assert read_csv_upload(row + b"\n", max_columns=4).shape == (1, 4)
    with pytest.raises(UploadError, match="5 columns; at most 4"):
        read_csv_upload(row + b",1\n", max_columns=4)


def test_upload_mixed_first_column_with_header_is_labels():
    df = read_csv_upload(b"bin,private_A,private_B\n0,1.5,2\n1,3,4\n85+,5,6\n")
    assert list(df.columns) == ["private_A", "private_B"]
    assert (df.dtypes == np.float64).all()
    assert list(df.index) == ["0", "1", "85+"]
    assert all(isinstance(v, str) for v in df.index)
    assert df.index.name == "bin"
    assert df["private_A"].tolist() == [1.5, 3.0, 5.0]
    assert df["private_B"].tolist() == [2.0, 4.0, 6.0]


def test_upload_single_year_download_round_trips():
    # The dashboard's "histograms.csv" for single-year ages: "0".."84", "85+".
    labels = age_bin_labels(1)
    table = pd.DataFrame(
        {"private_A": np.arange(86) * 1.5, "private_B": np.arange(86) + 0.25},
        index=pd.Index(labels, name="bin"),
    )
    df = read_csv_upload(table.to_csv().encode())
    assert list(df.index) == labels
    assert list(df.columns) == ["private_A", "private_B"]
    np.testing.assert_array_equal(df["private_A"].to_numpy(), np.arange(86) * 1.5)
    np.testing.assert_array_equal(df["private_B"].to_numpy(), np.arange(86) + 0.25)


def test_upload_dashboard_histograms_with_five_year_labels():
    labels = age_bin_labels(5)
    assert len(labels) == 18
    columns = ["original_A", "private_A", "debiased_A", "rescaled_A",
               "original_B", "private_B", "debiased_B", "rescaled_B", "p0_hat"]
    rows = [",".join([label] + [f"{10 * i + j + 0.5}" for j in range(len(columns))])
            for i, label in enumerate(labels)]
    text = "bin," + ",".join(columns) + "\n" + "\n".join(rows) + "\n"
    df = read_csv_upload(text.encode())
    assert list(df.index) == labels
    assert df.index.name == "bin"
    assert list(df.columns) == columns
    assert df.shape == (18, 9)
    assert (df.dtypes == np.float64).all()
    assert df["private_A"].tolist() == [10 * i + 1.5 for i in range(18)]
    assert df["p0_hat"].iloc[-1] == 10 * 17 + 8.5


def test_upload_mixed_first_column_and_text_elsewhere_names_the_other_column():
    with pytest.raises(UploadError, match=r'Row 3, column "n": "many" is not a number'):
        read_csv_upload(b"age,n\n84,1\n85+,many\n")


def test_upload_mixed_first_column_without_header_gives_label_hint():
    with pytest.raises(UploadError, match=r'"85\+" is not a number.*bin labels.*header'):
        read_csv_upload(b"84,1\n85+,2\n")


def test_upload_mixed_single_column_is_an_error():
    with pytest.raises(UploadError, match=r'Row 3, column "age": "85\+" is not a number'):
        read_csv_upload(b"age\n84\n85+\n")


def test_upload_rejects_arguments():
    with pytest.raises(ValueError, match="`data` must be bytes"):
        read_csv_upload("x\n1\n")
    with pytest.raises(ValueError, match="`max_rows`"):
        read_csv_upload(b"x\n1\n", max_rows=0)


# ---------------------------------------------------------------------------
# counts_from_column and check_same_length
# ---------------------------------------------------------------------------

def test_counts_from_column_valid():
    df = read_csv_upload(b"A,B\n1,0\n2.5,3\n0,4\n")
    counts = counts_from_column(df["A"], name="A")
    assert counts.dtype == np.float64 and counts.tolist() == [1, 2.5, 0]
    assert counts_from_column([0, 7]).tolist() == [0, 7]


def test_counts_from_column_short_column():
    df = read_csv_upload(b"A,B\n1,2\n3,4\n5\n")
    with pytest.raises(UploadError, match=r'Histogram B \(column "B"\) has 2 values but the '
                                          "longest column has 3"):
        counts_from_column(df["B"], name="B")


@pytest.mark.parametrize(
    "column,match",
    [
        ([1, -2, 3], "negative count.*row 2"),
        ([0, 0, 0], "all counts equal to 0"),
        ([5], "1 bin; a histogram needs at least 2 bins"),
        ([], "at least 2 bins"),
        ([1, np.inf], "finite"),
        (["a", "b"], "only numbers"),
    ],
)
def test_counts_from_column_errors(column, match):
    with pytest.raises(UploadError, match=f"Histogram A.*{match}"):
        counts_from_column(column)


def test_counts_from_column_names_the_column():
    with pytest.raises(UploadError, match=r'Histogram B \(column "women"\).*negative'):
        counts_from_column(pd.Series([1.0, -1.0], name="women"), name="B")


def test_check_same_length():
    check_same_length(np.ones(18), [0] * 18)
    with pytest.raises(UploadError,
                       match="A has 20 bins but B has 18; both histograms need the same bins"):
        check_same_length(np.ones(20), np.ones(18))
    with pytest.raises(UploadError, match="men has 2 bins but women has 3"):
        check_same_length([1, 2], [1, 2, 3], names=("men", "women"))



def test_read_answers_upload_and_categories():
    from dpcore.uploads import categories_from_column, read_answers_upload

    table = read_answers_upload("answer;score\nyes;3\nno;\n yes ;3.0\n\n".encode())
    assert list(table.columns) == ["answer", "score"] and len(table) == 3
    labels, counts, index = categories_from_column(table["answer"])
    assert labels == ["no", "yes"] and list(counts) == [1, 2] and list(index) == [1, 0, 1]
    # text cells are categories as written; a numeric column reads 3 and 3.0 as one number
    assert categories_from_column(pd.Series([3, 3.0, 4]))[0] == ["3", "4"]
    for data, fragment in [(b"", "empty"), (b"answer\n", "no data rows"),
                           (b"a,a\nx,y\n", "same name"), (b"id,answer\n1,\n2,\n", "no values"),
                           (b"\x00\x01", "binary"), ("é".encode("latin-1") + b"\nx\n", "UTF-8")]:
        with pytest.raises(UploadError, match=fragment):
            read_answers_upload(data)
    with pytest.raises(UploadError, match="single category"):
        categories_from_column(pd.Series(["a", "a"], name="q"))
    with pytest.raises(UploadError, match="at most 3"):
        categories_from_column(pd.Series(list("abcd")), max_categories=3)


# ---------------------------------------------------------------------------
# Row numbers: every message counts the file's lines, header included
# ---------------------------------------------------------------------------

def _row_of(message: str) -> int:
    import re
    [row] = re.findall(r"\b[Rr]ow (\d+)", message)
    return int(row)


@pytest.mark.parametrize("template", [
    "a\n1\n{bad}\n3\n",  # a header, one column
    "label,count\nx,1\ny,{bad}\nz,3\n",  # a header, a column of labels
    "\n\nlabel,count\nx,1\ny,{bad}\nz,3\n",  # blank lines above the header
    "x,1\ny,{bad}\nz,3\n",  # no header: labels all the way down
    "1\n{bad}\n3\n",  # no header, one column
])
def test_a_text_cell_and_a_negative_count_in_the_same_place_name_the_same_row(template):
    """The file's line number (header included), whichever check refuses the cell."""
    with pytest.raises(UploadError) as text_cell:
        read_csv_upload(template.format(bad="oops").encode())
    table = read_csv_upload(template.format(bad="-2").encode())
    with pytest.raises(UploadError, match="negative count") as negative:
        counts_from_column(table[table.columns[0]], name="A")
    assert _row_of(str(text_cell.value)) == _row_of(str(negative.value))
    lines = template.format(bad="-2").split("\n")
    assert lines[_row_of(str(negative.value)) - 1].endswith("-2")  # that line of the file


def test_the_text_cell_hint_suggests_values_that_are_accepted():
    import re
    for data in (b"a\n1\noops\n3\n", b"84,1\n85+,oops\n"):
        with pytest.raises(UploadError) as info:
            read_csv_upload(data)
        suggested = re.search(r"such as (\S+) or (\S+?)\.(?:\s|$)", str(info.value)).groups()
        assert suggested == ("12", "3.5")
        for value in suggested:
            table = read_csv_upload(b"a\n1\n" + value.encode() + b"\n3\n")
            assert counts_from_column(table["a"]).tolist() == [1, float(value), 3]


# ---------------------------------------------------------------------------
# guess_file_kind: counts per category, or one answer per row
# ---------------------------------------------------------------------------

@pytest.mark.parametrize(("data", "expected"), [
    # a histogram: labels and a column of counts
    (b"label,count\na,10\nb,20\nc,5\nd,0\ne,7\nf,3\n", ("counts", "count")),
    (b"answer,users\nyes,300\nno,700\n", ("counts", "users")),  # distinct labels, numbers
    (b"a,10\nb,20\nc,5\n", ("counts", "column 2")),  # no header
    (b"Count\n10\n20\n5\n", ("counts", "Count")),  # a column headed like counts
    (b"id,N\n1,5\n2,7\n", ("counts", "N")),
    (b"group,freq,share\nx,3,0.3\ny,7,0.7\n", ("counts", "freq")),
    # headed like counts: read as counts even with bad cells, which that reading refuses
    (b"label,count\na,10\nb,x\n", ("counts", "count")),
    (b"label,counts\na,-1\nb,2\n", ("counts", "counts")),
    # one answer per row
    (b"answer\nyes\nno\nyes\n", ("categories", None)),
    (b"id,group\n1,3\n2,1\n3,3\n", ("categories", None)),  # numeric ids are not labels
    (b"answer,age\nyes,31\nno,45\nyes,22\n", ("categories", None)),  # labels repeat
    (b"answer,score,age\nyes,3,31\nno,4,45\n", ("categories", None)),  # two numeric columns
    (b"answer,comment\nyes,good\nno,bad\n", ("categories", None)),  # no numbers
    (b"3\n1\n3\n2\n", ("categories", None)),
])
def test_guess_file_kind(data, expected):
    assert uploads.guess_file_kind(data) == expected


def test_guess_file_kind_refuses_what_no_reading_can_use():
    with pytest.raises(UploadError, match="empty"):
        uploads.guess_file_kind(b"")
    with pytest.raises(ValueError, match="`data` must be bytes"):
        uploads.guess_file_kind("a\n1\n")
