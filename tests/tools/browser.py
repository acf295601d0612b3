"""browser.py — a page opened in Debian's headless Chromium (chromium-headless-shell), driven
over the DevTools protocol on a pipe (--remote-debugging-pipe: the browser reads commands on
its descriptor 3 and writes on 4, each message JSON ended by a NUL byte), with Python's
standard library alone.  What the tests of the HTML report need: every request the page made,
every error it logged or threw, JavaScript evaluated in it, how long it took to load and a
screenshot.

    with Page.open("/path/report.html") as p:
        p.requests        # every URL the page asked for, the document's own first
        p.errors          # console errors, uncaught exceptions, the browser's error log
        p.load_ms         # navigation start to the load event, from the page's own clock
        p.eval("document.title")
        p.screenshot("shot.png", full=True)

    png_pixels("shot.png")  # (width, height, rows, channels): a screenshot's pixels
"""
import base64
import json
import os
import select
import shutil
import subprocess
import tempfile
import time

# Where Debian puts the browser (package chromium-headless-shell, or chromium).
CANDIDATES = ("chromium-headless-shell", "/usr/lib/chromium/chrome-headless-shell",
              "chromium", "/usr/lib/chromium/chromium")


def find_browser():
    """The path of a headless Chromium, or None."""
    env = os.environ.get("TPROF_BROWSER")
    for c in ((env,) if env else CANDIDATES):
        p = shutil.which(c) if "/" not in c else (c if os.access(c, os.X_OK) else None)
        if p:
            return p
    return None


class BrowserError(Exception):
    pass


class Page:
    """One browser with one page; use Page.open(path) as a context manager."""

    def __init__(self, exe=None, width=1400, height=900, timeout=60):
        self.exe = exe or find_browser()
        if not self.exe:
            raise BrowserError("no headless Chromium (Debian: apt-get install "
                               "chromium-headless-shell)")
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="tprof-browser.")
        to_browser_r, self._w = os.pipe()
        self._r, from_browser_w = os.pipe()

        def descriptors():
            # Moved out of the way first: either pipe end may be descriptor 3 or 4 already.
            # (os.pipe's descriptors are close-on-exec; those os.dup2 makes are not.)
            r, w = os.dup(to_browser_r), os.dup(from_browser_w)
            os.dup2(r, 3)
            os.dup2(w, 4)
            os.close(r)
            os.close(w)

        args = [self.exe, "--headless", "--remote-debugging-pipe", "--no-sandbox",
                "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                "--no-default-browser-check",
                "--disable-extensions", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--hide-scrollbars",
                "--user-data-dir=" + self.profile, "--window-size=%d,%d" % (width, height),
                "about:blank"]
        self.log = tempfile.TemporaryFile()   # what the browser says (read when it fails)
        self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=self.log, close_fds=False, preexec_fn=descriptors)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._buf = b""
        self._id = 0
        self.events = []
        self.requests = []
        self.errors = []
        self.load_ms = None
        self.session = None
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget",
                                 {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Network", "Log"):
            self.call(domain + ".enable")

    @classmethod
    def open(cls, path, **kw):
        """A page showing the file at path, loaded (its load event fired)."""
        p = cls(**kw)
        try:
            p.navigate("file://" + os.path.abspath(path))
        except BaseException:
            p.close()
            raise
        return p

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # ---- the protocol ------------------------------------------------------------------
    def _send(self, msg):
        data = json.dumps(msg).encode() + b"\0"
        while data:
            n = os.write(self._w, data)
            data = data[n:]

    def _receive(self, deadline):
        """The next message, or None when the deadline passed."""
        while b"\0" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([self._r], [], [], left)
            if not ready:
                return None
            chunk = os.read(self._r, 1 << 20)
            if not chunk:
                raise BrowserError("the browser closed its pipe: %s" % self._stderr_tail())
            self._buf += chunk
        msg, self._buf = self._buf.split(b"\0", 1)
        m = json.loads(msg)
        if "method" in m:
            self._event(m)
        return m

    def _event(self, m):
        self.events.append(m)
        method, params = m["method"], m.get("params", {})
        if method == "Network.requestWillBeSent":
            self.requests.append(params["request"]["url"])
        elif method == "Runtime.exceptionThrown":
            d = params["exceptionDetails"]
            self.errors.append("exception: %s" % d.get("exception", {}).get(
                "description", d.get("text")))
        elif method == "Runtime.consoleAPICalled" and params["type"] in ("error", "assert"):
            self.errors.append("console.%s: %s" % (params["type"], " ".join(
                str(a.get("value", a.get("description"))) for a in params["args"])))
        elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
            self.errors.append("log: %s %s" % (params["entry"]["text"],
                                               params["entry"].get("url", "")))

    def call(self, method, params=None):
        """Sends a command and returns its result; raises BrowserError on an error."""
        self._id += 1
        msg = {"id": self._id, "method": method, "params": params or {}}
        if self.session:
            msg["sessionId"] = self.session
        self._send(msg)
        deadline = time.monotonic() + self.timeout
        while True:
            m = self._receive(deadline)
            if m is None:
                raise BrowserError("%s: no answer in %d s" % (method, self.timeout))
            if m.get("id") == self._id:
                if "error" in m:
                    raise BrowserError("%s: %s" % (method, m["error"].get("message")))
                return m.get("result", {})

    def wait_event(self, method, since=0):
        """The first event named method at or after events[since], waiting for it."""
        deadline = time.monotonic() + self.timeout
        while True:
            for m in self.events[since:]:
                if m["method"] == method:
                    return m
            since = len(self.events)
            if self._receive(deadline) is None:
                raise BrowserError("no %s in %d s" % (method, self.timeout))

    # ---- what the tests use ------------------------------------------------------------
    def navigate(self, url):
        since = len(self.events)
        self.call("Page.navigate", {"url": url})
        self.wait_event("Page.loadEventFired", since)
        self.load_ms = self.eval("(() => { const t = performance.getEntriesByType("
                                 "'navigation')[0]; return t ? t.loadEventStart : null })()")

    def eval(self, expression):
        """The value of a JavaScript expression in the page (JSON-able); raises on a throw."""
        r = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                           "awaitPromise": True})
        if "exceptionDetails" in r:
            d = r["exceptionDetails"]
            raise BrowserError("%s: %s" % (expression[:60], d.get("exception", {}).get(
                "description", d.get("text"))))
        return r["result"].get("value")

    def screenshot(self, path, full=True):
        """A PNG of the page (the whole of it with full, else what the window shows)."""
        params = {"format": "png"}
        if full:
            size = self.call("Page.getLayoutMetrics")["cssContentSize"]
            params.update(captureBeyondViewport=True,
                          clip={"x": 0, "y": 0, "width": size["width"],
                                "height": size["height"], "scale": 1})
        data = self.call("Page.captureScreenshot", params)["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def screenshot_clip(self, path, x, y, width, height):
        """A PNG of the page's rectangle (CSS pixels from the document's top left)."""
        data = self.call("Page.captureScreenshot", {
            "format": "png", "captureBeyondViewport": True,
            "clip": {"x": x, "y": y, "width": max(1, width), "height": max(1, height),
                     "scale": 1}})["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def _stderr_tail(self):
        self.log.seek(0)
        return self.log.read().decode(errors="replace")[-2000:]

    def close(self):
        if self.proc.poll() is None:
            try:
                self.session = None
                self._send({"id": self._id + 1, "method": "Browser.close"})
                self.proc.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()
        for fd in (self._r, self._w):
            try:
                os.close(fd)
            except OSError:
                pass
        self.log.close()
        shutil.rmtree(self.profile, ignore_errors=True)


def png_pixels(path):
    """The pixels of an 8-bit RGB or RGBA PNG (what Chromium's screenshots are), as
    (width, height, rows): each row a bytes object of width * channels bytes."""
    import struct
    import zlib
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise BrowserError("%s: not a PNG" % path)
    at, idat, width = 8, b"", None
    while at < len(data):
        n, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + n]
        if kind == b"IHDR":
            width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or ctype not in (2, 6) or interlace:
                raise BrowserError("%s: PNG of depth %d, colour type %d" % (path, depth, ctype))
            ch = 4 if ctype == 6 else 3
        elif kind == b"IDAT":
            idat += body
        at += 12 + n
    raw, stride, rows, prev = zlib.decompress(idat), width * ch, [], bytearray(width * ch)
    for y in range(height):
        ftype, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - ch] if i >= ch else 0
            b, c = prev[i], prev[i - ch] if i >= ch else 0
            if ftype == 1:
                line[i] = (line[i] + a) & 255
            elif ftype == 2:
                line[i] = (line[i] + b) & 255
            elif ftype == 3:
                line[i] = (line[i] + ((a + b) >> 1)) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, rows, ch
