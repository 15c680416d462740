"""The posts service of examples/PostsApp, for examples/paginated-posts-app.repl: ariadne on
uvicorn, bound to 127.0.0.1, serving the schema in examples/PostsApp/schema.graphqls (the
app's copy of it is the schema served, so the two cannot drift).

    server.py PORT      (0: any free port)

Listens and stops as Tests/Support/serving.py says. The data: posts 1 to 120, newest
(120) first, by three authors; post N has N % 25 comments, "N-1" the oldest. A post's
cursor is its id. publishPost adds post 121, 122, … (by Ana, no comments yet) at the
head of the list.
"""

import sys
from pathlib import Path

from ariadne import MutationType, ObjectType, QueryType, make_executable_schema
from ariadne.asgi import GraphQL
from graphql import GraphQLError

here = Path(__file__).resolve()
sys.path.insert(0, str(here.parents[1]))
from serving import serve  # noqa: E402

SCHEMA = (here.parents[3] / "examples/PostsApp/schema.graphqls").read_text()
AUTHORS = [{"id": "1", "name": "Ana"}, {"id": "2", "name": "Bruno"}, {"id": "3", "name": "Carla"}]


def new_post(number, title=None, author=None, comments=0):
    return {"id": str(number), "title": title or f"Post {number}", "author": author or AUTHORS[number % 3],
            "comments": [{"id": f"{number}-{k}", "text": f"Comment {k} on post {number}"} for k in range(1, comments + 1)]}


posts = [new_post(number, comments=number % 25) for number in range(120, 0, -1)]   # newest first
query = QueryType()
mutation = MutationType()
post_type = ObjectType("Post")


def position(cursor):
    for index, post in enumerate(posts):
        if post["id"] == cursor:
            return index
    raise GraphQLError(f"no post has the cursor {cursor!r}")


@query.field("posts")
def resolve_posts(*_, first=None, after=None, last=None, before=None):
    start, end = 0, len(posts)
    if after is not None:
        start = position(after) + 1
    if before is not None:
        end = position(before)
    if first is not None:
        if first < 0:
            raise GraphQLError("first must not be negative")
        end = min(end, start + first)
    if last is not None:
        if last < 0:
            raise GraphQLError("last must not be negative")
        start = max(start, end - last)
    page = posts[start:end]
    return {"edges": [{"cursor": post["id"], "node": post} for post in page],
            "pageInfo": {"hasNextPage": end < len(posts), "hasPreviousPage": start > 0,
                         "startCursor": page[0]["id"] if page else None, "endCursor": page[-1]["id"] if page else None}}


@query.field("post")
def resolve_post(*_, id):
    return next((post for post in posts if post["id"] == id), None)


@mutation.field("publishPost")
def resolve_publish_post(*_, title):
    post = new_post(max(int(post["id"]) for post in posts) + 1, title=title, author=AUTHORS[0])
    posts.insert(0, post)
    return post


@post_type.field("commentCount")
def resolve_comment_count(post, *_):
    return len(post["comments"])


@post_type.field("comments")
def resolve_comments(post, *_, offset=0, limit=10):
    if offset < 0 or limit < 0:
        raise GraphQLError("offset and limit must not be negative")
    return post["comments"][offset:offset + limit]


app = GraphQL(make_executable_schema(SCHEMA, query, mutation, post_type))

if __name__ == "__main__":
    serve(app, int(sys.argv[1]))
