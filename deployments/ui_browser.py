"""Headless Chromium for the UI check, driven over the DevTools protocol: open a page, wait
until it shows what it must and stops changing, take a screenshot (`deployments/ui_check.py`)."""

from __future__ import annotations

import base64
import json
import time
from pathlib import Path
from typing import Any

# Imported by ui_check.py, which puts the repo root on sys.path first.
from permem.errors import CheckFailed

from ui_processes import Processes

VIEWPORT = (1280, 800)
SETTLED = 1.5  # seconds a page must look the same before its screenshot is taken
# As the machine notes start it: without the background-networking flags Chromium keeps calling
# Google's hosts, which this closed network refuses.
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--mute-audio",
    "--force-device-scale-factor=1",
    # The run graph is WebGL; with no GPU, say so instead of relying on a deprecated fallback.
    "--enable-unsafe-swiftshader",
    f"--window-size={VIEWPORT[0]},{VIEWPORT[1]}",
    "--remote-debugging-port=0",  # on 127.0.0.1; the port is read from DevToolsActivePort
)


class Browser:
    """Headless Chromium, driven over the DevTools protocol (a websocket on 127.0.0.1)."""

    def __init__(self, connection: Any, session: str) -> None:
        self.connection = connection
        self.session = session
        self.calls = 0

    @classmethod
    def start(cls, processes: Processes, chromium: str, profile: Path) -> Browser:
        from websockets.sync.client import connect

        active_port = profile / "DevToolsActivePort"  # "<port>\n<browser websocket path>"
        active_port.unlink(missing_ok=True)  # left by an earlier run in the same --workdir
        process = processes.start(
            "chromium", [chromium, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "about:blank"]
        )
        deadline = time.monotonic() + 60
        while not active_port.exists() or len(active_port.read_text().splitlines()) < 2:
            processes.check_alive(process)
            if time.monotonic() > deadline:
                raise CheckFailed("chromium did not open its DevTools port within 60 s")
            time.sleep(0.2)
        port, path = active_port.read_text().splitlines()[:2]
        connection = connect(f"ws://127.0.0.1:{port}{path}", proxy=None, max_size=None)
        browser = cls(connection, "")
        target = browser.call("Target.createTarget", url="about:blank")["targetId"]
        browser.session = browser.call("Target.attachToTarget", targetId=target, flatten=True)[
            "sessionId"
        ]
        browser.resize(*VIEWPORT)
        return browser

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        """Send one command (to the page once attached) and return its result."""
        self.calls += 1
        message: dict[str, Any] = {"id": self.calls, "method": method, "params": params}
        if self.session:
            message["sessionId"] = self.session
        self.connection.send(json.dumps(message))
        while True:  # events arrive in between; they are not needed
            reply = json.loads(self.connection.recv(timeout=60))
            if reply.get("id") == self.calls:
                if "error" in reply:
                    raise CheckFailed(f"chromium: {method} failed: {reply['error']}")
                return dict(reply["result"])

    def evaluate(self, expression: str) -> Any:
        found = self.call(
            "Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True
        )
        if "exceptionDetails" in found:
            raise CheckFailed(f"chromium: {expression[:60]}: {found['exceptionDetails']['text']}")
        return found["result"].get("value")

    def _holds(self, expression: str) -> bool:
        try:
            return bool(self.evaluate(expression))
        except CheckFailed:  # the new page is still being swapped in
            return False

    def resize(self, width: int, height: int) -> None:
        self.call(
            "Emulation.setDeviceMetricsOverride",
            width=width, height=height, deviceScaleFactor=1, mobile=False,
        )  # fmt: skip

    def show(
        self, url: str, expected: list[str], height: int = VIEWPORT[1], timeout: float = 60
    ) -> bytes:
        """Open `url`, wait until its text holds every string of `expected` and it looks the
        same for `SETTLED` seconds; return a PNG of it, `height` pixels tall."""
        self.resize(VIEWPORT[0], height)
        navigated = self.call("Page.navigate", url=url)
        if navigated.get("errorText"):
            raise CheckFailed(f"chromium could not open {url}: {navigated['errorText']}")
        deadline = time.monotonic() + timeout
        text, shot, same_since = "", "", time.monotonic()
        while True:
            # The text says the data has arrived; the run graph and the charts are drawn on
            # canvases after it, so the pixels must stop changing too.
            try:
                text = self.evaluate("document.body ? document.body.innerText : ''") or ""
                missing = [e for e in expected if e not in text]
                latest = "" if missing else self.call("Page.captureScreenshot")["data"]
            except CheckFailed:  # the new page is still being swapped in
                missing, latest = expected, ""
            now = time.monotonic()
            if latest and latest == shot:
                if now - same_since >= SETTLED:
                    return base64.b64decode(shot)
            else:
                shot, same_since = latest, now
            if now > deadline:
                if shot:  # shown, but something keeps moving: take it as it is
                    return base64.b64decode(shot)
                shown = " ".join(text.split())[:160]
                raise CheckFailed(
                    f"{url} did not show {', '.join(missing)} within {timeout:.0f} s "
                    f"(it shows: {shown!r})"
                )
            time.sleep(0.3)

    def stack(self, pngs: list[bytes]) -> bytes:
        """The PNGs one above the other, with a thin rule between, as one PNG."""
        images = "".join(
            f'<img style="display:block;margin-bottom:4px" src="data:image/png;base64,'
            f'{base64.b64encode(png).decode()}">'
            for png in pngs
        )
        page = f'<html><body style="margin:0;background:#9ca3af">{images}</body></html>'
        self.call(
            "Page.navigate", url=f"data:text/html;base64,{base64.b64encode(page.encode()).decode()}"
        )
        deadline = time.monotonic() + 30
        ready = (
            f"document.images.length === {len(pngs)} && "
            "[...document.images].every(i => i.complete && i.naturalWidth > 0)"
        )
        while not self._holds(ready):
            if time.monotonic() > deadline:
                raise CheckFailed("chromium did not lay out the stacked screenshot within 30 s")
            time.sleep(0.2)
        height = int(self.evaluate("document.body.scrollHeight")) - 4  # no rule after the last
        self.resize(VIEWPORT[0], height)
        return base64.b64decode(self.call("Page.captureScreenshot", format="png")["data"])
