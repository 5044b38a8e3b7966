"""The pictures of docs/screenshots/: their sizes and how one is taken and made small."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page

from .conftest import LAPTOP, PHONE

#: A laptop screen (the page's main target) and a phone.
SIZES = {"laptop": LAPTOP, "phone": PHONE}


def small(path: Path) -> None:
    """The picture at ``path`` as a small palette PNG when Pillow is installed (unchanged
    otherwise)."""
    try:
        from PIL import Image
    except ImportError:
        return
    with Image.open(path) as img:
        smaller = img.convert("RGB").quantize(colors=128, method=Image.Quantize.MEDIANCUT)
    smaller.save(path, optimize=True)


def shot(page: Page, path: Path) -> None:
    """A screenshot of the viewport once the cards stopped moving, made :func:`small`."""
    page.wait_for_timeout(900)
    page.screenshot(path=path)
    small(path)
