"""Appeal proof files (issue 8 item 8): ``tourney proof SEQ --out FILE``, checked without the
ledger by ``tourney audit proof FILE`` and by the standalone ``docs/verify_proof.py``.
A flipped bit anywhere in the file is rejected by both."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.published_event import make_event

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "docs" / "verify_proof.py"


@pytest.fixture(scope="module")
def proof(tmp_path_factory: pytest.TempPathFactory) -> tuple[object, Path]:
    cli = make_event(tmp_path_factory.mktemp("proof"))
    cli("proof", "20", "--out", "appeal-20.json")
    return cli, cli.cwd / "appeal-20.json"


def script(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-O", str(SCRIPT), str(path)], capture_output=True,
                          text=True, timeout=60)


def test_script_is_about_fifty_lines() -> None:
    code = [x for x in SCRIPT.read_text().splitlines() if x.strip()]
    assert len(code) <= 60, len(code)


def test_proof_file_verifies_without_the_ledger(proof: tuple[object, Path],
                                                tmp_path: Path) -> None:
    cli, path = proof
    moved = tmp_path / "appeal.json"
    moved.write_bytes(path.read_bytes())  # no ledger beside it
    doc = cli("audit", "proof", str(moved), "--json", env={"TOURNEY_LEDGER": "/nonexistent"}  # type: ignore[operator]
              ).doc
    assert doc["ok"] and doc["seq"] == 20 and doc["kind"] == "result_recorded"
    run = script(moved)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "seq 20 result_recorded" in run.stdout


def test_existing_out_file_is_refused(proof: tuple[object, Path]) -> None:
    cli, path = proof
    before = path.read_bytes()
    cli("proof", "3", "--out", path.name, code=2)  # type: ignore[operator]
    assert path.read_bytes() == before


def test_every_flipped_bit_is_rejected(proof: tuple[object, Path], tmp_path: Path) -> None:
    from ledger.errors import VerificationError
    from ledger.proofs.proof_file import verify_proof_file

    cli, path = proof
    data = path.read_bytes()
    positions = range(0, len(data), max(1, len(data) // 400))
    for pos in positions:
        for bit in (0, 5):
            bad = bytearray(data)
            bad[pos] ^= 1 << bit
            with pytest.raises(VerificationError):
                verify_proof_file(bytes(bad))
    # the CLI and the standalone script on a few flips (subprocesses are slow)
    for pos in (len(data) // 5, len(data) // 2, len(data) - 40):
        bad = bytearray(data)
        bad[pos] ^= 1
        flipped = tmp_path / f"flipped-bit-{pos}.json"
        flipped.write_bytes(bytes(bad))
        run = cli("audit", "proof", str(flipped), "--json", code=4)  # type: ignore[operator]
        assert run.doc["error"]["code"] == "proof_invalid"
        assert script(flipped).returncode == 4       # proof_invalid's code (docs/DESIGN.md §8)


def test_verify_proof_script_exits_with_the_documented_verification_code(
        proof: tuple[object, Path], tmp_path: Path) -> None:
    """docs/AUDIT.md §3.4 and I21-6: a proof that does not verify is exit 4, as
    ``tourney audit proof`` (the script exited 1, the CLI's internal-error code); no
    readable FILE is a usage error, exit 2."""
    _cli, path = proof
    doc = path.read_text()
    forged = tmp_path / "forged-event-seq.json"
    forged.write_text(doc.replace('"seq": 20', '"seq": 19', 1))
    run = script(forged)
    assert run.returncode == 4 and run.stdout.startswith("INVALID: "), run.stdout
    not_json = tmp_path / "not-a-proof.json"
    not_json.write_text("hello")
    assert script(not_json).returncode == 4
    missing = script(tmp_path / "no-such-proof.json")
    assert missing.returncode == 2 and "no-such-proof.json" in missing.stderr
    bare = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True,
                          timeout=60)
    assert bare.returncode == 2 and "usage" in bare.stderr
