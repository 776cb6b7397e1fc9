"""Entry point of the dashboard: routes to the pages, nothing else."""

import streamlit as st


def main() -> None:
    st.set_page_config(page_title="Seeing differential privacy", page_icon=":material/visibility:",
                       layout="wide")
    pages = {
        # "": no section header, at the top of the menu.
        "": [
            st.Page("views/home.py", title="Seeing differential privacy", icon=":material/home:",
                    default=True),
        ],
        "Testing private data": [
            st.Page("views/compare_histograms.py", title="Compare two private histograms",
                    icon=":material/compare_arrows:"),
            st.Page("views/test_calibration.py", title="Test calibration",
                    icon=":material/tune:"),
            st.Page("views/planner.py", title="Privacy–utility planner",
                    icon=":material/balance:"),
        ],
        "Privacy guarantees": [
            st.Page("views/fdp.py", title="f-DP and Gaussian DP", icon=":material/shield:"),
            st.Page("views/gaussian.py", title="Gaussian mechanism",
                    icon=":material/ssid_chart:"),
            st.Page("views/ldp.py", title="Randomized response (local DP)",
                    icon=":material/casino:"),
            st.Page("views/substitution.py", title="Random substitution",
                    icon=":material/shuffle:"),
        ],
    }
    st.navigation(pages).run()


if __name__ == "__main__":
    main()
