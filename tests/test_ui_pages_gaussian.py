"""ui/pages/gaussian.py: the Gaussian mechanism page's settings, solving and sentences,
tested directly (no Streamlit run)."""

from __future__ import annotations

from dpcore import gaussian
from ui.pages import gaussian as page


def test_the_classical_calibration_above_its_proved_range_gets_a_note():
    table = gaussian.calibration_table(2.0, 1e-5)
    noted = page.calibration_notes(table, 2.0).set_index("method")
    assert noted.loc["classical", "note"] == ("not a guarantee: the classical formula is proved "
                                              "for ε < 1 only (here ε = 2)")
    assert noted.loc["analytic", "note"] == noted.loc["tail", "note"] == ""
    assert table.note.eq("").all()  # the input is left as it was


def test_valid_rows_and_reasons_for_no_solution_are_kept():
    table = gaussian.calibration_table(0.5, 1e-5)
    assert page.calibration_notes(table, 0.5).equals(table)
    none = gaussian.calibration_table(0.0, 1e-3)
    noted = page.calibration_notes(none, 0.0).set_index("method")
    assert noted.loc["tail", "note"] == none.set_index("method").loc["tail", "note"] != ""
