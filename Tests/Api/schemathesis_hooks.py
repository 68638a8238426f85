"""Schemathesis hooks for `make fuzz-api` (loaded by fuzz_api.py through SCHEMATHESIS_HOOKS).

After a 101 the connection speaks WebSocket, not HTTP: a client that puts it back in its
pool sends the next request into the socket and reads a WebSocket frame as its answer
("Connection aborted"). The request to GET /v1/live gets a response hook that closes the
connection of a 101, so the next request opens a fresh one, as a WebSocket client would.
"""

import schemathesis


def _close_upgraded(response, *args, **kwargs):
    if response.status_code == 101:
        response.raw.close()
    return response


@schemathesis.hook
def before_call(context, case, kwargs):
    if case.operation.path == "/v1/live":
        hooks = kwargs.setdefault("hooks", {})
        hooks.setdefault("response", []).append(_close_upgraded)
