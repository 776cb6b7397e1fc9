"""Entry point of the dashboard: sets the reader's language and presenting mode, and routes
to the pages of ui.registry, nothing else."""

import streamlit as st

from ui import language, present, registry


def main() -> None:
    language.choose()  # before the menu: its entries are in the reader's language
    presenting = present.choose()  # ?present=1: for a projector
    st.set_page_config(page_title=registry.HOME.label, page_icon=":material/visibility:",
                       layout="wide",
                       initial_sidebar_state="collapsed" if presenting else "auto")
    # Section "" has no header: its pages stand at the top of the menu.
    pages = {specs[0].section_label: [
        st.Page(p.script, title=p.label, icon=p.icon, url_path=p.url_path or None,
                default=p.default) for p in specs]
        for specs in registry.sections().values()}
    st.navigation(pages).run()


if __name__ == "__main__":
    main()
