"""``tourney keys``: create and inspect Ed25519 key files (docs/DESIGN.md §5).

Owns: ``keys new`` (FILE private 0600 + FILE.pub; the private key is never printed;
passphrase from TOURNEY_KEY_PASSPHRASE or an interactive prompt) and ``keys show``.
Never opens a ledger.

May import: ``typer``, ``cli.common``, ``ledger.wire.keys``, ``ledger.errors``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from cli.common import JsonOpt, Session, read_file_bytes
from ledger.errors import UsageError
from ledger.wire.keys import PASSPHRASE_ENV, load_public_key, load_signer, write_new_key

app = typer.Typer(no_args_is_help=True, help=(
    "Create and inspect Ed25519 signing keys.\n\n"
    "Example: tourney keys new --name 'Head Judge' --out hj.pem"))


@app.command("new")
def keys_new(
    ctx: typer.Context,
    name: Annotated[str, typer.Option("--name", help="Display name stored in the key files.")],
    out: Annotated[Path, typer.Option("--out", metavar="FILE",
                                      help="Private key file to create (FILE.pub too).")],
    passphrase_prompt: Annotated[bool, typer.Option(
        "--passphrase-prompt", help="Ask for a passphrase (typed twice) to encrypt FILE.")]
        = False,
    json: JsonOpt = False,
) -> None:
    """Create a key pair: FILE (private, mode 0600) and FILE.pub (public).

    The private key is never printed. It is encrypted with the passphrase in
    TOURNEY_KEY_PASSPHRASE, or with one typed at --passphrase-prompt.

    Example: tourney keys new --name "Ada (head judge)" --out hj.pem
    """
    s = Session(ctx, json=json)
    if not name.strip():
        raise UsageError("--name is empty", hint="give the key holder's name")
    passphrase: bytes | None = None
    if passphrase_prompt:
        text = typer.prompt("Passphrase", hide_input=True, confirmation_prompt=True,
                            err=True)
        if not text:
            raise UsageError("the passphrase is empty",
                             hint="type one, or leave out --passphrase-prompt")
        passphrase = text.encode()
    elif os.environ.get(PASSPHRASE_ENV):
        passphrase = os.environ[PASSPHRASE_ENV].encode()
    signer = write_new_key(out, name.strip(), passphrase)
    pub = out.with_name(out.name + ".pub")
    s.emit({"ok": True, "key_id": signer.key_id, "name": signer.name,
            "public_key": signer.public_key_b64, "private_key_file": str(out),
            "public_key_file": str(pub), "encrypted": passphrase is not None},
           [f"key id:      {signer.key_id}",
            f"name:        {signer.name}",
            f"private key: {out} (mode 0600{', encrypted' if passphrase else ''};"
            " keep it secret)",
            f"public key:  {pub}"])


@app.command("show")
def keys_show(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(metavar="FILE",
                                         help="A private key file or a FILE.pub.")],
    json: JsonOpt = False,
) -> None:
    """Show a key file's key id, name and public key (never the private key).

    Works on a private key file (needs TOURNEY_KEY_PASSPHRASE if it is encrypted,
    unless FILE.pub sits next to it) and on a public key file.

    Example: tourney keys show hj.pem.pub
    """
    s = Session(ctx, json=json)
    data = read_file_bytes(file, "key file")
    if b"PRIVATE KEY-----" in data:
        kind = "private"
        pub_file = file.with_name(file.name + ".pub")
        encrypted = b"ENCRYPTED PRIVATE KEY" in data
        if encrypted and not os.environ.get(PASSPHRASE_ENV) and pub_file.is_file():
            pk = load_public_key(pub_file)
            kid, name, b64 = pk.key_id, pk.name, pk.b64
        else:
            signer = load_signer(file)
            kid, name, b64 = signer.key_id, signer.name, signer.public_key_b64
    else:
        kind = "public"
        pk = load_public_key(file)
        kid, name, b64 = pk.key_id, pk.name, pk.b64
    s.emit({"key_id": kid, "name": name, "public_key": b64, "file": str(file), "kind": kind},
           [f"key id:     {kid}", f"name:       {name}", f"public key: {b64}",
            f"file:       {file} ({kind} key file)"])
