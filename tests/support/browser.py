"""A real headless browser for the report page: Debian's `chromium`, driven through the
Chrome DevTools Protocol over a websocket (aiohttp, which Inspect's dependencies bring).

`load_page(path)` opens a file in a fresh headless chromium, waits for the load event and
returns what the page reported (console errors, uncaught exceptions, failed loads) and
what it shows (every image's natural and rendered size, every table's cell texts).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "chrome")

PAGE_FACTS = """JSON.stringify({
  images: Array.from(document.images).map(i => ({alt: i.alt, complete: i.complete,
    natural: [i.naturalWidth, i.naturalHeight], shown: [i.clientWidth, i.clientHeight]})),
  tables: Object.fromEntries(Array.from(document.querySelectorAll('table')).map(t => [t.id,
    Array.from(t.rows).map(r => Array.from(r.cells).map(c => c.textContent))]))
})"""


def find_chromium() -> str | None:
    for name in CHROMIUM_NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


@dataclass
class PageResult:
    errors: list[str]
    images: list[dict[str, Any]]
    tables: dict[str, list[list[str]]]
    measured: Any = None
    """What the caller's own `script` (a JS expression) returned, when one was given."""


async def _drive(ws_url: str, page_url: str, timeout: float, width: int | None = None,
                 script: str | None = None) -> PageResult:
    import aiohttp

    errors: list[str] = []
    counter = 0
    async with aiohttp.ClientSession() as session, session.ws_connect(
            ws_url, max_msg_size=0) as ws:
        async def call(method: str, params: dict | None = None) -> dict:
            nonlocal counter
            counter += 1
            mine = counter
            await ws.send_str(json.dumps({"id": mine, "method": method,
                                          "params": params or {}}))
            while True:
                message = json.loads((await ws.receive(timeout=timeout)).data)
                if message.get("id") == mine:
                    return message.get("result", {})
                note(message)

        def note(message: dict) -> None:
            method = message.get("method")
            params = message.get("params", {})
            if method == "Runtime.consoleAPICalled" and params.get("type") in ("error",
                                                                                "assert"):
                errors.append("console: " + " ".join(str(a.get("value", a.get("description")))
                                                     for a in params.get("args", [])))
            elif method == "Runtime.exceptionThrown":
                details = params.get("exceptionDetails", {})
                errors.append("exception: " + str(details.get("exception", {}).get(
                    "description") or details.get("text")))
            elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
                errors.append("log: " + params["entry"].get("text", ""))
            elif method == "Network.loadingFailed":
                errors.append("load failed: " + params.get("errorText", ""))

        for domain in ("Runtime", "Log", "Page", "Network"):
            await call(f"{domain}.enable")
        if width is not None:
            await call("Emulation.setDeviceMetricsOverride",
                       {"width": width, "height": 1000, "deviceScaleFactor": 1,
                        "mobile": False})
        await call("Page.navigate", {"url": page_url})
        loaded = False
        while not loaded:
            message = json.loads((await ws.receive(timeout=timeout)).data)
            loaded = message.get("method") == "Page.loadEventFired"
            note(message)
        await asyncio.sleep(0.3)  # let layout settle and late console messages arrive
        result = await call("Runtime.evaluate", {"expression": PAGE_FACTS,
                                                 "returnByValue": True})
        facts = json.loads(result["result"]["value"])
        measured = None
        if script is not None:
            reply = await call("Runtime.evaluate", {"expression": script,
                                                    "returnByValue": True})
            measured = reply["result"].get("value")
    return PageResult(errors, facts["images"], facts["tables"], measured)


@contextmanager
def page_socket(chromium: str, *flags: str) -> Iterator[str]:
    """Start a fresh headless `chromium` (with extra command-line `flags`) on a profile of
    its own and yield the DevTools websocket URL of its page; stopped on exit."""
    with tempfile.TemporaryDirectory(prefix="infoseek-chromium-") as profile:
        process = subprocess.Popen(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--disable-dev-shm-usage", "--remote-debugging-port=0", *flags,
             f"--user-data-dir={profile}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
            env={**os.environ, "HOME": profile})
        try:
            ws_url = None
            assert process.stderr is not None
            for line in process.stderr:
                found = re.search(r"(ws://[^\s]+/devtools/browser/[^\s]+)", line)
                if found:
                    ws_url = found.group(1)
                    break
            if ws_url is None:
                raise RuntimeError(f"{chromium} did not start its DevTools endpoint")
            port = re.search(r"ws://[^:/]+:(\d+)/", ws_url).group(1)
            yield _page_target(port)
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()


def load_page(path: Path, chromium: str, timeout: float = 60.0, width: int | None = None,
              script: str | None = None) -> PageResult:
    """Open `path` in headless chromium and report on it (module docstring); `width`: the
    window's width in CSS pixels; `script`: a JS expression evaluated after the load,
    whose JSON value is returned as ``measured``."""
    with page_socket(chromium) as page_ws:
        return asyncio.run(_drive(page_ws, path.resolve().as_uri(), timeout, width, script))


def _page_target(port: str) -> str:
    import urllib.request

    with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10) as reply:
        targets = json.loads(reply.read())
    for target in targets:
        if target.get("type") == "page":
            return target["webSocketDebuggerUrl"]
    raise RuntimeError("chromium opened no page target")
