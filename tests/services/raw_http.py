"""Raw HTTP/1.1 exchanges for refusals the HTTP parser makes before any application runs."""

from __future__ import annotations

import socket

import h11

__all__ = ["MALFORMED", "exchange", "parsed"]

MALFORMED = {
    "garbage request line": b"HELLO THERE\r\n\r\n",
    "content length not a number": b"POST /v1/spaces/a/turns HTTP/1.1\r\nHost: x\r\nContent-Length: ten\r\n\r\n",
    "control character in a header": b"GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Note: a\x01b\r\n\r\n",
    "space before the colon": b"GET /v1/health HTTP/1.1\r\nHost : x\r\n\r\n",
}
"""Requests uvicorn's parser cannot read, by what is wrong with them."""


def exchange(url: str, raw: bytes) -> bytes:
    """Send ``raw`` on a fresh connection and read until the server closes it."""
    host, port = url.removeprefix("http://").split("/")[0].split(":")
    with socket.create_connection((host, int(port)), timeout=10) as conn:
        conn.sendall(raw)
        chunks = []
        while chunk := conn.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def parsed(answer: bytes) -> tuple[int, dict[str, str], bytes]:
    """The status, headers (lower-case names) and body of one HTTP/1.1 answer."""
    client = h11.Connection(h11.CLIENT)
    client.send(h11.Request(method="GET", target="/", headers=[("Host", "x")]))
    client.send(h11.EndOfMessage())
    client.receive_data(answer)
    client.receive_data(b"")
    head = client.next_event()
    assert isinstance(head, h11.Response), head
    body = b""
    while isinstance(event := client.next_event(), h11.Data):
        body += event.data
    headers = {name.decode(): value.decode() for name, value in head.headers}
    return head.status_code, headers, body
