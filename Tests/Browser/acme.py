"""Public HTTPS for the browser tests, offline: Debian's pebble (Let's Encrypt's test ACME
server) issues a certificate for a DNS name through a real HTTP-01 or TLS-ALPN-01
challenge, and Debian's caddy obtains it, renews it, and proxies https://NAME:PORT to a
hyzer-server listening on plain http at 127.0.0.1.

  - `reexec_with_hosts(names)` runs the calling script again in a private mount namespace
    whose /etc/hosts maps each name to 127.0.0.1, so pebble's validator, Caddy and
    Chromium all resolve the name without touching the machine's own /etc/hosts.
  - `PublicName` starts pebble and Caddy on free loopback ports, waits for the first
    certificate, reads what is served (`served_certificate`) and waits for a renewal.
  - `chromium_trusting(root_pem, ...)` is a headless Chromium whose only added trust is
    pebble's root, in a private NSS database (no --ignore-certificate-errors).

Needs, as root: `apt-get install pebble caddy libnss3-tools` (and chromium,
chromium-driver, openssl, util-linux's unshare). Nothing leaves 127.0.0.1.
"""

import json
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.request

SHIPPED_CADDYFILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "board", "package",
                                 "Caddyfile.hyzer")
HOSTS_ENV = "HYZER_TEST_HOSTS"  # set inside the namespace: the names mapped there

# Pebble's certificate lifetime when short_lived (seconds). Caddy renews once a third of
# the lifetime is left and looks every RENEW_INTERVAL, so the first renewal comes about
# 2/3 * SHORT_LIFETIME (+ up to RENEW_INTERVAL, + an ACME round trip) after issuance.
SHORT_LIFETIME = 30
RENEW_INTERVAL = 2


class AcmeError(RuntimeError):
    pass


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ---------------------------------------------------------------------------- hosts


def reexec_with_hosts(names):
    """Called first in a script's main(). Outside the namespace: runs this same script
    (same interpreter, same arguments) under `unshare --mount` with /etc/hosts replaced by
    a private copy that also maps each of `names` to 127.0.0.1, and returns the child's
    exit code (the caller sys.exit()s it). Inside: checks that each name resolves to
    127.0.0.1 (`getent hosts`) and returns None."""
    names = list(names)
    if os.environ.get(HOSTS_ENV) is not None:
        for name in names:
            done = subprocess.run(["getent", "hosts", name], capture_output=True, text=True)
            if done.returncode != 0 or "127.0.0.1" not in done.stdout.split():
                raise AcmeError(f"inside the hosts namespace, `getent hosts {name}` gave "
                                f"{done.stdout.strip() or 'nothing'} (exit {done.returncode}), not 127.0.0.1")
        return None
    unshare = shutil.which("unshare")
    if os.geteuid() != 0 or unshare is None:
        raise AcmeError("reexec_with_hosts needs root and util-linux's unshare (a private mount "
                        "namespace with its own /etc/hosts); "
                        f"euid={os.geteuid()}, unshare={unshare or 'missing'}")
    probe = subprocess.run([unshare, "--mount", "--propagation", "private", "true"],
                           capture_output=True, text=True)
    if probe.returncode != 0:
        raise AcmeError(f"cannot make a private mount namespace (`unshare --mount` exited "
                        f"{probe.returncode}: {probe.stderr.strip()}); run as root where unshare(2) "
                        "is allowed")
    tmp = tempfile.mkdtemp(prefix="hyzer-hosts-")
    try:
        hosts = os.path.join(tmp, "hosts")
        with open("/etc/hosts") as f:
            original = f.read()
        with open(hosts, "w") as f:
            f.write(original.rstrip("\n") + "\n")
            f.write("# added by Tests/Browser/acme.py for this test only\n")
            for name in names:
                f.write(f"127.0.0.1 {name}\n")
        os.chmod(hosts, 0o644)
        argv = [sys.executable, *sys.orig_argv[1:]]
        env = dict(os.environ, **{HOSTS_ENV: " ".join(names)})
        # sh: mount the copy over /etc/hosts in the new namespace, then become the script.
        cmd = [unshare, "--mount", "--propagation", "private", "sh", "-c",
               'mount --bind "$0" /etc/hosts && exec "$@"', hosts, *argv]
        child = subprocess.Popen(cmd, env=env)
        forward = lambda signum, _frame: child.send_signal(signum)
        previous = signal.signal(signal.SIGTERM, forward)
        try:
            while True:
                try:
                    return child.wait()
                except KeyboardInterrupt:
                    continue  # the child got the same SIGINT; wait for it to finish
        finally:
            signal.signal(signal.SIGTERM, previous)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


# ---------------------------------------------------------------------------- pebble + caddy


def _run(cmd, **kwargs):
    done = subprocess.run(cmd, capture_output=True, text=True, **kwargs)
    if done.returncode != 0:
        raise AcmeError(f"{' '.join(cmd)} exited {done.returncode}: {done.stderr.strip()}")
    return done.stdout


def _name_of(rdns):
    """'CN' (else the whole name) of an ssl.getpeercert() subject or issuer."""
    fields = dict(pair for rdn in rdns for pair in rdn)
    return fields.get("commonName") or ", ".join(f"{k}={v}" for k, v in fields.items())


class PublicName:
    """pebble + Caddy in front of hyzer-server at upstream (host:port), serving https://name:port."""

    def __init__(self, work_dir, name, upstream_port, short_lived=False):
        self.work = os.path.join(os.path.abspath(work_dir), "public-name")
        self.name = name
        self.upstream = f"127.0.0.1:{upstream_port}"
        self.short_lived = short_lived
        self.lifetime = SHORT_LIFETIME if short_lived else None  # None: pebble's default
        self.acme_port = free_port()
        self.management_port = free_port()
        self.http_port = free_port()
        self.https_port = free_port()
        self.admin_port = free_port()
        self.base = f"https://{name}:{self.https_port}"
        self.root_pem = os.path.join(self.work, "pebble-root.pem")
        self.listener_ca = os.path.join(self.work, "pebble-listener", "ca.pem")
        self.pebble = None
        self.caddy = None
        self._logs = {}

    # -- life cycle

    def start(self, timeout=90):
        """Returns once https://name:port serves a certificate that chains to pebble's root."""
        deadline = time.monotonic() + timeout
        try:
            os.makedirs(self.work, exist_ok=True)
            self._listener_certificate()
            self._start_pebble(deadline)
            self._start_caddy()
            while True:
                self._check_alive()
                try:
                    return self.served_certificate()
                except (OSError, ssl.SSLError):
                    pass
                if time.monotonic() > deadline:
                    raise AcmeError(f"{self.base} served no pebble-issued certificate within "
                                    f"{timeout} s\n{self.log_tail()}")
                time.sleep(0.25)
        except BaseException:
            self.stop()
            raise

    def stop(self):
        """Terminates Caddy, then pebble, and waits for both (killing after 10 s)."""
        for attr in ("caddy", "pebble"):
            process = getattr(self, attr)
            if process is None:
                continue
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait(timeout=10)
            setattr(self, attr, None)
        for f in self._logs.values():
            f.close()
        self._logs = {}

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()

    @property
    def caddy_pid(self):
        return self.caddy.pid if self.caddy else None

    # -- what is served

    def served_certificate(self):
        """The leaf served on name:https_port, verified against pebble's root only:
        {"serial", "not_before", "not_after", "not_after_epoch", "issuer", "subject"}."""
        context = ssl.create_default_context(cafile=self.root_pem)
        with socket.create_connection(("127.0.0.1", self.https_port), timeout=5) as raw:
            with context.wrap_socket(raw, server_hostname=self.name) as tls:
                cert = tls.getpeercert()
        return {
            "serial": cert["serialNumber"],
            "not_before": cert["notBefore"],
            "not_after": cert["notAfter"],
            "not_after_epoch": ssl.cert_time_to_seconds(cert["notAfter"]),
            "lifetime": ssl.cert_time_to_seconds(cert["notAfter"]) - ssl.cert_time_to_seconds(cert["notBefore"]),
            "issuer": _name_of(cert["issuer"]),
            "subject": _name_of(cert.get("subject", ())),
        }

    def wait_for_renewal(self, old_serial, timeout):
        """Polls what is served until its serial differs from old_serial; returns it."""
        deadline = time.monotonic() + timeout
        last_error = None
        while True:
            self._check_alive()
            try:
                cert = self.served_certificate()
                if cert["serial"] != old_serial:
                    return cert
            except (OSError, ssl.SSLError) as e:
                last_error = e
            if time.monotonic() > deadline:
                raise AcmeError(f"no renewal of serial {old_serial} within {timeout} s"
                                f"{f' (last error: {last_error})' if last_error else ''}\n{self.log_tail()}")
            time.sleep(0.5)

    def challenges(self):
        """The ACME challenges Caddy set out to solve so far, in order, from its log:
        ["http-01", ...] (or "tls-alpn-01"); one per certificate issued, since pebble is run
        without authorization reuse."""
        path = os.path.join(self.work, "caddy.log")
        if not os.path.exists(path):
            return []
        with open(path, errors="replace") as f:
            return [m.group(1) for line in f if "trying to solve challenge" in line
                    for m in [re.search(r'"challenge_type":"([^"]+)"', line)] if m]

    def log_tail(self, n=20):
        parts = []
        for name in ("caddy.log", "pebble.log"):
            path = os.path.join(self.work, name)
            if os.path.exists(path):
                with open(path, errors="replace") as f:
                    lines = f.readlines()[-n:]
                parts.append(f"--- {name} (last {len(lines)} lines)\n" + "".join(lines).rstrip("\n"))
        return "\n".join(parts)

    # -- pieces

    def _listener_certificate(self):
        """A throwaway CA and a localhost/127.0.0.1 certificate for pebble's own HTTPS
        listeners (Debian's pebble ships none); Caddy trusts that CA via acme_ca_root."""
        d = os.path.dirname(self.listener_ca)
        os.makedirs(d, exist_ok=True)
        ca_key, cert, key = (os.path.join(d, n) for n in ("ca.key", "cert.pem", "key.pem"))
        ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        _run(["openssl", "req", "-x509", *ec, "-keyout", ca_key, "-out", self.listener_ca, "-days", "7",
              "-subj", "/CN=hyzer test: pebble listener CA"])
        _run(["openssl", "req", "-x509", *ec, "-keyout", key, "-out", cert, "-days", "7",
              "-CA", self.listener_ca, "-CAkey", ca_key, "-subj", "/CN=localhost",
              "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
              "-addext", "basicConstraints=critical,CA:FALSE",
              "-addext", "extendedKeyUsage=serverAuth"])
        self._listener_cert, self._listener_key = cert, key

    def _log(self, name):
        f = open(os.path.join(self.work, name), "a")
        self._logs[name] = f
        return f

    def _start_pebble(self, deadline):
        config = {"pebble": {
            "listenAddress": f"127.0.0.1:{self.acme_port}",
            "managementListenAddress": f"127.0.0.1:{self.management_port}",
            "certificate": self._listener_cert,
            "privateKey": self._listener_key,
            "httpPort": self.http_port,     # where it validates HTTP-01: Caddy's http_port
            "tlsPort": self.https_port,     # where it validates TLS-ALPN-01: Caddy's https_port
            "ocspResponderURL": "",
            "externalAccountBindingRequired": False,
        }}
        if self.lifetime:
            config["pebble"]["certificateValidityPeriod"] = self.lifetime
        path = os.path.join(self.work, "pebble.json")
        with open(path, "w") as f:
            json.dump(config, f, indent=2)
        # No random validation sleeps and no deliberately rejected nonces (both only cost
        # time), and no reuse of valid authorizations: every order, renewals included,
        # needs a challenge solved again.
        env = dict(os.environ, PEBBLE_VA_NOSLEEP="1", PEBBLE_WFE_NONCEREJECT="0", PEBBLE_AUTHZREUSE="0")
        env.pop("PEBBLE_VA_ALWAYS_VALID", None)  # real validation, always
        log = self._log("pebble.log")
        self.pebble = subprocess.Popen([shutil.which("pebble") or "/usr/bin/pebble", "-config", path],
                                       stdout=log, stderr=subprocess.STDOUT, env=env, cwd=self.work)
        context = ssl.create_default_context(cafile=self.listener_ca)
        url = f"https://127.0.0.1:{self.management_port}/roots/0"
        while True:
            self._check_alive()
            try:
                with urllib.request.urlopen(url, context=context, timeout=2) as r:
                    pem = r.read()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise AcmeError(f"pebble's management interface did not answer\n{self.log_tail()}")
                time.sleep(0.1)
        if b"BEGIN CERTIFICATE" not in pem:
            raise AcmeError(f"{url} gave no PEM certificate")
        with open(self.root_pem, "wb") as f:
            f.write(pem)

    def caddyfile(self):
        lines = [
            "{",
            f"\tadmin 127.0.0.1:{self.admin_port}",
            f"\thttp_port {self.http_port}",
            f"\thttps_port {self.https_port}",
            "\tdefault_bind 127.0.0.1",
            "\tstorage file_system {",
            f"\t\troot {os.path.join(self.work, 'caddy-storage')}",
            "\t}",
            f"\tacme_ca https://127.0.0.1:{self.acme_port}/dir",
            f"\tacme_ca_root {self.listener_ca}",
            "\tocsp_stapling off",  # pebble's certificates name no OCSP responder
            f"\trenew_interval {RENEW_INTERVAL}s",
            "\tgrace_period 2s",
            "}",
            "",
        ]
        return "\n".join(lines) + self.shipped_site()

    def shipped_site(self):
        """The site block operators copy (board/package/Caddyfile.hyzer), as shipped but for
        the name, port and upstream, so the test proves the snippet docs/server-operations.md
        tells them to use, not a copy of it."""
        with open(SHIPPED_CADDYFILE) as f:
            text = f.read()
        start = text.find("\nscores.example.org {")
        end = text.find("\n}", start)
        if start < 0 or end < 0 or "reverse_proxy 127.0.0.1:8630" not in text[start:end]:
            raise AcmeError(f"{SHIPPED_CADDYFILE} has no 'scores.example.org {{ reverse_proxy 127.0.0.1:8630 }}' site")
        site = text[start + 1:end + 2]
        return (site.replace("scores.example.org", f"{self.name}:{self.https_port}", 1)
                .replace("127.0.0.1:8630", self.upstream) + "\n")

    def _start_caddy(self):
        home = os.path.join(self.work, "caddy-home")
        for sub in ("", "data", "config"):
            os.makedirs(os.path.join(home, sub), exist_ok=True)
        path = os.path.join(self.work, "Caddyfile")
        with open(path, "w") as f:
            f.write(self.caddyfile())
        env = dict(os.environ, HOME=home, XDG_DATA_HOME=os.path.join(home, "data"),
                   XDG_CONFIG_HOME=os.path.join(home, "config"))
        log = self._log("caddy.log")
        self.caddy = subprocess.Popen(
            [shutil.which("caddy") or "/usr/bin/caddy", "run", "--config", path, "--adapter", "caddyfile"],
            stdout=log, stderr=subprocess.STDOUT, env=env, cwd=self.work)

    def _check_alive(self):
        for name, process in (("pebble", self.pebble), ("caddy", self.caddy)):
            if process is not None and process.poll() is not None:
                raise AcmeError(f"{name} exited with {process.returncode}\n{self.log_tail()}")


# ---------------------------------------------------------------------------- chromium


def nss_database(home_dir, root_pem=None):
    """$home_dir/.pki/nssdb, new and empty, holding root_pem (if given) as a trusted CA."""
    db = os.path.join(home_dir, ".pki", "nssdb")
    shutil.rmtree(db, ignore_errors=True)
    os.makedirs(db)
    _run(["certutil", "-N", "-d", f"sql:{db}", "--empty-password"])
    if root_pem:
        _run(["certutil", "-A", "-d", f"sql:{db}", "-n", "pebble-root", "-t", "C,,", "-i", root_pem])
    return db


def chromium_trusting(root_pem, width, height, home_dir):
    """A headless Chromium (as common.chromium()) whose HOME is home_dir, with an NSS
    database there that trusts root_pem and nothing else added; root_pem=None gives an
    empty database (the negative control: only Chromium's built-in roots)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    os.makedirs(home_dir, exist_ok=True)
    nss_database(home_dir, root_pem)
    options = webdriver.ChromeOptions()
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 f"--window-size={width},{height}", "--force-device-scale-factor=1"):
        options.add_argument(flag)
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    env = dict(os.environ, HOME=home_dir)
    for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"):
        env.pop(var, None)
    service = Service(shutil.which("chromedriver") or "/usr/bin/chromedriver", env=env)
    return webdriver.Chrome(service=service, options=options)
