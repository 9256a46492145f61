"""What belongs to no area: the language switch and the health check."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import PlainTextResponse, RedirectResponse, Response

from carom.notation.words import LANGUAGES
from carom.web.shared import i18n

router = APIRouter(include_in_schema=False)


@router.get("/lang/{code}")
def switch_language(code: str, next: str = "/") -> Response:
    target = next if next.startswith("/") and not next.startswith("//") and "\\" not in next else "/"
    response = RedirectResponse(target, status_code=303)
    if code in LANGUAGES:
        response.set_cookie(i18n.COOKIE, code, max_age=365 * 24 * 3600, samesite="lax")
    return response


@router.get("/healthz")
def healthz() -> Response:
    return PlainTextResponse("ok")
