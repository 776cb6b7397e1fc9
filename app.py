"""Entry point of the dashboard: routes to the pages of ui.registry, nothing else."""

import streamlit as st

from ui import registry


def main() -> None:
    st.set_page_config(page_title=registry.HOME.label, page_icon=":material/visibility:",
                       layout="wide")
    # Section "" has no header: its pages stand at the top of the menu.
    pages = {section: [st.Page(p.script, title=p.label, icon=p.icon, url_path=p.url_path or None,
                               default=p.default) for p in specs]
             for section, specs in registry.sections().items()}
    st.navigation(pages).run()


if __name__ == "__main__":
    main()
