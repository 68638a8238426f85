#!/usr/bin/env python3
"""The public-HTTPS chain of acme.py, end to end and offline:

  1. In a private mount namespace whose /etc/hosts maps clubhouse.test to 127.0.0.1,
     a hyzer-server (plain http on 127.0.0.1) with a group.
  2. pebble issues a short-lived certificate for clubhouse.test through a real ACME
     challenge solved by Caddy, which serves https://clubhouse.test:PORT in front of it.
  3. A Chromium that trusts only pebble's root (its own NSS database) loads /health;
     one with an empty NSS database gets a certificate error (the negative control).
  4. `hyzer device enroll --ca ROOT`, `hyzer demo` and `hyzer sync` work over the name,
     and the WebSocket /v1/live answers through Caddy.
  5. Caddy renews the certificate by itself (a new serial is served, same Caddy and
     hyzer-server processes), and `hyzer sync` works again after it.

  python Tests/Browser/acme_selftest.py --bin .build/debug
Needs root and: apt-get install pebble caddy libnss3-tools chromium chromium-driver.
"""

import argparse
import base64
import json
import os
import shutil
import socket
import ssl
import sys
import tempfile
import time

from acme import PublicName, chromium_trusting, reexec_with_hosts
from common import LAN_NAME, Fail, World

NAME = LAN_NAME


class Run:
    def __init__(self):
        self.started = time.monotonic()
        self.passed = 0
        self.failed = 0

    def elapsed(self):
        return time.monotonic() - self.started

    def ok(self, what, since):
        self.passed += 1
        print(f"ok   {what} ({time.monotonic() - since:.2f} s; at {self.elapsed():.1f} s)", flush=True)

    def bad(self, what, why):
        self.failed += 1
        print(f"FAIL {what}: {why}", flush=True)


def live_socket(public, device_data):
    """A WebSocket handshake on /v1/live through Caddy, over TLS checked against pebble's
    root, with the device's token: returns (status line, first text frame)."""
    link = json.load(open(os.path.join(device_data, "sync-server.json")))
    key = base64.b64encode(os.urandom(16)).decode()
    request = (f"GET /v1/live HTTP/1.1\r\nHost: {public.name}:{public.https_port}\r\n"
               "Upgrade: websocket\r\nConnection: Upgrade\r\n"
               f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
               f"Authorization: Bearer {link['deviceToken']}\r\nX-Hyzer-Device: {link['deviceID']}\r\n\r\n")
    context = ssl.create_default_context(cafile=public.root_pem)
    context.set_alpn_protocols(["http/1.1"])
    with socket.create_connection(("127.0.0.1", public.https_port), timeout=10) as raw:
        with context.wrap_socket(raw, server_hostname=public.name) as s:
            s.sendall(request.encode())
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = s.recv(4096)
                if not chunk:
                    break
                data += chunk
            head, _, rest = data.partition(b"\r\n\r\n")
            status = head.split(b"\r\n")[0].decode()
            if " 101 " not in status + " ":
                return status, None
            while len(rest) < 2:
                rest += s.recv(4096)
            length = rest[1] & 0x7F
            offset = 2
            if length == 126:
                while len(rest) < 4:
                    rest += s.recv(4096)
                length, offset = int.from_bytes(rest[2:4], "big"), 4
            while len(rest) < offset + length:
                rest += s.recv(4096)
            return status, rest[offset:offset + length].decode()


def main():
    code = reexec_with_hosts([NAME])
    if code is not None:
        return code
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=".build/debug", help="where hyzer-server and hyzer are")
    parser.add_argument("--keep", action="store_true", help="keep the work directory")
    parser.add_argument("--renewal-timeout", type=float, default=120)
    args = parser.parse_args()

    run = Run()
    work = tempfile.mkdtemp(prefix="hyzer-acme-")
    world = World(os.path.abspath(args.bin), work)
    device_data = world.device_data
    public = None
    try:
        t = time.monotonic()
        admin = world.run("hyzer-server", "group", "create", "Test", data=world.server_data)[-1]
        world.start_server()
        server = world.server
        run.ok(f"hyzer-server on {world.base}", t)

        t = time.monotonic()
        public = PublicName(work, NAME, world.port, short_lived=True)
        first = public.start(timeout=90)
        caddy_pid, server_pid = public.caddy_pid, server.pid
        if not public.challenges():
            raise Fail("Caddy's log shows no ACME challenge solved for the first certificate")
        run.ok(f"{public.base} serves pebble's certificate serial {first['serial']} from "
               f"{first['issuer']!r}, lifetime {first['lifetime']:.0f} s, after challenge "
               f"{', '.join(public.challenges())}", t)

        t = time.monotonic()
        driver = chromium_trusting(public.root_pem, 800, 600, os.path.join(work, "chromium-trusting"))
        try:
            driver.get(public.base + "/health")
            body = driver.execute_script("return document.body.innerText")
        finally:
            driver.quit()
        if '"status":"ok"' not in body.replace(" ", ""):
            raise Fail(f"Chromium trusting pebble's root got {body[:200]!r} from {public.base}/health")
        run.ok(f"Chromium trusting only pebble's root loads {public.base}/health: {body.strip()[:80]}", t)

        t = time.monotonic()
        driver = chromium_trusting(None, 800, 600, os.path.join(work, "chromium-empty"))
        try:
            driver.get(public.base + "/health")
            title, body = driver.title, driver.execute_script("return document.body.innerText")
        finally:
            driver.quit()
        if "ERR_CERT" not in body or '"status"' in body:
            raise Fail(f"Chromium with an empty NSS database was not refused: title {title!r}, body {body[:200]!r}")
        error = next((w for w in body.split() if "ERR_CERT" in w), "?")
        run.ok(f"negative control: Chromium without pebble's root shows {title!r}, {error}", t)

        t = time.monotonic()
        world.run("hyzer", "init", data=device_data)
        world.run("hyzer", "device", "enroll", "--server", public.base, "--group-token", admin,
                  "--name", "Kiosk", "--ca", public.root_pem, data=device_data)
        round_id = world.run("hyzer", "demo", "--players", "3", data=device_data)[-1]
        synced = world.run("hyzer", "sync", data=device_data)
        run.ok(f"hyzer enroll --ca ROOT, demo (round {round_id[:8]}…), sync over {public.base}: "
               f"{'; '.join(synced)}", t)

        t = time.monotonic()
        status, frame = live_socket(public, device_data)
        if frame is None:
            raise Fail(f"WebSocket /v1/live through Caddy answered {status!r}")
        run.ok(f"WebSocket /v1/live through Caddy: {status}, first message {frame[:80]}", t)

        t = time.monotonic()
        before = public.served_certificate()
        wait = max(0.0, before["not_after_epoch"] - time.time())
        print(f"     waiting for renewal of {first['serial']} (served now: {before['serial']}, "
              f"expires in {wait:.0f} s)", flush=True)
        renewed = public.wait_for_renewal(first["serial"], args.renewal_timeout)
        if public.caddy_pid != caddy_pid or public.caddy is None or public.caddy.poll() is not None:
            raise Fail("Caddy was restarted or is gone")
        if server.poll() is not None or server.pid != server_pid:
            raise Fail("hyzer-server was restarted or is gone")
        run.ok(f"renewed without a restart (caddy pid {caddy_pid}): serial {first['serial']} -> "
               f"{renewed['serial']}, not after {renewed['not_after']}; challenges so far "
               f"{', '.join(public.challenges())}", t)

        t = time.monotonic()
        world.run("hyzer", "demo", "--players", "2", data=device_data)
        synced = world.run("hyzer", "sync", data=device_data)
        now = public.served_certificate()
        if now["serial"] == first["serial"]:
            raise Fail("the first certificate is served again after the renewal")
        run.ok(f"hyzer sync after the renewal (serving {now['serial']}): {'; '.join(synced)}", t)
    except Exception as e:  # noqa: BLE001 - reported, then the exit status says it
        run.bad("acme self-test", f"{type(e).__name__}: {e}")
        if public:
            print(public.log_tail(), file=sys.stderr)
        log = os.path.join(work, "server.log")
        if os.path.exists(log):
            print("--- server.log (last 20 lines)\n" + "".join(open(log).readlines()[-20:]), file=sys.stderr)
    finally:
        if public:
            public.stop()
        world.stop_server()
        if args.keep:
            print(f"work directory kept: {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    print(f"acme self-test: {run.elapsed():.1f} s in all")
    print(f"{run.passed} passed, {run.failed} failed")
    return 0 if run.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
