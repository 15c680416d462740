"""How the uvicorn test servers listen and stop, the one place that decides it.

serve(app, port) binds 127.0.0.1:PORT (0: any free port), prints "listening on
127.0.0.1:PORT" once it accepts connections, and runs until SIGTERM or, when its standard
input is a pipe, until that closes (the test or script that started it is gone): then it exits at once, since a
test server keeps nothing, and an answer still streaming (a stalled @defer part, an open
subscription) must not hold it.
"""

import os
import socket
import stat
import sys
import threading

import uvicorn


def serve(app, port, **config):
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", port))
    listener.listen(64)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off",
                                           timeout_graceful_shutdown=1, **config))
    if stat.S_ISFIFO(os.fstat(0).st_mode):   # a pipe from whoever started it, not a shell's /dev/null for `server &`
        threading.Thread(target=exit_when_stdin_closes, daemon=True).start()
    print(f"listening on 127.0.0.1:{listener.getsockname()[1]}", flush=True)
    server.run(sockets=[listener])


def exit_when_stdin_closes():
    sys.stdin.buffer.read()
    os._exit(0)
