"""The size of a request body, bounded before it is read whole."""

from fastapi.responses import JSONResponse


class BodyLimit:
    """Refuse (413) a request body over ``limit`` bytes, before it is read whole."""

    def __init__(self, app, limit):
        self.app, self.limit = app, limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        length = dict(scope["headers"]).get(b"content-length", b"0")
        if not length.isdigit() or int(length) > self.limit:
            return await self._refuse(scope, send)
        seen = 0

        async def counted():
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.limit:
                raise _TooLarge
            return message

        try:
            await self.app(scope, counted, send)
        except _TooLarge:
            await self._refuse(scope, send)

    async def _refuse(self, scope, send):
        response = JSONResponse({"detail": [{"loc": ["body"], "type": "too_large", "msg": (
            f"a request body is at most {self.limit:,} bytes")}]}, status_code=413)
        await response(scope, None, send)


class _TooLarge(Exception):
    pass
