"""Retake the README's screenshots and the home page's thumbnails from the running app.

    .venv/bin/python scripts/screenshots.py            # every page
    .venv/bin/python scripts/screenshots.py ldp fdp    # some pages (URL paths; home)
    .venv/bin/python scripts/screenshots.py --lang ko home compare_histograms   # Korean twins

Starts `streamlit run app.py` (tests/browserkit.py), opens every page of ui.registry
routes to at its defaults in Debian's Chromium (1400 px wide), waits until the script run
has ended and every element is drawn, and saves:

- docs/<page>.png: the top of the page, 1400 x --height px (the home page 1400 x
  --home-height px, all of it);
- docs/thumbs/<page>.png: the top of the main column, 480 x 384 px, for the home page's
  cards (not for the home page itself).

With ``--lang ko`` the pages open in Korean (``?lang=ko``): their thumbnails are saved as
docs/thumbs/ko/<page>.png (the Korean home page's cards), and the pages the README shows in
Korean (:data:`README_KO`) as docs/<page>_ko.png.

A developer's tool, not part of the tests; it needs the dev requirements (Playwright) and
/usr/bin/chromium. Pillow, a dependency of Streamlit, resizes the thumbnails.
"""

from __future__ import annotations

import argparse
import io
import sys
import tempfile
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO_ROOT), str(REPO_ROOT / "tests"), str(REPO_ROOT / "benchmarks")]
import browserkit  # noqa: E402  (the server, Chromium, the wait for a drawn page)
import load_test  # noqa: E402  (the load timeout)
from ui import registry  # noqa: E402

DOCS = REPO_ROOT / "docs"
THUMBS = DOCS / "thumbs"
WIDTH = 1400
THUMB = (480, 384)
README_KO = ("home", "compare_histograms")  # the README's Korean twins
# The main column at 1400 px with the sidebar open (its left edge, its width), below the
# empty band above the title.
MAIN_LEFT, MAIN_WIDTH, MAIN_TOP = 350, 1000, 70


def shoot(page, url: str, title: str, out: Path | None, height: int,
          thumb: Path | None) -> None:
    from PIL import Image

    # The page scrolls inside the app, not the document: the window is as tall as the picture.
    page.set_viewport_size({"width": WIDTH, "height": height})
    page.goto(url, timeout=load_test.LOAD_TIMEOUT_S * 1000)
    page.get_by_role("heading", name=title).first.wait_for(
        timeout=load_test.LOAD_TIMEOUT_S * 1000)
    page.wait_for_function(browserkit.WAIT_IDLE, arg=[1500, browserkit.SKELETON], polling=100,
                           timeout=load_test.LOAD_TIMEOUT_S * 1000)
    page.mouse.move(0, 0)  # no hover effects in the picture
    image = Image.open(io.BytesIO(page.screenshot(timeout=90_000)))
    if out is not None:
        image.save(out, optimize=True)
    if thumb is not None:
        top = image.crop((MAIN_LEFT, MAIN_TOP, MAIN_LEFT + MAIN_WIDTH,
                          MAIN_TOP + round(MAIN_WIDTH * THUMB[1] / THUMB[0])))
        top.resize(THUMB, Image.LANCZOS).save(thumb, optimize=True)
    print(", ".join(str(path.relative_to(REPO_ROOT)) for path in (out, thumb) if path),
          f"{image.width}x{image.height}", flush=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pages", nargs="*", help="file stems (default: every page)")
    parser.add_argument("--height", type=int, default=1900,
                        help="the screenshots' height in pixels (default 1900)")
    parser.add_argument("--home-height", type=int, default=2550,
                        help="the home page's screenshot height in pixels (default 2550)")
    parser.add_argument("--lang", default="en", choices=("en", "ko"),
                        help="the interface language (default en; ko: docs/<page>_ko.png)")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    from ui.text import t, use_language

    use_language(args.lang)  # the page titles the screenshots wait for
    suffix, query = ("", "") if args.lang == "en" else (f"_{args.lang}", f"?lang={args.lang}")

    pages = [p for p in registry.PAGES
             if not args.pages or (p.url_path or "home") in args.pages]
    registry.thumb_path(registry.PAGES[-1], args.lang).parent.mkdir(parents=True,
                                                                    exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        server = browserkit.start_streamlit(Path(tmp) / "server.log")
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=str(browserkit.CHROMIUM),
                                             args=browserkit.CHROMIUM_ARGS)
                ctx = browser.new_context(viewport={"width": WIDTH, "height": 1000})
                ctx.add_init_script(browserkit.INIT_SCRIPT)
                page = ctx.new_page()
                for p in pages:
                    # Named by the page's address (the calibration page: test_calibration).
                    stem = p.url_path or "home"
                    home = p is registry.HOME
                    shoot(page, f"{server.url}/{p.url_path}{query}", t(p.title),
                          DOCS / f"{stem}{suffix}.png"
                          if not suffix or stem in README_KO else None,
                          args.home_height if home else args.height,
                          None if home else registry.thumb_path(p, args.lang))
                browser.close()
        finally:
            browserkit.stop_streamlit(server.proc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
