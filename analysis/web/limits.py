"""The size of a request body, bounded before it is read whole."""

from fastapi import HTTPException
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
            if seen > self.limit:  # a body without its length (chunked): found as it is read
                raise TooLarge(self.limit)  # an HTTPException, which FastAPI answers as it is
            return message

        await self.app(scope, counted, send)

    async def _refuse(self, scope, send):
        refused = TooLarge(self.limit)
        await JSONResponse({"detail": refused.detail}, status_code=refused.status_code)(scope, None, send)


class TooLarge(HTTPException):
    """413, with the body the API documents for it."""

    def __init__(self, limit):
        super().__init__(413, [{"loc": ["body"], "type": "too_large",
                                "msg": f"a request body is at most {limit:,} bytes"}])
