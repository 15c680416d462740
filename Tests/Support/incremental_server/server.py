"""The GraphQL server that answers @defer in parts, as Apollo iOS reads them: raw ASGI on
uvicorn, with graphql-core 3.3.0a6 (GraphQL.js 17.0.0-alpha.2, the deferSpec=20220824
payloads), bound to 127.0.0.1.

    server.py PORT      (0: any free port)

Prints "listening on 127.0.0.1:PORT" once it accepts connections and exits when its
standard input closes, as Tests/Support/graphql_server/server.py does. A POST to /graphql
whose query has a @defer that applies, from a client that accepts
`multipart/mixed;deferSpec=20220824` (else 406), is answered `multipart/mixed;boundary="-";
deferSpec=20220824`: each part `\\r\\n---\\r\\ncontent-type: application/json\\r\\n\\r\\nJSON`,
sent as it is ready (deferred fields wait DEFER_DELAY), and `\\r\\n-----\\r\\n` after the last;
any other query gets one JSON response.

graphql-core 3.3.0a6 comes from .build/graphql-server/graphql-core-20220824 (`make
graphql-server`), put first on the path: ariadne's venv has a newer graphql-core, whose
payloads are another format.

Bad answers on purpose, by operation name (each answers the query, then damages it):
    NoBoundary        the Content-Type names no boundary
    UnknownSpec       the Content-Type says deferSpec=20230101
    BadJSONPart       the second part's JSON is cut short
    IncrementalFirst  the initial part is left out: the first part is an incremental one
    BadPath           the first incremental item's path names a field the data does not have
    NoLastPart        the part saying "hasNext": false is left out
    StallsAfterFirst  after the first part, nothing for 30 s (the connection stays)

Subscriptions over HTTP, as Apollo Router serves them (`subscriptionSpec=1.0`), for a
client that accepts them (else 406): `multipart/mixed;boundary="graphql";subscriptionSpec=1.0`,
a heartbeat part `{}` first, then `{"payload": RESPONSE}` per event and the closing
boundary when the subscription ends. A WebSocket upgrade is refused (403): the server
speaks no WebSocket, as a router with only multipart subscriptions.
    TransportErrorAfterOne  after the first event, a part with a top-level "errors" ends it
"""

import asyncio
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", ".build", "graphql-server", "graphql-core-20220824"))

from serving import serve  # noqa: E402
from graphql import OperationType, build_schema, get_operation_ast, parse, subscribe, validate, version  # noqa: E402
from graphql.execution.execute import ExperimentalIncrementalExecutionResults, experimental_execute_incrementally  # noqa: E402

assert version.startswith("3.3.0a6"), f"graphql-core {version} is not 3.3.0a6: run `make graphql-server`"

SCHEMA = build_schema("""
    directive @defer(label: String, if: Boolean! = true) on FRAGMENT_SPREAD | INLINE_FRAGMENT

    type Query {
        trip(id: ID!): Trip
        trips: [Trip!]!
    }

    type Trip {
        id: ID!
        name: String!
        "Slow: a detail screen defers it."
        notes: String!
        stops: [Place!]!
    }

    type Place {
        id: ID!
        name: String!
        "Slow too."
        weather: String!
    }

    type Subscription {
        "from, from - 1, …, 1, then the end."
        countdown(from: Int!): Int!
    }
""")


async def countdown_source(root, info, **arguments):
    for number in range(arguments["from"], 0, -1):
        await asyncio.sleep(0.01)
        yield number


SCHEMA.subscription_type.fields["countdown"].subscribe = countdown_source
SCHEMA.subscription_type.fields["countdown"].resolve = lambda number, info, **arguments: number

DEFER_DELAY = 0.05

TRIPS = {
    "1": {"id": "1", "name": "Lisbon weekend", "notes": "Take the 28 tram early",
          "stops": [{"id": "p1", "name": "Alfama", "weather": "sunny"}, {"id": "p2", "name": "Belém", "weather": "windy"}]},
    "2": {"id": "2", "name": "Faro", "notes": "Book the ferry", "stops": []},
}


async def slow(value):
    await asyncio.sleep(DEFER_DELAY)
    return value


class Trip:
    def __init__(self, data):
        self.data = data
        self.id = data["id"]
        self.name = data["name"]
        self.stops = [Place(stop) for stop in data["stops"]]

    def notes(self, info):
        return slow(self.data["notes"])


class Place:
    def __init__(self, data):
        self.data = data
        self.id = data["id"]
        self.name = data["name"]

    def weather(self, info):
        return slow(self.data["weather"])


class Root:
    def trip(self, info, id):
        return Trip(TRIPS[id]) if id in TRIPS else None

    def trips(self, info):
        return [Trip(trip) for trip in TRIPS.values()]


async def payloads(request):
    """The response's payloads: one when nothing is deferred (the second item False), else
    the initial one and each subsequent one as it is ready."""
    try:
        document = parse(request["query"])
    except Exception as error:  # noqa: BLE001 - a syntax error is the client's
        yield {"errors": [{"message": str(error)}]}, False
        return
    errors = validate(SCHEMA, document)
    if errors:
        yield {"errors": [error.formatted for error in errors]}, False
        return
    result = experimental_execute_incrementally(SCHEMA, document, Root(), variable_values=request.get("variables"),
                                                operation_name=request.get("operationName"))
    if asyncio.iscoroutine(result) or asyncio.isfuture(result):
        result = await result
    if not isinstance(result, ExperimentalIncrementalExecutionResults):
        yield result.formatted, False
        return
    yield result.initial_result.formatted, True
    async for subsequent in result.subsequent_results:
        yield subsequent.formatted, True


def damaged(fault, index, payload):
    """The payload at `index` as the fault `fault` sends it: bytes, or None to leave it out."""
    if fault == "BadJSONPart" and index == 1:
        return json.dumps(payload).encode()[:20]
    if fault == "IncrementalFirst" and index == 0:
        return None
    if fault == "BadPath" and index == 1:
        payload["incremental"][0]["path"] = ["nowhere"]
    if fault == "NoLastPart" and payload.get("hasNext") is False:
        return None
    return json.dumps(payload).encode()


def part(payload):
    """One part of a multipart subscription answer."""
    return b"\r\n--graphql\r\ncontent-type: application/json\r\n\r\n" + json.dumps(payload).encode()


async def answer_subscription(request, document, accept, send):
    """A subscription over HTTP: its events as parts, as they come."""
    if "subscriptionSpec=1.0" not in accept.replace(" ", ""):
        await send({"type": "http.response.start", "status": 406, "headers": [(b"content-type", b"application/json")]})
        message = f"a subscription over HTTP needs Accept: multipart/mixed;subscriptionSpec=1.0 (Accept: {accept})"
        await send({"type": "http.response.body", "body": json.dumps({"errors": [{"message": message}]}).encode()})
        return
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-type", b'multipart/mixed;boundary="graphql";subscriptionSpec=1.0')]})
    await send({"type": "http.response.body", "body": part({}), "more_body": True})
    events = subscribe(SCHEMA, document, Root(), variable_values=request.get("variables"), operation_name=request.get("operationName"))
    if asyncio.iscoroutine(events):
        events = await events
    if hasattr(events, "formatted"):   # an ExecutionResult: it did not start
        await send({"type": "http.response.body", "body": part({"payload": events.formatted}), "more_body": True})
    else:
        async for event in events:
            await send({"type": "http.response.body", "body": part({"payload": event.formatted}), "more_body": True})
            if request.get("operationName") == "TransportErrorAfterOne":
                lost = {"payload": None, "errors": [{"message": "the router lost its subgraph"}]}
                await send({"type": "http.response.body", "body": part(lost), "more_body": True})
                break
    await send({"type": "http.response.body", "body": b"\r\n--graphql--\r\n"})


async def app(scope, receive, send):
    if scope["type"] == "websocket":
        await receive()
        await send({"type": "websocket.close", "code": 1008})   # before accept: a 403
        return
    body = b""
    while True:
        message = await receive()
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    if scope["path"] != "/graphql" or scope["method"] != "POST":
        await send({"type": "http.response.start", "status": 404, "headers": [(b"content-type", b"text/plain")]})
        await send({"type": "http.response.body", "body": b"not found"})
        return
    request = json.loads(body)
    accept = dict(scope["headers"]).get(b"accept", b"").decode()
    try:
        document = parse(request["query"])
        operation = get_operation_ast(document, request.get("operationName"))
    except Exception:  # noqa: BLE001 - payloads() says what is wrong
        operation = None
    if operation is not None and operation.operation == OperationType.SUBSCRIPTION and not validate(SCHEMA, document):
        return await answer_subscription(request, document, accept, send)
    fault = request.get("operationName")
    stream = payloads(request)
    first, incremental = await stream.__anext__()
    if not incremental:
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": json.dumps(first).encode()})
        return
    if "multipart/mixed;deferSpec=20220824" not in accept.replace(" ", ""):
        # As Apollo Server does: parts only for a client that says it reads them.
        await send({"type": "http.response.start", "status": 406, "headers": [(b"content-type", b"application/json")]})
        message = f"the query defers, but the request does not accept multipart/mixed;deferSpec=20220824 (Accept: {accept})"
        await send({"type": "http.response.body", "body": json.dumps({"errors": [{"message": message}]}).encode()})
        return
    content_type = {"NoBoundary": b"multipart/mixed;deferSpec=20220824",
                    "UnknownSpec": b'multipart/mixed;boundary="-";deferSpec=20230101'}.get(fault, b'multipart/mixed;boundary="-";deferSpec=20220824')
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", content_type)]})
    await send({"type": "http.response.body", "body": b"\r\n---", "more_body": True})
    index = 0
    payload = first
    while payload is not None:
        data = damaged(fault, index, payload)
        if data is not None:
            part = b"\r\ncontent-type: application/json; charset=utf-8\r\n\r\n" + data + b"\r\n---"
            await send({"type": "http.response.body", "body": part, "more_body": True})
        if fault == "StallsAfterFirst":
            await asyncio.sleep(30)
        index += 1
        payload = None
        async for payload, _ in stream:
            break
    await send({"type": "http.response.body", "body": b"--\r\n"})


def main():
    serve(app, int(sys.argv[1]) if len(sys.argv) > 1 else 0)


if __name__ == "__main__":
    main()
