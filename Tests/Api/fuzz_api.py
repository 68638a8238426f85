"""Schemathesis against docs/openapi.yaml and a real hyzer-server (`make fuzz-api`, part
of `make test`): every check schemathesis has, on every operation, with the token each
operation takes. Exits non-zero when schemathesis finds anything.

The server runs on SQLite in a temporary directory, on PostgreSQL with --database URL, or
with --postgres on a throwaway PostgreSQL server this script starts (Debian's postgresql
package: initdb in the temporary directory, a Unix socket there only, stopped at the end),
with one group, an enrolled device, a live-board view token and a round's summary link, so
that the generated requests reach past authentication; and two registered players, one of
them claimed by a phone that joined with an invite, and a live invite whose players
`GET /v1/invites/{code}/players` lists (invites live an hour here, `--device-code-lifetime`,
so that one outlasts the run).

Every operation is fuzzed. GET /v1/groups/{group}/board/events is an endless event
stream: schemathesis reads it until its first event (`max-stream-events`), the board, and
checks what came. GET /v1/live is fuzzed like the rest, with what a WebSocket handshake
answers declared: 101 (Switching Protocols) is its success, neither a server error nor a
refusal of valid data, and 426 its refusal of a request with no handshake or one of
another version (a handshake missing a part is a 400, as a missing header is anywhere). After a 101 the connection is a WebSocket, never reused for HTTP
(schemathesis_hooks.py).

A few statuses are the documented answer to a schema-valid request, which no schema can
rule out, and are accepted as such on their operation only: RFC 8628's 400s on
/v1/device/token, 422 for a playerID none of the invite's group has on /v1/invites/redeem,
410 for a name code that expired on /v1/name-requests/{code}/answer (codes live five
minutes; the run is longer).
"""

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def request(method, url, token=None, device=None, body=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, method=method)
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    if device:
        req.add_header("X-Hyzer-Device", device)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(req, timeout=10) as answer:
        return json.loads(answer.read() or b"null")


def throwaway_postgres(work):
    """Starts a PostgreSQL server in `work` (as the `postgres` user when run as root: initdb
    refuses root) and returns (its database URL, the command that stops it)."""
    versions = sorted(int(v) for v in os.listdir("/usr/lib/postgresql") if v.isdigit())
    if not versions:
        raise SystemExit("fuzz-api: no PostgreSQL server under /usr/lib/postgresql: run `make deps`")
    bin = f"/usr/lib/postgresql/{versions[-1]}/bin"
    directory = os.path.join(work, "pg")
    os.makedirs(directory)
    as_owner = []
    if os.geteuid() == 0:
        shutil.chown(work, "postgres", "postgres")
        shutil.chown(directory, "postgres", "postgres")
        as_owner = ["runuser", "-u", "postgres", "--"]
    data = os.path.join(directory, "data")
    subprocess.run(
        as_owner + [f"{bin}/initdb", "-D", data, "-U", "hyzer", "-A", "trust", "-E", "UTF8", "--no-sync", "--locale", "C"],
        check=True,
        capture_output=True,
    )
    options = f"-k {directory} -c listen_addresses='' -c fsync=off"
    subprocess.run(
        as_owner + [f"{bin}/pg_ctl", "-D", data, "-o", options, "-l", os.path.join(directory, "log"), "-w", "start"],
        check=True,
        capture_output=True,
    )
    subprocess.run(
        as_owner + [f"{bin}/psql", "-X", "-q", "-h", directory, "-U", "hyzer", "-d", "postgres", "-c", "CREATE DATABASE fuzz"],
        check=True,
        capture_output=True,
    )
    stop = as_owner + [f"{bin}/pg_ctl", "-D", data, "-m", "immediate", "stop"]
    return f"postgres://hyzer@/fuzz?host={directory}", stop


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True, help="the directory of the built hyzer-server")
    parser.add_argument("--schemathesis", required=True, help="the schemathesis executable")
    parser.add_argument("--max-examples", type=int, default=40)
    parser.add_argument("--database", help="a postgres:// URL to serve from instead of SQLite")
    parser.add_argument("--postgres", action="store_true", help="serve from a throwaway PostgreSQL server")
    args = parser.parse_args()
    args.schemathesis = os.path.abspath(args.schemathesis)

    work = tempfile.mkdtemp(prefix="hyzer-fuzz-api-")
    stop_postgres = None
    if args.postgres:
        args.database, stop_postgres = throwaway_postgres(work)
    server_bin = os.path.join(args.bin, "hyzer-server")
    place = ["--database", args.database] if args.database else ["--data", os.path.join(work, "server")]
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = None
    try:
        made = subprocess.run(
            [server_bin, "group", "create", "Fuzz League", *place], capture_output=True, text=True, check=True
        )
        admin = made.stdout.strip().splitlines()[-1]
        log = open(os.path.join(work, "server.log"), "w")
        server = subprocess.Popen(
            [
                server_bin, "serve", "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning", "--rate-limit", "0",
                "--device-code-lifetime", "3600", *place,
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        for _ in range(400):
            try:
                health = request("GET", f"{base}/health")
                break
            except OSError:
                time.sleep(0.025)
        else:
            raise SystemExit("the server did not come up")

        device = "fuzz-device-1"
        enrolled = request("POST", f"{base}/v1/devices", token=admin, body={"deviceID": device, "name": "Fuzz phone"})
        token = enrolled["deviceToken"]
        group = enrolled["groupID"]
        linked = subprocess.run(
            [server_bin, "group", "board-link", group, "--base-url", base, *place],
            capture_output=True,
            text=True,
            check=True,
        )
        view = linked.stdout.strip().split("#view=")[-1]
        summary = request("POST", f"{base}/v1/rounds/{uuid.uuid4()}/summary-link", token=token, device=device)
        summary_token = summary["path"].rsplit("/", 1)[-1]
        # "Which player am I?": two registered players, one claimed by a phone that joined
        # with an invite, and a live invite that lists them (claimedBy a name, and null).
        players = [
            {"id": str(uuid.uuid4()), "version": str(uuid.uuid4()), "updatedAt": 1, "displayName": name, "aliases": []}
            for name in ["Nate", "Priya"]
        ]
        request(
            "POST", f"{base}/v1/push", token=token, device=device,
            body={"deviceID": device, "records": [{"kind": "player", "data": p} for p in players]},
        )
        claim = request("POST", f"{base}/v1/invites", token=token, device=device)
        request(
            "POST", f"{base}/v1/invites/redeem",
            body={"code": claim["code"], "deviceID": "fuzz-phone-1", "name": "Nate's phone", "playerID": players[0]["id"]},
        )
        invite = request("POST", f"{base}/v1/invites", token=token, device=device)["code"]

        # Device token and header by default; the admin's routes and the board's own.
        config = f"""
headers = {{ Authorization = "Bearer {token}", X-Hyzer-Device = "{device}" }}
request-timeout = 10.0

[generation]
max-examples = {args.max_examples}

[[operations]]
include-path-regex = "^/v1/(devices|device/approve)"
headers = {{ Authorization = "Bearer {admin}" }}

# RFC 8628 §3.5 answers a well-formed poll 400 until the code is approved
# (authorization_pending, slow_down, invalid_grant for an unknown code): 400 is the
# documented answer to a schema-valid request here, and only here.
[[operations]]
include-path = "/v1/device/token"
checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "401", "403", "404", "409", "429"]

# A schema-valid `playerID` that names none of the invite's group's registered players is
# refused 422 (which ids a group has is not something a schema can say; the stateful phase
# redeems the invites it makes with made-up ones): documented, and only here.
[[operations]]
include-path = "/v1/invites/redeem"
checks.positive_data_acceptance.expected-statuses = ["2xx", "401", "403", "404", "409", "422", "429"]

# The poke socket's handshake (see the docstring): 101 is its success, 426 its refusal of
# a request with no handshake or one of another version.
[[operations]]
include-path = "/v1/live"
checks.not_a_server_error.expected-statuses = ["101", "2xx", "3xx", "4xx"]
checks.positive_data_acceptance.expected-statuses = ["101", "2xx", "401", "403", "404", "409", "429"]
checks.negative_data_rejection.expected-statuses = ["400", "401", "403", "404", "405", "406", "409", "415", "422", "426", "428", "429"]

# A code made during the run expires after five minutes: 410, documented, and only here.
[[operations]]
include-path = "/v1/name-requests/{{code}}/answer"
checks.positive_data_acceptance.expected-statuses = ["2xx", "401", "403", "404", "409", "410", "429"]

[[operations]]
include-path = "/v1/groups/{{group}}/board"
headers = {{ Authorization = "Bearer {view}" }}
parameters = {{ group = "{group}" }}

# An endless stream: read up to its first event (the board), then the request ends.
[[operations]]
include-path = "/v1/groups/{{group}}/board/events"
headers = {{ Authorization = "Bearer {view}" }}
parameters = {{ group = "{group}" }}
max-stream-events = 1

[[operations]]
include-path = "/g/{{group}}/board"
parameters = {{ group = "{group}" }}

[[operations]]
include-path = "/web/{{file}}"
parameters = {{ file = "board.js" }}

[[operations]]
include-path = "/web/fonts/{{file}}"
parameters = {{ file = "Quicksand-Bold.ttf" }}

[[operations]]
include-path = "/v1/summaries/{{token}}"
parameters = {{ token = "{summary_token}" }}

[[operations]]
include-path = "/s/{{token}}"
parameters = {{ token = "{summary_token}" }}

[[operations]]
include-path = "/v1/invites/{{code}}/players"
parameters = {{ code = "{invite}" }}
"""
        config_path = os.path.join(work, "schemathesis.toml")
        with open(config_path, "w") as f:
            f.write(config)
        print(f"fuzz-api: {base} on {args.database or 'SQLite'} (epoch {health['epoch']}), config {config_path}", flush=True)
        run = subprocess.run(
            [
                args.schemathesis,
                "--config-file",
                config_path,
                "run",
                os.path.join(REPO, "docs/openapi.yaml"),
                "--url",
                base,
                "--checks",
                "all",
                "--seed",
                "8630",
            ],
            cwd=work,
            env=dict(os.environ, SCHEMATHESIS_HOOKS="schemathesis_hooks", PYTHONPATH=os.path.dirname(os.path.abspath(__file__))),
        )
        if run.returncode != 0:
            print(f"fuzz-api: schemathesis found problems (server log: {log.name})", file=sys.stderr)
            return run.returncode
        print("fuzz-api: schemathesis found nothing")
        return 0
    finally:
        if server:
            server.terminate()
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
        if stop_postgres:
            subprocess.run(stop_postgres, capture_output=True)
        if os.environ.get("KEEP_FUZZ_API") is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
