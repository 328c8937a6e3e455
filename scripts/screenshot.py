"""Render the bundled demo's HTML report and screenshot it in headless Chromium (Debian's).

Usage: python scripts/screenshot.py [OUT.png]   (default docs/report-demo.png; `make screenshot`)
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def render_demo(html_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "toolwitness", "scan", str(ROOT / "examples" / "catalogs"),
         "--format", "html", "--output", str(html_path)],
        check=False,  # the demo has findings: exit 1 is expected, the page is still written
        timeout=300,
    )  # fmt: skip
    if not html_path.exists():
        raise SystemExit("the demo report was not written")


def screenshot(html_path: Path, png_path: Path, width: int = 1280) -> None:
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": width, "height": 900})
        page.goto(html_path.resolve().as_uri())
        page.screenshot(path=str(png_path), full_page=True)
        browser.close()


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "report-demo.png"
    with tempfile.TemporaryDirectory() as tmp:
        html_path = Path(tmp) / "report.html"
        render_demo(html_path)
        screenshot(html_path, out)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
