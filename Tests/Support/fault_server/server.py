"""A GraphQL endpoint that answers badly on purpose: the damaged responses of docs/reliability.md.

    server.py PORT      (0: any free port)

Python's standard library only (no venv). Prints "listening on 127.0.0.1:PORT" once it
accepts connections and exits when its standard input closes, as the GraphQL test server
does. Every POST is answered by the fault its operation name picks (the request's
"operationName", else the first `query NAME` of its document); any other name is answered
well, with the one trip this server knows:

    {"data": {"trip": {"__typename": "Trip", "id": "1", "name": "Lisbon weekend"}}}

Every answer closes its connection: each request comes on a connection of its own, so a
fault never meets a connection that an earlier answer left open. (FoundationNetworking
on Linux does not report a reset of a reused keep-alive connection: the request waits
for its timeout; docs/reliability.md.)

Faults, by operation name:
    Truncated          200 application/json, a well-framed body whose JSON stops halfway
    HtmlPage           200 text/html, a proxy's error page
    ServerError        500 text/plain, no GraphQL errors
    ServerErrors       500 application/json with two GraphQL errors
    Reset              the connection is reset (TCP RST) before any answer
    Huge               200 application/json, 48 MiB of body with no Content-Length (more
                       than the 32 MiB a response may be)
    HugeDeclared       200 application/json declaring a 10 GB body, of which 64 KiB come
    StopsMidBody       Content-Length 200, 60 bytes of it, then the connection closes
    Stalls             Content-Length 200, 60 bytes of it, then nothing (the connection stays)
    Slow               nothing at all for 30 s
"""

import json
import socket
import struct
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

GOOD = json.dumps({"data": {"trip": {"__typename": "Trip", "id": "1", "name": "Lisbon weekend"}}}).encode()
DAMAGED = json.dumps({"data": {"trip": {"__typename": "Trip", "id": "1", "name": "Damaged name"}}}).encode()
HTML = b"<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>\n"
SERVER_ERRORS = json.dumps({"data": None, "errors": [
    {"message": "the trips database is unavailable"},
    {"message": "retry later"},
]}).encode()


def operation_name(body):
    try:
        request = json.loads(body)
    except ValueError:
        return None
    if request.get("operationName"):
        return request["operationName"]
    words = request.get("query", "").replace("{", " { ").split()
    return words[1] if len(words) > 1 and words[0] in ("query", "mutation") and words[1] != "{" else None


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *_):
        pass

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        fault = getattr(self, "fault_" + (operation_name(body) or ""), None)
        if fault is None:
            self.answer(200, "application/json", GOOD)
        else:
            fault()

    def answer(self, status, content_type, body, length=None):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body) if length is None else length))
        self.send_header("Connection", "close")
        self.close_connection = True
        self.end_headers()
        self.wfile.write(body)
        self.wfile.flush()

    def fault_Truncated(self):
        self.answer(200, "application/json", DAMAGED[: len(DAMAGED) // 2])

    def fault_HtmlPage(self):
        self.answer(200, "text/html; charset=utf-8", HTML)

    def fault_ServerError(self):
        self.answer(500, "text/plain", b"Internal Server Error")

    def fault_ServerErrors(self):
        self.answer(500, "application/json", SERVER_ERRORS)

    def fault_Reset(self):
        # SO_LINGER with a zero timeout: close() sends RST instead of FIN.
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.connection.close()
        self.close_connection = True

    def fault_Huge(self):
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        self.stream(b'{"data": {"trip": {"__typename": "Trip", "id": "1", "name": "', b"x" * 65536, 48 * 16)

    def fault_HugeDeclared(self):
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(10 * 1000 ** 3))
        self.end_headers()
        self.close_connection = True
        self.stream(b'{"data": {"trip": {"name": "', b"x" * 65536, 1)

    def fault_StopsMidBody(self):
        self.answer(200, "application/json", DAMAGED[:60], length=200)

    def fault_Stalls(self):
        self.answer(200, "application/json", DAMAGED[:60], length=200)
        time.sleep(30)

    def fault_Slow(self):
        self.close_connection = True
        time.sleep(30)

    def stream(self, start, chunk, count):
        """Writes `start`, then `chunk` `count` times or until the client goes away. (Not
        forever: FoundationNetworking keeps reading a refused body until it ends, and holds
        up other requests meanwhile.)"""
        try:
            self.wfile.write(start)
            for _ in range(count):
                self.wfile.write(chunk)
        except OSError:
            pass

    def finish(self):
        try:
            super().finish()
        except OSError:
            pass  # the connection this fault reset or the client dropped


def exit_when_stdin_closes(server):
    sys.stdin.buffer.read()
    threading.Thread(target=server.shutdown, daemon=True).start()


def main():
    server = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler)
    server.daemon_threads = True
    threading.Thread(target=exit_when_stdin_closes, args=(server,), daemon=True).start()
    print(f"listening on 127.0.0.1:{server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
