"""The GraphQL server that HTTPTransportTests talk to: ariadne on uvicorn, bound to 127.0.0.1.

    server.py PORT      (0: any free port)

Prints "listening on 127.0.0.1:PORT" once it accepts connections, serves GraphQL at
/graphql (any other path is a 404, /text answers 200 with plain text), and exits on
SIGTERM or when its standard input closes (the test that started it is gone). A request
with an X-Answer-Cache-Control header is answered with that value as its Cache-Control
header (the client's max ages).

Subscriptions run over WebSocket at /graphql in whichever of graphql-transport-ws and
graphql-ws the client offers first (wsproto under uvicorn); at /legacy/graphql graphql-ws is
preferred; /plain-ws accepts a WebSocket with no subprotocol and echoes what it hears (a
server that speaks neither); /refuse-ws answers the upgrade with 403. The mutation
dropSockets closes every WebSocket with 1012 (service restart): clients reconnect.
"""

import asyncio
import sys
from pathlib import Path

from ariadne import InterfaceType, ObjectType, QueryType, SubscriptionType, UnionType, make_executable_schema
from ariadne.asgi import GraphQL
from ariadne.asgi.handlers import GraphQLTransportWSHandler, GraphQLWSHandler
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from serving import serve  # noqa: E402

# The mutation root is not named Mutation: clients must learn the roots from the schema.
TYPE_DEFINITIONS = """
    schema {
        query: Query
        mutation: TripMutations
        subscription: Subscription
    }

    type Subscription {
        "Each trip renamed from now on (renameTrip), or only trip `id`'s."
        tripRenamed(id: ID): Trip!
        "from, from - 1, …, 1, then complete."
        countdown(from: Int!): Int!
        "Refused when it starts: the server sends an error message."
        forbidden: Int
    }

    type Query {
        trips(filter: TripFilter): [Trip!]!
        trip(id: ID!): Trip
        search(text: String!): [SearchResult!]!
        "The request's Authorization header."
        whoami: String
        "Answers `ms` after waiting that many milliseconds."
        slow(ms: Int!): Int!
        "Always fails in its resolver."
        failing: String
        "The client's port of the connection the request came on: one port, one connection."
        clientPort: Int!
        "How many tripRenamed subscriptions hear trip `id`'s renames: a test renames once it is heard."
        renameListeners(id: ID!): Int!
    }

    type TripMutations {
        renameTrip(id: ID!, name: String!): Trip
        "Closes every WebSocket connection with 1012 (service restart); the number closed."
        dropSockets: Int!
    }

    interface Node {
        id: ID!
    }

    type Trip implements Node {
        id: ID!
        name: String!
        kind: TripKind!
        startsOn: Date
        stops(first: Int = 10): [Place!]!
    }

    type Place implements Node {
        id: ID!
        name: String!
    }

    union SearchResult = Trip | Place

    enum TripKind {
        CITY
        BEACH
        HIKE
        CRUISE @deprecated(reason: "no more cruises")
    }

    input TripFilter {
        kind: TripKind
        nameContains: String
    }

    "A calendar day, as 2025-06-01."
    scalar Date
"""

PLACES = {
    "p1": {"type": "Place", "id": "p1", "name": "Lisbon"},
    "p2": {"type": "Place", "id": "p2", "name": "Porto"},
    "p3": {"type": "Place", "id": "p3", "name": "Faro"},
}

TRIPS = {
    "1": {"type": "Trip", "id": "1", "name": "Lisbon weekend", "kind": "CITY", "startsOn": "2025-06-01", "stops": ["p1"]},
    "2": {"type": "Trip", "id": "2", "name": "Douro valley", "kind": "HIKE", "startsOn": None, "stops": ["p2", "p1"]},
    "3": {"type": "Trip", "id": "3", "name": "Algarve", "kind": "BEACH", "startsOn": "2025-08-10", "stops": ["p3"]},
}

query = QueryType()
mutation = ObjectType("TripMutations")
trip_type = ObjectType("Trip")
node = InterfaceType("Node", lambda obj, *_: obj["type"])
search_result = UnionType("SearchResult", lambda obj, *_: obj["type"])


@query.field("trips")
def resolve_trips(*_, filter=None):
    filter = filter or {}
    return [
        trip for trip in TRIPS.values()
        if filter.get("kind") in (None, trip["kind"]) and (filter.get("nameContains") or "") in trip["name"]
    ]


@query.field("trip")
def resolve_trip(*_, id):
    return TRIPS.get(id)


@query.field("search")
def resolve_search(*_, text):
    return [item for item in [*TRIPS.values(), *PLACES.values()] if text.lower() in item["name"].lower()]


@query.field("whoami")
def resolve_whoami(_, info):
    return info.context["request"].headers.get("authorization")


@query.field("renameListeners")
def resolve_rename_listeners(*_, id):
    return sum(1 for _, wanted in RENAME_LISTENERS if wanted in (None, id))


@query.field("clientPort")
def resolve_client_port(_, info):
    return info.context["request"].client.port


@query.field("slow")
async def resolve_slow(*_, ms):
    await asyncio.sleep(ms / 1000)
    return ms


@query.field("failing")
def resolve_failing(*_):
    raise ValueError("the failing field always fails")


@mutation.field("renameTrip")
def resolve_rename_trip(*_, id, name):
    trip = TRIPS.get(id)
    if trip is not None:
        trip["name"] = name
        for listener, _ in RENAME_LISTENERS:
            listener.put_nowait(trip)
    return trip


subscription = SubscriptionType()
RENAME_LISTENERS = set()
SOCKETS = {}


@subscription.source("tripRenamed")
async def trip_renamed_source(*_, id=None):
    renamed = asyncio.Queue()
    listener = (renamed, id)
    RENAME_LISTENERS.add(listener)
    try:
        while True:
            trip = await renamed.get()
            if id is None or trip["id"] == id:
                yield dict(trip)
    finally:
        RENAME_LISTENERS.discard(listener)


@subscription.field("tripRenamed")
def resolve_trip_renamed(trip, *_, id=None):
    return trip


@subscription.source("countdown")
async def countdown_source(*_, **arguments):
    for number in range(arguments["from"], 0, -1):
        await asyncio.sleep(0.01)
        yield number


@subscription.field("countdown")
def resolve_countdown(number, *_, **arguments):
    return number


@subscription.source("forbidden")
async def forbidden_source(*_):
    raise PermissionError("forbidden: this subscription is refused")


@mutation.field("dropSockets")
async def resolve_drop_sockets(*_):
    dropped = list(SOCKETS.values())
    for close in dropped:
        await close()
    return len(dropped)


@trip_type.field("stops")
def resolve_stops(trip, *_, first):
    return [PLACES[place] for place in trip["stops"][:first]]


schema = make_executable_schema(TYPE_DEFINITIONS, query, mutation, subscription, trip_type, node, search_result)

WEBSOCKET_APPS = {
    "graphql-transport-ws": GraphQL(schema, websocket_handler=GraphQLTransportWSHandler()),
    "graphql-ws": GraphQL(schema, websocket_handler=GraphQLWSHandler()),
}

app = Starlette(routes=[
    Route("/graphql", GraphQL(schema), methods=["GET", "POST"]),
    Route("/text", lambda _: PlainTextResponse("plain text, not JSON"), methods=["POST"]),
])


def serving_websockets(app):
    """The app, with WebSocket connections to /graphql (and /legacy/graphql) handed to
    ariadne's handler for the subprotocol chosen (the client's first known one; graphql-ws
    first under /legacy), each kept in SOCKETS so that dropSockets can close it."""
    async def serving(scope, receive, send):
        if scope["type"] != "websocket":
            return await app(scope, receive, send)
        path = scope["path"]
        if path == "/refuse-ws":
            await receive()
            return await send({"type": "websocket.close", "code": 1008})   # before accept: a 403
        if path == "/plain-ws":
            await receive()
            await send({"type": "websocket.accept"})
            while (message := await receive())["type"] == "websocket.receive":
                await send({"type": "websocket.send", "text": message.get("text") or ""})
            return
        offered = scope.get("subprotocols", [])
        preferred = ["graphql-ws", "graphql-transport-ws"] if path == "/legacy/graphql" else offered
        chosen = next((name for name in preferred if name in offered and name in WEBSOCKET_APPS), None)
        if path not in ("/graphql", "/legacy/graphql") or chosen is None:
            await receive()
            return await send({"type": "websocket.close", "code": 1008})
        closing = asyncio.Event()

        async def close():
            closing.set()
            await send({"type": "websocket.close", "code": 1012, "reason": "service restart"})

        async def receiving():
            # A dropped connection ends the handler as a disconnect would.
            done = asyncio.ensure_future(closing.wait())
            message = asyncio.ensure_future(receive())
            await asyncio.wait([done, message], return_when=asyncio.FIRST_COMPLETED)
            if message.done():
                done.cancel()
                return message.result()
            message.cancel()
            return {"type": "websocket.disconnect", "code": 1012}

        async def sending(message):
            if not closing.is_set():
                await send(message)

        SOCKETS[id(scope)] = close
        try:
            await WEBSOCKET_APPS[chosen]({**scope, "path": "/graphql"}, receiving, sending)
        finally:
            SOCKETS.pop(id(scope), None)
    return serving


def answering_cache_control(app):
    """The app, answering a request that has an X-Answer-Cache-Control header with its value
    as the Cache-Control header."""
    async def answering(scope, receive, send):
        wanted = dict(scope.get("headers", [])).get(b"x-answer-cache-control")
        if wanted is None:
            return await app(scope, receive, send)

        async def sending(message):
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), (b"cache-control", wanted)]}
            await send(message)
        await app(scope, receive, sending)
    return answering


def main():
    serve(serving_websockets(answering_cache_control(app)), int(sys.argv[1]), ws="wsproto")


if __name__ == "__main__":
    main()
