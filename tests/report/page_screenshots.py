"""Screenshots of a report page in headless chromium, as kept in ``docs/`` (see
docs/reports.md, "The page at any size").

    python -m tests.report.page_screenshots REPORT_DIR OUT_DIR

writes ``report-page-wide.png`` (1400 px window, the logic_mt section's first tables),
``report-page-narrow.png`` (800 px window, the same table scrolled to its right end: its
label column stays in view) and ``report-page-figures.png`` (1400 px, logic_mt's headline
figures, one per split: the report must hold the default and the hard logic split). The
page itself runs no script (its content policy forbids it); the scrolling is done
through the DevTools protocol, as the browser test does (`tests.support.browser`).
"""

from __future__ import annotations

import asyncio
import base64
import json
import sys
from pathlib import Path

from tests.support.browser import find_chromium, page_socket

PLACE = """(() => {{
  const start = document.getElementById({anchor!r});
  window.scrollTo(0, start.getBoundingClientRect().top + window.scrollY - 8);
  if ({scroll}) {{
    document.querySelectorAll('.scroll').forEach(b => {{ b.scrollLeft = b.scrollWidth; }});
  }}
  return window.scrollY;
}})()"""


async def _shoot(ws_url: str, url: str, width: int, height: int, anchor: str,
                 scroll: bool) -> bytes:
    import aiohttp

    async with aiohttp.ClientSession() as session, session.ws_connect(
            ws_url, max_msg_size=0) as ws:
        counter = 0

        async def call(method: str, params: dict | None = None) -> dict:
            nonlocal counter
            counter += 1
            await ws.send_str(json.dumps({"id": counter, "method": method,
                                          "params": params or {}}))
            while True:
                message = json.loads((await ws.receive(timeout=120)).data)
                if message.get("id") == counter:
                    return message.get("result", {})

        await call("Page.enable")
        await call("Emulation.setDeviceMetricsOverride",
                   {"width": width, "height": height, "deviceScaleFactor": 1,
                    "mobile": False})
        await call("Page.navigate", {"url": url})
        while True:
            message = json.loads((await ws.receive(timeout=120)).data)
            if message.get("method") == "Page.loadEventFired":
                break
        await call("Runtime.evaluate", {"expression": PLACE.format(
            anchor=anchor, scroll="true" if scroll else "false")})
        await asyncio.sleep(0.5)
        shot = await call("Page.captureScreenshot", {"format": "png"})
    return base64.b64decode(shot["data"])


def screenshot(page: Path, out: Path, width: int, height: int, anchor: str,
               scroll: bool) -> Path:
    """One screenshot of `page` in a `width` x `height` window, from the element `anchor`
    down; `scroll`: every wide table scrolled to its right end first."""
    chromium = find_chromium()
    if chromium is None:
        raise SystemExit("no chromium (apt-get install chromium)")
    with page_socket(chromium, "--hide-scrollbars") as ws_url:
        data = asyncio.run(_shoot(ws_url, page.resolve().as_uri(), width, height, anchor,
                                  scroll))
    out.write_bytes(data)
    return out


def main(argv: list[str]) -> None:
    report, out = Path(argv[0]), Path(argv[1])
    out.mkdir(parents=True, exist_ok=True)
    page = report / "index.html"
    screenshot(page, out / "report-page-wide.png", 1400, 1100, "logic_mt", False)
    screenshot(page, out / "report-page-narrow.png", 800, 1000, "logic_mt", True)
    screenshot(page, out / "report-page-figures.png", 1400, 1000,
               "logic_mt.headline.split-default", False)


if __name__ == "__main__":
    main(sys.argv[1:])
