"""ui.links: every typed link between pages opens its target with every value it carries
used (no note on unusable link values), on the tab it names, at the values it says."""

from __future__ import annotations

import pytest

from conftest import open_page
from pagekit import link_notes
from ui import links

FDP, LDP, RS = links.FdpParams, links.LdpParams, links.SubstitutionParams

# (link, {widget kind and key: the value the target page must show})
CASES = {
    "gaussian->fdp": (links.to_fdp_gaussian(1.234), {("slider", FDP.G_MU): 1.25}),
    "gaussian->fdp, beyond the slider": (links.to_fdp_gaussian(40.0),
                                         {("slider", FDP.G_MU): FDP.MU_MAX}),
    "ldp->fdp": (links.to_fdp_krr(0.45, 120), {("select_slider", FDP.KRR_EPS): 0.5,
                                               ("slider", FDP.KRR_K): FDP.K_MAX}),
    "substitution->fdp": (links.to_fdp_substitution(7.0, 9),
                          {("select_slider", FDP.RS_GAMMA): 5.0, ("slider", FDP.RS_N): 9,
                           ("toggle", FDP.SHOW_RS): True, ("toggle", FDP.SHOW_KRR): False}),
    "substitution->ldp": (links.to_ldp(0.69, source="korea", k=9),
                          {("select_slider", LDP.EPS): 0.7, ("selectbox", LDP.SOURCE): "korea",
                           ("slider", LDP.K): 9}),
    "ldp->substitution": (links.to_substitution(2.72, source="usa", n=12),
                          {("select_slider", RS.GAMMA): 3.0, ("selectbox", RS.SOURCE): "usa",
                            ("slider", f"{RS.N}_slider"): 12}),
}


@pytest.mark.parametrize("name", CASES)
def test_a_typed_link_opens_its_target_with_every_value_used(name):
    link, expected = CASES[name]
    at = open_page(link.page.script, link.page.title, link.query)
    assert not link_notes(at), link_notes(at)
    tab_key = next(k for k in link.query if k.endswith("_tab"))
    assert at.session_state[tab_key] == link.query[tab_key]
    for (kind, key), value in expected.items():
        assert getattr(at, kind)(key=key).value == value, key
