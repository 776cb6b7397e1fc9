"""Page: the Class section's door: students type a join code, teachers start an activity.

Layout and widgets only: the database and who is who are ui.classroom's.
"""

from __future__ import annotations

import streamlit as st

from dpclass import storage
from ui import classroom, registry
from ui.kit import page_header
from ui.text import t

kit = page_header(registry.CLASS_JOIN.label)
kit.code_problem = t("A class activity's data lives in the class database of this server: "
                     "there is no code for this page.")

st.markdown(t("The room supplies the data. A teacher starts an activity and projects its "
              "join code; students open the link, scan the QR code or type the code here, on "
              "a phone or a laptop."))

classroom.remember_browser()
st.subheader(t("Join with a code"))
with st.form("class_join_form", border=True, enter_to_submit=True):
    typed = st.text_input(t("Join code"), max_chars=12, placeholder="ABCD-EFGH",
                          key="class_join_code",
                          help=t("The 8 letters and digits on the teacher's screen; dashes, "
                                 "spaces and small letters are fine."))
    joined = st.form_submit_button(t("Join"), type="primary", icon=":material/login:",
                                   help=t("Opens the activity of this code on this device."))
if joined:
    try:
        activity = classroom.store().join(typed or "", browser=classroom.student_token(),
                                          address=classroom.address())
    except storage.StorageError as error:
        st.error(classroom.error_text(error), icon=":material/error:")
    else:
        classroom.go_to(activity)

st.subheader(t("Start an activity (teachers)"))
st.markdown(t("Each activity opens a teacher's view made for the projector, with a join code, a "
              "QR code and live results. Nothing needs installing: the activity is kept in "
              "this server's class database and deleted {hours} hours after it starts, or when "
              "you delete it.", hours=f"{storage.default_ttl_s() / 3600:g}"))
for page, what in (
        (registry.CLASS_POLL,
         t("A sensitive question, answered by randomized response on each student's phone: "
           "the true answer never leaves it, and the class's shares are still estimated.")),
        (registry.CLASS_ATTACK,
         t("Each student plays the attacker of a private release and lands a point on the "
           "trade-off plot: nobody beats the curve by more than chance.")),
        (registry.CLASS_HISTOGRAM,
         t("Students enter a value; the teacher releases private histograms, each spending "
           "part of a privacy budget shown on a meter, and compares two groups."))):
    with st.container(border=True):
        st.page_link(page.script, label=page.label, icon=page.icon,
                     help=t("Opens the setup of a new activity: you will be its teacher."))
        st.caption(what)

kit.finding(t("Class activities: join with a code, or start a poll, a game or a histogram."))
kit.end()
