"""What the browser tests share: a real hyzer-server and `hyzer` devices in a temporary
directory, and a headless Chromium driven by Selenium.

Pages are loaded by a name, never from 127.0.0.1 or localhost: browsers treat those as
secure contexts, so a page can pass there and fail on every real network (issue 32). Each
test re-executes itself in a mount namespace of its own whose /etc/hosts maps these names to
the loopback address (acme.reexec_with_hosts), so Chromium, the `hyzer` devices and pebble all
resolve them as a phone on the clubhouse LAN would resolve the server's."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

import acme
from acme import free_port, reexec_with_hosts  # noqa: F401 (reexec: every test's first step)


# The clubhouse LAN's name for the server (plain http), and its public name (https via Caddy).
LAN_NAME = "clubhouse.test"
PUBLIC_NAME = "scores.test"


class Fail(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Fail(message)


class World:
    def __init__(self, bin_dir, work):
        self.bin = bin_dir
        self.work = work
        self.server_data = os.path.join(work, "server")
        self.device_data = os.path.join(work, "device")
        self.port = free_port()
        self.base = f"http://{LAN_NAME}:{self.port}"
        self.server = None
        self.admin = None

    def run(self, tool, *args, data=None):
        cmd = [os.path.join(self.bin, tool), *args]
        if data:
            cmd += ["--data", data]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            raise Fail(f"{' '.join(cmd)} exited {done.returncode}: {done.stderr.strip()}")
        return done.stdout.strip().splitlines()

    def start_server(self):
        log = open(os.path.join(self.work, "server.log"), "a")
        self.server = subprocess.Popen(
            [os.path.join(self.bin, "hyzer-server"), "--data", self.server_data, "--host", "127.0.0.1",
             "--port", str(self.port)], stdout=log, stderr=log)
        deadline = time.time() + 20
        while time.time() < deadline:
            try:
                urllib.request.urlopen(self.base + "/health", timeout=1).read()
                return
            except OSError:
                time.sleep(0.05)
        raise Fail("hyzer-server did not answer /health within 20 s")

    def stop_server(self):
        if self.server:
            self.server.terminate()
            self.server.wait(timeout=20)
            self.server = None

    def start_group(self, group, device_name, players, server=None, ca=None, start_hole=1):
        """The group on a started server and an enrolled `hyzer` device holding a synced demo
        round of `players`, its card starting on `start_hole` (issue 36: a shotgun start, six
        holes played from there): returns the round's id (the group's admin token is `self.admin`).
        The device enrolls at `server` (the LAN address by default), trusting `ca` if given."""
        admin = self.admin = self.run("hyzer-server", "group", "create", group, data=self.server_data)[-1]
        self.start_server()
        self.run("hyzer", "init", data=self.device_data)
        self.run("hyzer", "device", "enroll", "--server", server or self.base, "--group-token", admin,
                 "--name", device_name, *(["--ca", ca] if ca else []), data=self.device_data)
        round_id = self.run("hyzer", "demo", "--players", str(players), "--start-hole", str(start_hole),
                            data=self.device_data)[-1]
        self.run("hyzer", "sync", data=self.device_data)
        return round_id

    def report(self, name, failure):
        """Prints a failed test's reason and the end of the server's log; returns the exit status."""
        print(f"{name}: FAILED: {failure}", file=sys.stderr)
        log = os.path.join(self.work, "server.log")
        if os.path.exists(log):
            print("--- server log (last 20 lines)", file=sys.stderr)
            print("".join(open(log).readlines()[-20:]), file=sys.stderr)
        return 1

    def http(self, method, path, token, body=None):
        request = urllib.request.Request(self.base + path, method=method, data=body)
        request.add_header("Authorization", f"Bearer {token}")
        if body is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=5) as r:
                return r.status, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.read()


def board_rows(driver):
    """[(position, name, progress, to-par)] of the first round on the page, read in one
    script call (one WebDriver round trip per poll, so the poll itself costs little)."""
    rows = driver.execute_script(
        "return [...document.querySelectorAll('.round:first-child .row')].map(li =>"
        " ['.position', '.name', '.progress', '.to-par'].map(c => li.querySelector(c).innerText))")
    return [tuple(r) for r in rows]


def summary_rows(driver):
    """[(position, name, to-par)] of a summary page's standings."""
    rows = driver.execute_script(
        "return [...document.querySelectorAll('#rows .row')].map(li =>"
        " [li.querySelector('.badge').innerText, li.querySelector('.name').firstChild.textContent,"
        "  li.querySelector('.to-par').innerText])")
    return [tuple(r) for r in rows]


def wait_for(predicate, timeout, interval=0.02):
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            return value
        time.sleep(interval)


def chromium(width, height):
    """A headless Chromium at this window size (Debian's chromium and chromium-driver)."""
    options = webdriver.ChromeOptions()
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 f"--window-size={width},{height}", "--force-device-scale-factor=1"):
        options.add_argument(flag)
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    return webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)


def cli_standings(world, round_id, data=None):
    """The device's own standings, `hyzer standings ROUND --json`, as the rows the board
    should show: (position, name, progress, to-par), labelled here by the rules of
    docs/scenario-format.md rather than by the server's code."""
    out = "\n".join(world.run("hyzer", "standings", round_id, "--json", data=data or world.device_data))
    rows = []
    for r in json.loads(out)["standings"]:
        position = "–" if r["position"] is None else ("T" if r["tied"] else "") + str(r["position"])
        progress = {"finished": "F", "dnf": "DNF"}.get(r["status"], f"thru {r['thru']}")
        to_par = "E" if r["toPar"] == 0 else f"{r['toPar']:+d}"
        rows.append((position, r["name"], progress, to_par))
    return rows


def over_each_origin(name, args, run, short_lived=False, extra_logs=()):
    """Runs `run(kind, world, chain, drivers)` twice, each on a World of its own: over the
    LAN's plain http ("lan", chain None), then over https on the public name through Caddy
    with pebble's certificate ("public", chain a started acme.PublicName); `args.only` keeps
    one. `run` returns what to say after "NAME (KIND): ok". On a failure: its reason, the
    chain's log, the tail of each of `extra_logs` (file names in the world's directory) and
    the server's; returns the exit status."""
    for kind in ("lan", "public"):
        if args.only and args.only != kind:
            continue
        work = tempfile.mkdtemp(prefix=f"hyzer-{name.replace(' ', '-')}-{kind}-")
        world = World(os.path.abspath(args.bin), work)
        chain = None
        drivers = []
        try:
            if kind == "public":
                # Caddy in front of the server's port (the server starts with the group).
                chain = acme.PublicName(work, PUBLIC_NAME, world.port, short_lived=short_lived)
                began = time.monotonic()
                chain.start()
                print(f"{name} (public): pebble issued {PUBLIC_NAME}'s certificate through Caddy in "
                      f"{time.monotonic() - began:.1f} s")
            said = run(kind, world, chain, drivers)
            print(f"{name} ({kind}): ok{f' ({said})' if said else ''}")
        except Fail as failure:
            if chain:
                print(chain.log_tail(), file=sys.stderr)
            for log in extra_logs:
                path = os.path.join(work, log)
                if os.path.exists(path):
                    print(f"--- {log} (last 20 lines)", file=sys.stderr)
                    print("".join(open(path).readlines()[-20:]), file=sys.stderr)
            return world.report(f"{name} ({kind})", failure)
        finally:
            for driver in drivers:
                driver.quit()
            if chain:
                chain.stop()
            world.stop_server()
            shutil.rmtree(work, ignore_errors=True)
    return 0
