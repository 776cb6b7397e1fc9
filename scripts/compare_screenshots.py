"""Put two sets of page screenshots side by side and say where they differ.

    .venv/bin/python scripts/compare_screenshots.py BEFORE_DIR AFTER_DIR OUT_DIR

For every docs-style screenshot <page>.png in both folders: OUT_DIR/<page>.png holds the
two side by side with the differing pixels marked in red on a third panel, and a line
says the share of pixels that differ and the bounding box of the difference. A
developer's tool (Pillow comes with Streamlit), used to check that a refactoring leaves
every page looking the same.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageChops


def compare(before: Path, after: Path, out: Path) -> str:
    a = Image.open(before).convert("RGB")
    b = Image.open(after).convert("RGB")
    width, height = max(a.width, b.width), max(a.height, b.height)
    pa, pb = (Image.new("RGB", (width, height), "white") for _ in range(2))
    pa.paste(a)
    pb.paste(b)
    diff = ImageChops.difference(pa, pb).convert("L").point(lambda v: 255 if v > 16 else 0)
    changed = diff.histogram()[255]  # the marked pixels (0 or 255 only)
    marked = pb.copy()
    marked.paste(Image.new("RGB", (width, height), (220, 0, 0)), mask=diff)
    sheet = Image.new("RGB", (3 * width, height), "white")
    for i, img in enumerate((pa, pb, marked)):
        sheet.paste(img, (i * width, 0))
    sheet.save(out, optimize=True)
    box = diff.getbbox()
    return (f"{before.stem}: {changed / (width * height):.2%} of pixels differ"
            + (f", within {box}" if box else "") + f"; sizes {a.size} -> {b.size}")


def main() -> None:
    before, after, out = (Path(p) for p in sys.argv[1:4])
    out.mkdir(parents=True, exist_ok=True)
    for path in sorted(before.glob("*.png")):
        if (after / path.name).is_file():
            print(compare(path, after / path.name, out / path.name))


if __name__ == "__main__":
    main()
