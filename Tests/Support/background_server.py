"""Starts a test server in the background for a script (examples/*.repl), and returns once it listens.

    background_server.py graphql|incremental|posts PORT SECONDS

graphql is graphql_server/server.py (ariadne: queries, mutations, subscriptions over
WebSocket), incremental is incremental_server/server.py (@defer in parts, subscriptions
over HTTP), posts is posts_server/server.py (examples/PostsApp's posts service). The
server runs for SECONDS, then exits (its standard input, a `sleep`, closes), so a
script that fails midway leaves nothing running; this returns once the server listens,
so the script's next line can reach it.
"""

import socket
import subprocess
import sys
import time
from pathlib import Path

here = Path(__file__).resolve().parent
python = here.parents[1] / ".build/graphql-server/bin/python"
kind, port, seconds = sys.argv[1], int(sys.argv[2]), sys.argv[3]
script = here / {"graphql": "graphql_server", "incremental": "incremental_server", "posts": "posts_server"}[kind] / "server.py"
lifetime = subprocess.Popen(["sleep", seconds], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True)
subprocess.Popen([str(python), str(script), str(port)], stdin=lifetime.stdout,
                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
for _ in range(200):
    with socket.socket() as probe:
        if probe.connect_ex(("127.0.0.1", port)) == 0:
            sys.exit(0)
    time.sleep(0.05)
sys.exit(f"the GraphQL test server did not listen on 127.0.0.1:{port} within 10 s")
