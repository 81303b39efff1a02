"""LEGs (one stored transaction named by what the importer stores) and the expected file.

A LEG is {"file", "date", "amount", "currency", "description"}: the file's base name (the
`sources[].file` the store keeps), the record's date, its amount in the store's sign (negative =
money out of that account) as a plain decimal, its currency and its description as stored. The
generator builds every LEG from the same data it writes into the file, so a LEG names exactly
the row it was made from; scripts/check_transfer_samples.sh proves it through the real binary.
"""
from __future__ import annotations

import datetime as dt
import json
import os
from dataclasses import dataclass
from decimal import Decimal
from typing import List, Optional, Sequence


@dataclass(frozen=True)
class Leg:
    file: str
    date: dt.date
    amount: Decimal          # store sign
    currency: str
    description: str
    account: str = ""        # which account (for the self-check only; not written)

    def json(self) -> dict:
        return {"file": self.file, "date": self.date.isoformat(), "amount": f"{self.amount:.2f}",
                "currency": self.currency, "description": self.description}


@dataclass(frozen=True)
class Pair:
    out: Leg
    into: Leg
    why: Optional[str] = None


def check_no_accidental_pairs(rows: Sequence[Leg], transfers: Sequence[Pair], decoys: Sequence[Leg],
                              window_days: int = 7) -> None:
    """Refuse a scenario whose random filler made an unintended look-alike: an outflow in one
    account and an inflow of the same amount and currency in another account within the window
    that is neither a declared transfer nor involves a declared decoy. Declared decoys are the
    look-alikes on purpose, and so are two declared transfers of the same amount (pairing must
    then be one-to-one by date); anything else would make the expected file lie."""
    declared = {(p.out, p.into) for p in transfers}
    legs = {p.out for p in transfers} | {p.into for p in transfers}
    decoy = set(decoys)
    for o in rows:
        if o.amount >= 0:
            continue
        for i in rows:
            if i.account == o.account or i.amount != -o.amount or i.currency != o.currency:
                continue
            if abs((i.date - o.date).days) > window_days or (o, i) in declared or (o in legs and i in legs) or o in decoy or i in decoy:
                continue
            raise SystemExit(f"accidental transfer look-alike (change the seed): {o} / {i}")


def expected(transfers: Sequence[Pair], review: Sequence[Pair], not_transfers: Sequence[Leg],
             imports: List[dict]) -> dict:
    return {
        "transfers": [{"out": p.out.json(), "in": p.into.json()} for p in transfers],
        "review": [{"out": p.out.json(), "in": p.into.json(), "why": p.why} for p in review],
        "not_transfers": [l.json() for l in not_transfers],
        "imports": imports,
    }


def write_json(path: str, obj) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        json.dump(obj, f, ensure_ascii=False, indent=2)
        f.write("\n")
