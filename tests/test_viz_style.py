"""Tests of dpviz.style: the colour scheme."""

from dpviz.style import COLORS, OKABE_ITO


def test_the_palette_is_okabe_ito():
    assert OKABE_ITO == {
        "black": "#000000", "orange": "#E69F00", "sky blue": "#56B4E9",
        "bluish green": "#009E73", "yellow": "#F0E442", "blue": "#0072B2",
        "vermillion": "#D55E00", "reddish purple": "#CC79A7"}
    # Every colour but the grey of reference lines is from the palette.
    assert set(COLORS.values()) - set(OKABE_ITO.values()) == {COLORS["reference"]}
