"""A bounded form body of the staff console: urlencoded, or multipart with files (a CSV
upload), parsed with the standard library (issue 29 item 1).

Owns: ``BODY_MAX`` and ``FILE_FIELDS``, ``read_body`` (the request's fields and files; a
body larger than ``BODY_MAX``, one that repeats a field or is not a form is refused:
``server.errors.Refused``, 413 / 400, before anything runs).

May import: ``starlette``, ``server.errors``, the standard library.
"""

from __future__ import annotations

from email.parser import BytesParser
from email.policy import HTTP
from urllib.parse import parse_qsl

from starlette.requests import Request

from server.errors import Refused

BODY_MAX = 4 * 1024 * 1024      # a registration CSV of thousands of players fits
FIELDS_MAX = 200
FILE_FIELDS = 16


async def _body(request: Request, limit: int) -> bytes:
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            size = f"{limit // (1024 * 1024)} MB" if limit >= 1024 * 1024 else \
                f"{limit // 1024} KB"
            raise Refused(413, f"This form is larger than {size}, more than any file this "
                          "form takes; send less.")
    return body


def _twice() -> Refused:
    return Refused(400, "This form gives a field twice; open the page again and send it "
                   "from there.")


async def read_body(request: Request, limit: int = BODY_MAX
                    ) -> tuple[dict[str, str], dict[str, bytes]]:
    """(fields, files) of the posted form, of at most ``limit`` bytes."""
    ctype = request.headers.get("content-type", "")
    body = await _body(request, limit)
    fields: dict[str, str] = {}
    files: dict[str, bytes] = {}
    if ctype.startswith("multipart/form-data"):
        msg = BytesParser(policy=HTTP).parsebytes(
            b"Content-Type: " + ctype.encode("latin-1") + b"\r\n\r\n" + body)
        if not msg.is_multipart():
            raise Refused(400, "This form could not be read; open the page again and send "
                          "it from there.")
        for n, part in enumerate(msg.iter_parts()):
            if n >= FIELDS_MAX:
                raise Refused(413, "This form has more fields than any form of the desk.")
            name = part.get_param("name", header="content-disposition")
            if not isinstance(name, str) or name in fields or name in files:
                if isinstance(name, str):
                    raise _twice()
                continue
            data = part.get_payload(decode=True)
            raw = data if isinstance(data, bytes) else b""
            if part.get_filename() is not None:
                if len(files) >= FILE_FIELDS:
                    raise Refused(413, "This form has more files than any form of the desk.")
                if raw:
                    files[name] = raw
            else:
                fields[name] = raw.decode("utf-8", "replace")
        return fields, files
    try:
        pairs = parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True,
                          max_num_fields=FIELDS_MAX)
    except ValueError:
        raise Refused(413, "This form has more fields than any form of the desk.") from None
    for k, v in pairs:
        if k in fields:
            raise _twice()
        fields[k] = v
    return fields, files
