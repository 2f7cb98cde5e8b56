"""The receipts of ``tourney serve --station-key`` (issue 19, second part): what a phone is
shown once the server has written its act.

Owns: ``routes`` — ``GET /receipt/N`` and ``/receipt/N.json`` (the signed event and its
leaf hash: the promise that it is in the log; the page waits until the pages show a log
that holds it, ``Hub.fresh``) and ``/receipt/N/proof.json`` (the inclusion proof against
the newest signed checkpoint, ``server.site_routes.proof_page``), mounted at
``/receipt`` — and what a receipt says: which events get one, its title, the event in a
player's words.

May import: ``starlette``, ``server.hub``, ``server.forms``, ``server.site_routes``,
``server.acts``, ``server.errors``, ``server.i18n``, ``usecases.*``, ``ledger.*``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Mount, Route, Router

from ledger.errors import StorageError, TourneyError
from ledger.wire.events import Kind
from ledger.wire.receipt import encode_receipt
from server.acts import receipt_code
from server.errors import whole
from server.forms import private_page
from server.hub import Hub
from server.i18n import of_request
from server.site_routes import proof_page
from usecases.receipt import receipt_of
from usecases.receipt import receipted as _receipted

SEQ_DIGITS = 18     # a seq fits SQLite's and PostgreSQL's 64-bit integers

_TITLES = {Kind.RESULT_REPORTED.value: "Your report is in the log",
           Kind.REPORT_REJECTED.value: "This rejection is in the log",
           Kind.DEVICE_KEY_BOUND.value: "Your phone's key is in the log"}


def _title(hub: Hub, ev: dict[str, Any]) -> str:
    """A receipt's heading: a core kind's own words; a decision citing reports reads as the
    format words its result; a player's own act by its kind."""
    from ledger.core.format_socket import plugin_for

    kind, body = ev["kind"], ev["body"]
    if kind in _TITLES:
        return _TITLES[kind]
    st = hub.follower.state
    plugin = plugin_for(st.format.id if st.format else None)
    if "reports" in body and plugin is not None:
        return f"In the log: {plugin.views.describe_body(body)}"
    return f"In the log: {kind.replace('_', ' ')}"


def _said(hub: Hub, ev: dict[str, Any], word: Callable[[str], str] = str) -> str:
    """What the receipt's event says, in a player's words: what was reported, for which
    round and table (the vocabulary's ``player_label``s), or the act it records; ``word``
    puts a report's labels and values in the page's language (the whole sentence is
    translated by the template's ``ps``), never a name."""
    from ledger.core.format_socket import plugin_for
    from ledger.core.vocabulary import FieldKind

    body = ev.get("body") or {}
    st = hub.follower.state
    labels = hub.pages.data.labels
    plugin = plugin_for(st.format.id if st.format else None)
    vocab = plugin.entry.result_vocabulary() if plugin is not None else None
    where = f"round {body['round']}, table {body['table']}" \
        if "round" in body and "table" in body else ""
    if ev.get("kind") == Kind.RESULT_REPORTED.value:
        parts = []
        for name, text in (body.get("given") or {}).items():
            try:
                f = vocab.field(name) if vocab is not None else None
            except KeyError:
                f = None
            label = word(f.player_label if f is not None and f.player_label else
                         name.replace("_", " ").capitalize())
            shown = str(text)
            if f is not None and f.kind is FieldKind.PLAYER and shown.isdigit():
                shown = labels.get(int(shown), f"#{shown}")
            elif f is not None and f.kind in (FieldKind.FLAG, FieldKind.SWITCH):
                shown = word("yes" if shown.lower() in ("yes", "true", "1") else "no")
            elif f is not None and f.kind is FieldKind.CODE and vocab is not None:
                entry = next((e for e in vocab.entries if e.value == shown), None)
                shown = word(entry.player_label) if entry is not None else shown
            parts.append(f"{label}: {shown}")
        who = labels.get(int(body.get("number", 0)), "")
        return f"{who} reported for {where}: " + "; ".join(parts) + "."
    if ev.get("kind") == Kind.REPORT_REJECTED.value:
        return f"A report for {where} was set aside: {body.get('reason', '')}."
    if ev.get("kind") == Kind.DEVICE_KEY_BOUND.value:
        return "This phone's key now signs this card's reports."
    if "reports" in body and plugin is not None:
        return f"The result of {where} is recorded: {plugin.views.describe_body(body)}." \
            if where else f"Recorded: {plugin.views.describe_body(body)}."
    if "credential" in body and "number" in body:
        who = labels.get(int(body["number"]), f"#{body['number']}")
        return f"{who}: {ev.get('kind', '').replace('_', ' ')}."
    return ""


def _leaf(hub: Hub, seq: int) -> bytes | None:
    from ledger.storage.store import Ledger

    with Ledger(hub.location, readonly=True) as led:
        return led.raw_leaf(hub.follower.log, seq)


async def receipt(request: Request) -> Response:
    hub = Hub.of(request)
    lang = of_request(request, hub.pages.data.language)
    raw = request.path_params["seq"]
    want_json = raw.endswith(".json")
    seq = raw.removesuffix(".json")
    n = whole(seq, SEQ_DIGITS)
    leaf = await run_in_threadpool(_leaf, hub, n) if n is not None else None
    doc = None if n is None else receipt_of(hub.follower.log, n, leaf)
    if n is None or leaf is None or doc is None:
        return private_page(hub, "notfound.html", 404, lang=lang,
                            what="There is no report with that number.")
    if want_json:
        return Response(encode_receipt(doc), media_type="application/json",
                        headers={"Content-Disposition":
                                 f'attachment; filename="receipt-{seq}.json"'})
    signed = json.loads(leaf)
    ev = signed["event"]
    off = hub.follower.state.officials.get(ev.get("actor", ""))
    await hub.fresh(int(seq), shown=True)
    return private_page(hub, "receipt.html", 200, lang=lang, doc=doc, title=_title(hub, ev),
                        said=_said(hub, ev, hub.pages.sentences(lang)),
                        signer=off.name if off else ev.get("actor"),
                        code=receipt_code(n, leaf),
                        event=json.dumps(signed, indent=1, ensure_ascii=False))


async def included(request: Request) -> Response:
    """The receipt upgraded: the report's inclusion proof against the newest signed
    checkpoint with its witness cosignatures (``tourney audit proof FILE``)."""
    hub = Hub.of(request)
    seq = request.path_params["seq"]
    n = whole(seq, SEQ_DIGITS)
    leaf = await run_in_threadpool(_leaf, hub, n) if n is not None else None
    if n is None or leaf is None or not _receipted(leaf):
        return private_page(hub, "notfound.html", 404,
                            what="There is no report with that number.")
    try:
        p = await run_in_threadpool(proof_page, hub, n)
    except StorageError:
        raise
    except TourneyError as err:
        return private_page(hub, "notfound.html", 404, what=f"No proof yet: {err.message}. "
                            f"{err.hint or ''}".strip())
    return Response(p.body, media_type="application/json", headers={
        "Content-Disposition": f'attachment; filename="report-{seq}-proof.json"'})


routes: list[BaseRoute] = [
    Mount("/receipt", routes=[Route("/{seq}/proof.json", included), Route("/{seq}", receipt)]),
    # the bare prefix stays the page not found (a Mount alone answers it with a redirect to
    # "/receipt/"): a router of no routes raises the 404 every unknown address gets
    Route("/receipt", Router()),
]
