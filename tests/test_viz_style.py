"""Tests of dpviz.style: the colour scheme."""

from dpviz.style import COLORS, OKABE_ITO


def test_every_colour_but_the_reference_grey_is_okabe_ito():
    assert set(COLORS.values()) - set(OKABE_ITO.values()) == {COLORS["reference"]}
