"""A headless Chromium driven over the DevTools protocol (CDP), for the viewer's browser tests.

Debian's ``chromium`` package (``apt-get install -y chromium``); WebGL comes from SwiftShader
(``--use-angle=swiftshader --enable-unsafe-swiftshader``), so no GPU or display is needed. The
browser runs offline (only 127.0.0.1 is reachable: the pages must need nothing else), in its own
temporary profile, and is killed on close."""

from __future__ import annotations

import base64
import io
import json
import re
import shutil
import subprocess
import tempfile
import time
import urllib.request

import numpy as np

CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def find_chromium():
    for name in CANDIDATES:
        path = shutil.which(name)
        if path:
            return path
    return None


class Browser:
    def __init__(self, width: int, height: int, timeout: float = 30.0):
        from websockets.sync.client import connect

        exe = find_chromium()
        if exe is None:
            raise RuntimeError("no chromium found")
        self._profile = tempfile.mkdtemp(prefix="torsion-chromium-")
        self.proc = subprocess.Popen(
            [exe, "--headless=new", "--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
             "--ignore-gpu-blocklist", "--no-first-run", "--no-default-browser-check", "--disable-extensions",
             "--hide-scrollbars", "--mute-audio",
             # offline: no name resolves but 127.0.0.1, and anything else goes to a dead proxy
             "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1", "--proxy-server=127.0.0.1:9", f"--user-data-dir={self._profile}", f"--window-size={width},{height}",
             "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            port = None
            end = time.monotonic() + timeout
            while time.monotonic() < end and port is None:
                line = self.proc.stderr.readline()
                if not line and self.proc.poll() is not None:
                    raise RuntimeError(f"chromium exited with code {self.proc.returncode}")
                m = re.search(r"DevTools listening on ws://127\.0\.0\.1:(\d+)/", line)
                if m:
                    port = int(m.group(1))
            if port is None:
                raise RuntimeError("chromium did not open its DevTools port")
            # keep draining stderr so the browser never blocks on a full pipe
            import threading

            self._drain = threading.Thread(target=lambda: [None for _ in self.proc.stderr], daemon=True)
            self._drain.start()
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=timeout) as r:
                pages = [t for t in json.loads(r.read()) if t["type"] == "page"]
            self.ws = connect(pages[0]["webSocketDebuggerUrl"], max_size=None, open_timeout=timeout)
            self._id = 0
            self.timeout = timeout
            self.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=False)
        except BaseException:
            self.close()
            raise

    def call(self, method: str, **params):
        self._id += 1
        my = self._id
        self.ws.send(json.dumps({"id": my, "method": method, "params": params}))
        end = time.monotonic() + self.timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"CDP {method} got no answer")
            msg = json.loads(self.ws.recv(timeout=left))
            if msg.get("id") == my:
                if "error" in msg:
                    raise RuntimeError(f"CDP {method}: {msg['error']}")
                return msg.get("result", {})

    def goto(self, url: str) -> None:
        self.call("Page.navigate", url=url)

    def evaluate(self, expr: str):
        return self.call("Runtime.evaluate", expression=expr, returnByValue=True).get("result", {}).get("value")

    def wait_for(self, expr: str, timeout: float = 20.0) -> bool:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.evaluate(expr):
                return True
            time.sleep(0.1)
        return False

    def screenshot(self) -> np.ndarray:
        from PIL import Image

        data = base64.b64decode(self.call("Page.captureScreenshot", format="png")["data"])
        return np.asarray(Image.open(io.BytesIO(data)).convert("RGB"))

    def close(self) -> None:
        ws = getattr(self, "ws", None)
        if ws is not None:
            try:
                ws.close()
            except Exception:
                pass
        if self.proc.poll() is None:
            self.proc.kill()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            pass
        drain = getattr(self, "_drain", None)
        if drain is not None:
            drain.join(5)
        self.proc.stderr.close()
        shutil.rmtree(self._profile, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
