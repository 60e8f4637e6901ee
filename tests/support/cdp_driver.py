#!/usr/bin/python3
"""Drives headless Chromium over the DevTools protocol for the browser tests, without npm.

    cdp_driver.py SCRIPT.json     (or the script on stdin)

The script is {"steps": [...]}; each step an object with "op":
  viewport  width, height (default 900): Emulation.setDeviceMetricsOverride
  navigate  url: loads it and waits for the load event (a change of hash alone only fires hashchange)
  eval      js: evaluates an expression (awaiting a promise), its value returned
  wait      js, timeout (s, default 10): evaluates until the value is truthy, that value returned
  sleep     ms
  click     selector: element.click() on the first match
  text      selector: its innerText
  screenshot path: a PNG of the viewport
  requests  the URLs the page requested since the start or the last clear_requests
  clear_requests
It prints {"results": [one per step], "exceptions": [uncaught page errors]}; a failing step ends the
script with "error" and "step" (its index) added, and exit status 1.
"""
import asyncio
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

import websockets

CHROMIUM = next((p for p in ("/usr/bin/chromium", "/usr/bin/chromium-browser") if os.path.exists(p)), None)


class StepError(Exception):
    pass


def start_browser(profile):
    args = [CHROMIUM, "--headless=new", "--remote-debugging-port=0", "--user-data-dir=" + profile,
            "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
            "--no-default-browser-check", "--disable-extensions", "--mute-audio",
            "--autoplay-policy=no-user-gesture-required", "about:blank"]
    proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    # Chromium names its port in DevToolsActivePort (first line) and on stderr; the file is the sure one.
    port_file = os.path.join(profile, "DevToolsActivePort")
    deadline = time.time() + 30
    while time.time() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("chromium exited: " + proc.stderr.read().decode(errors="replace")[-2000:])
        try:
            with open(port_file) as f:
                lines = f.read().split("\n")
            if lines[0].strip():
                return proc, int(lines[0])
        except (OSError, ValueError):
            pass
        time.sleep(0.05)
    proc.kill()
    raise RuntimeError("chromium did not open its DevTools port")


def page_socket_url(port):
    deadline = time.time() + 10
    while time.time() < deadline:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list") as r:
            for target in json.load(r):
                if target.get("type") == "page":
                    return target["webSocketDebuggerUrl"]
        time.sleep(0.05)
    raise RuntimeError("no page target")


class Page:
    def __init__(self, ws):
        self.ws, self.next_id, self.pending = ws, 0, {}
        self.requests, self.exceptions, self.loaded = [], [], asyncio.Event()
        self.reader = asyncio.ensure_future(self.read())

    async def read(self):
        async for message in self.ws:
            m = json.loads(message)
            if "id" in m:
                future = self.pending.pop(m["id"], None)
                if future and not future.done():
                    future.set_result(m)
            elif m.get("method") == "Network.requestWillBeSent":
                self.requests.append(m["params"]["request"]["url"])
            elif m.get("method") == "Runtime.exceptionThrown":
                d = m["params"]["exceptionDetails"]
                self.exceptions.append(d.get("exception", {}).get("description") or d.get("text"))
            elif m.get("method") == "Page.loadEventFired":
                self.loaded.set()

    async def call(self, method, **params):
        self.next_id += 1
        future = asyncio.get_running_loop().create_future()
        self.pending[self.next_id] = future
        await self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        m = await asyncio.wait_for(future, 30)
        if "error" in m:
            raise StepError(f"{method}: {m['error'].get('message')}")
        return m["result"]

    async def evaluate(self, js):
        r = await self.call("Runtime.evaluate", expression=js, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in r:
            d = r["exceptionDetails"]
            raise StepError("script threw: " + (d.get("exception", {}).get("description") or d.get("text", "")))
        return r["result"].get("value")


async def run_step(page, step):
    op = step["op"]
    if op == "viewport":
        await page.call("Emulation.setDeviceMetricsOverride", width=step["width"], height=step.get("height", 900),
                        deviceScaleFactor=1, mobile=False)
        return None
    if op == "navigate":
        page.loaded.clear()
        r = await page.call("Page.navigate", url=step["url"])
        if r.get("errorText"):
            raise StepError("navigate: " + r["errorText"])
        if r.get("loaderId"):  # a new document (not a fragment navigation): wait for its load
            await asyncio.wait_for(page.loaded.wait(), step.get("timeout", 20))
        return None
    if op == "eval":
        return await page.evaluate(step["js"])
    if op == "wait":
        deadline, value = time.time() + step.get("timeout", 10), None
        while time.time() < deadline:
            value = await page.evaluate(step["js"])
            if value:
                return value
            await asyncio.sleep(0.05)
        raise StepError(f"timed out waiting for {step['js']} (last value {json.dumps(value)})")
    if op == "sleep":
        await asyncio.sleep(step["ms"] / 1000)
        return None
    if op in ("click", "text"):
        sel = json.dumps(step["selector"])
        action = "e.click(), true" if op == "click" else "e.innerText"
        return await page.evaluate(
            f"(() => {{ const e = document.querySelector({sel}); if (!e) throw new Error('no element ' + {sel}); return {action}; }})()")
    if op == "screenshot":
        r = await page.call("Page.captureScreenshot", format="png")
        with open(step["path"], "wb") as f:
            f.write(base64.b64decode(r["data"]))
        return step["path"]
    if op == "requests":
        return list(page.requests)
    if op == "clear_requests":
        page.requests.clear()
        return None
    raise StepError("unknown op " + op)


async def run_script(port, steps):
    out = {"results": []}
    async with websockets.connect(page_socket_url(port), max_size=None, ping_interval=None) as ws:
        page = Page(ws)
        for domain in ("Page", "Runtime", "Network"):
            await page.call(domain + ".enable")
        for i, step in enumerate(steps):
            try:
                out["results"].append(await run_step(page, step))
            except (StepError, asyncio.TimeoutError) as e:
                out.update(error=str(e) or type(e).__name__, step=i)
                break
        out["exceptions"] = page.exceptions
        page.reader.cancel()
    return out


def main():
    script = json.load(open(sys.argv[1]) if len(sys.argv) > 1 else sys.stdin)
    if not CHROMIUM:
        print(json.dumps({"error": "chromium is not installed", "step": -1}))
        return 1
    profile = tempfile.mkdtemp(prefix="aeval-cdp-")
    proc = None
    try:
        proc, port = start_browser(profile)
        out = asyncio.run(run_script(port, script["steps"]))
    except Exception as e:  # the browser itself: still a JSON answer
        out = {"error": f"{type(e).__name__}: {e}", "step": -1}
    finally:
        if proc:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
        shutil.rmtree(profile, ignore_errors=True)
    print(json.dumps(out))
    return 1 if "error" in out else 0


if __name__ == "__main__":
    sys.exit(main())
