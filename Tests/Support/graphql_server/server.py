"""The GraphQL server that HTTPTransportTests talk to: ariadne on uvicorn, bound to 127.0.0.1.

    server.py PORT      (0: any free port)

Prints "listening on 127.0.0.1:PORT" once it accepts connections, serves GraphQL at
/graphql (any other path is a 404, /text answers 200 with plain text), and exits on
SIGTERM or when its standard input closes (the test that started it is gone). A request
with an X-Answer-Cache-Control header is answered with that value as its Cache-Control
header (the client's max ages).
"""

import asyncio
import socket
import sys
import threading

import uvicorn
from ariadne import InterfaceType, ObjectType, QueryType, UnionType, make_executable_schema
from ariadne.asgi import GraphQL
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route

# The mutation root is not named Mutation: clients must learn the roots from the schema.
TYPE_DEFINITIONS = """
    schema {
        query: Query
        mutation: TripMutations
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
    }

    type TripMutations {
        renameTrip(id: ID!, name: String!): Trip
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
    return trip


@trip_type.field("stops")
def resolve_stops(trip, *_, first):
    return [PLACES[place] for place in trip["stops"][:first]]


schema = make_executable_schema(TYPE_DEFINITIONS, query, mutation, trip_type, node, search_result)

app = Starlette(routes=[
    Route("/graphql", GraphQL(schema), methods=["GET", "POST"]),
    Route("/text", lambda _: PlainTextResponse("plain text, not JSON"), methods=["POST"]),
])


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


def exit_when_stdin_closes(server):
    sys.stdin.buffer.read()
    server.should_exit = True


def main():
    port = int(sys.argv[1])
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", port))
    listener.listen(64)
    config = uvicorn.Config(answering_cache_control(app), log_level="warning", access_log=False, lifespan="off", timeout_graceful_shutdown=1)
    server = uvicorn.Server(config)
    threading.Thread(target=exit_when_stdin_closes, args=(server,), daemon=True).start()
    print(f"listening on 127.0.0.1:{listener.getsockname()[1]}", flush=True)
    server.run(sockets=[listener])


if __name__ == "__main__":
    main()
